/**
 * `statefold gen --model operations` (src/cli/gen.ts over src/generate/operations/): it writes
 * the generator's bytes to stdout or --out, the reference audit (docs/models/operations.md)
 * finds exactly the faults it was asked for, the dag journals are unchanged, and a bad flag is
 * one clean usage error. In process, through runCli.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { syntheticJournal } from "../../src/generate/dag/synthetic-journal.js";
import { OPERATIONS_FAULT_KINDS } from "../../src/generate/operations/fault-kinds.js";
import {
  type InjectedOperationsFault,
  type OperationsJournalOptions,
  operationsJournal,
} from "../../src/generate/operations/journal.js";
import { audit, type OperationsReport } from "../../src/models/operations/index.js";
import { testTempDir } from "../support/temp-dirs.js";

async function gen(args: readonly string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["gen", ...args], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    colour: false,
  });
  return { code, stdout, stderr };
}

const journalOf = (options: OperationsJournalOptions) => [...operationsJournal(options)].join("");

function auditText(text: string): OperationsReport {
  const records = text
    .split("\n")
    .slice(1, -1)
    .map((line) => JSON.parse(line) as unknown);
  return audit(records, { lines: records.map((_, i) => i + 2) });
}

const tempDir = () => testTempDir("statefold-gen-operations-");

describe("statefold gen --model operations", () => {
  it("writes the generator's journal, strictly conformant: the same bytes for the same options", async () => {
    const args = ["--model", "operations", "--events", "1500", "--seed", "9", "--strands", "3"];
    const run = await gen(args);
    expect(run).toEqual({
      code: 0,
      stdout: journalOf({ events: 1500, seed: 9, strands: 3 }),
      stderr: "",
    });
    expect(run.stdout.split("\n")[0]).toBe(
      '{"statefold":"journal","version":1,"model":"operations"}',
    );
    expect(auditText(run.stdout).strictlyConformant).toBe(true);
    expect(await gen(args)).toEqual(run);
    expect((await gen(["--model", "operations", "--events", "1500"])).stdout).not.toBe(run.stdout);
  });

  it("defaults to 10000 records on 8 strands, seed 1", async () => {
    const run = await gen(["--model", "operations"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(journalOf({ events: 10000, seed: 1, strands: 8 }));
    expect(run.stdout.split("\n")).toHaveLength(10002);
  });

  it("--out FILE writes the bytes it would print", async () => {
    const out = join(tempDir(), "ops.jsonl");
    const args = ["--model", "operations", "--events", "800", "--inject", "busy-strand:2"];
    const printed = await gen(args);
    expect(await gen([...args, "--out", out])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(out, "utf8")).toBe(printed.stdout);
  });

  it("--inject: the audit finds exactly the faults asked for, at their lines", async () => {
    const args = ["--model", "operations", "--events", "3000", "--seed", "4"];
    const inject = OPERATIONS_FAULT_KINDS.flatMap((kind) => ["--inject", kind]);
    const run = await gen([...args, ...inject]);
    expect(run.code).toBe(0);
    const injected: InjectedOperationsFault[] = [];
    const faults = OPERATIONS_FAULT_KINDS.map((kind) => ({ kind, count: 1 }));
    const expected = journalOf({
      events: 3000,
      seed: 4,
      faults,
      onInjected: (fault) => injected.push(fault),
    });
    expect(run.stdout).toBe(expected);
    const report = auditText(run.stdout);
    expect(report.legality.illegal).toBe(10);
    expect(report.legality.first.map(({ line, reason }) => ({ line, reason }))).toEqual(
      injected.map(({ line, reason }) => ({ line, reason })),
    );
  });

  it("adds up repeated --inject of one kind", async () => {
    const args = ["--model", "operations", "--events", "2000"];
    const split = await gen([...args, "--inject", "early-retry", "--inject", "early-retry:2"]);
    const whole = await gen([...args, "--inject", "early-retry:3"]);
    expect(split.stdout).toBe(whole.stdout);
    expect(auditText(whole.stdout).legality.illegal).toBe(3);
  });

  it("leaves the dag journals as they were, with or without --model dag", async () => {
    const args = ["--nodes", "12", "--events", "300", "--seed", "5", "--inject", "torn-tail"];
    const plain = await gen(args);
    expect(await gen(["--model", "dag", ...args])).toEqual(plain);
    const campaign = { nodes: 12, events: 300, seed: 5 };
    expect(plain.stdout).toBe(
      [...syntheticJournal({ campaign, faults: [{ kind: "torn-tail", count: 1 }] })].join(""),
    );
  });

  const OPERATIONS_KINDS = OPERATIONS_FAULT_KINDS.map((kind) => `'${kind}'`);
  it.each([
    [
      ["--model", "operations", "--nodes", "3"],
      "--nodes is an option of --model dag, not operations",
    ],
    [
      ["--model", "operations", "--parallelism", "2"],
      "--parallelism is an option of --model dag, not operations",
    ],
    [["--strands", "3"], "--strands is an option of --model operations, not dag"],
    [
      ["--model", "operations", "--strands", "0"],
      "--strands must be a whole number ≥ 1, found '0'",
    ],
    [
      ["--model", "operations", "--strands", "1000001"],
      "--strands must be at most 1000000, found '1000001'",
    ],
    [["--model", "operations", "--events", "x"], "--events must be a whole number ≥ 0, found 'x'"],
    [["--model", "graph"], "--model must be 'dag' or 'operations' or 'executive', found 'graph'"],
    [
      ["--model", "operations", "--inject", "torn-tail"],
      `--inject torn-tail is a fault of --model dag; the faults of --model operations are ${OPERATIONS_KINDS.join(", ")}`,
    ],
    [
      ["--inject", "stale-epoch"],
      "--inject stale-epoch is a fault of --model operations; the faults of --model dag are 'illegal-transition', 'unproven-dispatch', 'surface-shrink', 'unknown-node', 'malformed-line', 'torn-tail'",
    ],
    [
      ["--model", "operations", "--inject", "gremlins"],
      `--inject must be ${OPERATIONS_KINDS.join(" or ")}, found 'gremlins'`,
    ],
    [
      ["--model", "operations", "--inject", "misclassified:0"],
      "--inject misclassified: must be a whole number ≥ 1, found '0'",
    ],
    [
      ["--model", "operations", "--events", "5", "--inject", "busy-strand:6"],
      "cannot inject 6 faults into 5 records; generate more events",
    ],
    [
      ["--model", "operations", "--events", "40", "--inject", "intent-after-cancel:30"],
      expect.stringMatching(
        /^cannot inject 30 intent-after-cancel: (none|only \d+) found a place \(a cancelled op with no effect outstanding\) in 40 records; generate more events, or change --seed$/,
      ),
    ],
  ])("gen %j: one line saying what is wrong, exit 2", async (args, message) => {
    const run = await gen(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const [line, rest] = run.stderr.split(" (see 'statefold gen --help')\n");
    expect(rest).toBe("");
    expect(line?.replace(/^statefold: /, "")).toEqual(message);
  });

  it("a refused plan leaves no file behind", async () => {
    const out = join(tempDir(), "refused.jsonl");
    const run = await gen([
      "--model",
      "operations",
      "--events",
      "10",
      "--inject",
      "blind-retry:9",
      "--out",
      out,
    ]);
    expect(run.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  it("--help names the model, its options and its faults", async () => {
    const run = await gen(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: statefold gen \[--model dag\|operations\|executive\]/);
    expect(run.stdout).toContain("--strands N");
    for (const kind of OPERATIONS_FAULT_KINDS) expect(run.stdout).toContain(`\n    ${kind} `);
  });
});
