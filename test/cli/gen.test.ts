import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAULT_KINDS } from "../../src/generate/dag/fault-kinds.js";
import type { InjectedFault } from "../../src/generate/dag/faults.js";
import { syntheticJournal } from "../../src/generate/dag/synthetic-journal.js";
import { EXECUTIVE_FAULT_KINDS } from "../../src/generate/executive/journal.js";
import { OPERATIONS_FAULT_KINDS } from "../../src/generate/operations/fault-kinds.js";
import type { Report } from "../../src/models/dag/report.js";
import { eventsIn, expectReportOfFaults } from "../support/fault-verdict.js";
import {
  expectCleanFailure,
  statefold,
  statefoldInProcess,
  tempFile,
  tempFiles,
} from "./cli-process.js";

const CAMPAIGN = ["--nodes", "25", "--events", "500", "--seed", "3"];

describe("statefold gen", () => {
  it("lists every fault of every model in its help, its name apart from what it does", async () => {
    const help = (await statefoldInProcess(["gen", "--help"])).stdout;
    const kinds = [...FAULT_KINDS, ...OPERATIONS_FAULT_KINDS, ...EXECUTIVE_FAULT_KINDS];
    for (const kind of kinds) expect(help).toMatch(new RegExp(`\\n {4}${kind} +\\S`));
  });

  it("writes the generator's journal: the same bytes for the same options, others for another seed", async () => {
    const args = ["gen", "--nodes", "12", "--events", "300", "--seed", "5", "--max-deps", "2"];
    const first = await statefoldInProcess([...args, "--parallelism", "4"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe("");
    expect(await statefoldInProcess([...args, "--parallelism", "4"])).toEqual(first);
    const campaign = { nodes: 12, events: 300, seed: 5, maxDeps: 2, parallelism: 4 };
    expect(first.stdout).toBe([...syntheticJournal({ campaign })].join(""));
    const reseeded = await statefoldInProcess(["gen", "--nodes", "12", "--events", "300"]);
    expect(reseeded.stdout).not.toBe(first.stdout);
  });

  it("--out FILE writes the bytes it would print", async () => {
    const out = join(tempFiles({}), "journal.jsonl");
    const args = ["gen", ...CAMPAIGN, "--inject", "torn-tail", "--inject", "surface-shrink:2"];
    const printed = await statefold(args);
    const written = await statefold([...args, "--out", out]);
    expect(written).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(out, "utf8")).toBe(printed.stdout);
  });

  it.each(FAULT_KINDS)("--inject %s: the audit of the journal names each one", async (kind) => {
    const count = kind === "torn-tail" ? 1 : 2;
    const run = await statefoldInProcess(["gen", ...CAMPAIGN, "--inject", `${kind}:${count}`]);
    const injected: InjectedFault[] = [];
    const campaign = { nodes: 25, events: 500, seed: 3 };
    const faults = [{ kind, count }];
    const onInjected = (fault: InjectedFault) => injected.push(fault);
    expect(run.stdout).toBe([...syntheticJournal({ campaign, faults, onInjected })].join(""));
    expect(injected).toHaveLength(count);
    const file = tempFile("j.jsonl", run.stdout);
    const audit = await statefoldInProcess(["audit", "--format", "json", file]);
    const report = JSON.parse(audit.stdout) as Report;
    expectReportOfFaults(report, injected, eventsIn(run.stdout));
    expect(audit.code).toBe(report.conformant ? 0 : 1);
  });

  it("adds up repeated --inject of one kind", async () => {
    const twice = await statefoldInProcess([
      "gen",
      ...CAMPAIGN,
      "--inject",
      "illegal-transition",
      "--inject",
      "illegal-transition:2",
    ]);
    const thrice = await statefoldInProcess([
      "gen",
      ...CAMPAIGN,
      "--inject",
      "illegal-transition:3",
    ]);
    expect(twice.stdout).toBe(thrice.stdout);
  });

  it.each([
    [["--nodes", "x"], "--nodes must be a whole number ≥ 0, found 'x'"],
    [["--events", "-1"], "--events must be a whole number ≥ 0, found '-1'"],
    [["--events=-1"], "--events must be a whole number ≥ 0, found '-1'"],
    [["--parallelism", "0"], "--parallelism must be a whole number ≥ 1, found '0'"],
    [["--pass-rate", "1.5"], "--pass-rate must be a number from 0 to 1, found '1.5'"],
    [
      ["--inject", "gremlins"],
      "--inject must be 'illegal-transition' or 'unproven-dispatch' or 'surface-shrink' or 'unknown-node' or 'malformed-line' or 'torn-tail', found 'gremlins'",
    ],
    [["--inject", "torn-tail:2"], "a journal holds at most 1 torn-tail"],
    [
      ["--inject", "unknown-node:0"],
      "--inject unknown-node: must be a whole number ≥ 1, found '0'",
    ],
    [["journal.jsonl"], "gen takes no arguments, found 'journal.jsonl'"],
    [
      ["--nodes", "3", "--events", "4", "--inject", "unproven-dispatch:40"],
      "cannot inject 40 unproven-dispatch: the journal has 5 places for one (a queued node with a dependency not yet proven); generate more events or nodes",
    ],
  ])("gen %j: one line saying what is wrong, exit 2", async (args, message) => {
    const run = await statefoldInProcess(["gen", ...args]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(`statefold: ${message} (see 'statefold gen --help')\n`);
    expect(run.stdout).toBe("");
  });

  it("--out into a missing directory: the file named, exit 2, nothing written", async () => {
    const out = join(tempFiles({}), "no", "such", "dir.jsonl");
    const run = await statefoldInProcess(["gen", "--out", out]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(`statefold: ${out}: cannot write: no such directory\n`);
    expect(existsSync(out)).toBe(false);
  });
});
