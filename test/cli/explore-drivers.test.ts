/**
 * `statefold explore --model operations --driver` and `--model executive --driver`
 * (docs/explore.md, "Refinement of an effect runtime", "Refinement of an executive"): the text
 * with its verdict line last, the JSON evidence, `--out`, the exit codes, a driver's failures,
 * and the flags that do not go together.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "../support/temp-dirs.js";
import { type CliRun, statefoldInProcess } from "./cli-process.js";

const run = (...args: string[]): Promise<CliRun> => statefoldInProcess(args);
const RUNTIME = "node examples/drivers/effect-driver.mjs";

describe("statefold explore --model operations --driver", () => {
  it("passes the honest runtime, saying what it drove, the verdict last", async () => {
    const result = await run(
      "explore",
      "--model",
      "operations",
      "--driver",
      RUNTIME,
      "--depth",
      "2",
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      `statefold explore --model operations --driver ${RUNTIME}: 1 strand, 2 ops of 1 step, policy {"maxAttempts":2,"baseDelayMs":100,"maxDelayMs":1000}, depth 2, up to 2 faults, progress bound 32`,
    );
    expect(lines[1]).toMatch(
      /^ {2}[\d,]+ schedules, [\d,]+ environment events driven, [\d,]+ distinct states, depth reached 2 \(\d+\.\d s\)$/,
    );
    expect(lines.at(-1)).toBe(
      "✓ nothing found: every journal strictly conformant, the ledger agreed with it, and the benign schedule finished every op from every state",
    );
  });

  it("catches a defect, writes its evidence and --out's journal and schedule, exit 1", async () => {
    const out = join(testTempDir("statefold-explore-driver-"), "found");
    const result = await run(
      "explore",
      "--model",
      "operations",
      "--driver",
      `${RUNTIME} --defect unfenced`,
      "--depth",
      "3",
      "--faults",
      "1",
      "--format",
      "json",
      "--out",
      out,
    );
    expect(result.code).toBe(1);
    const evidence = JSON.parse(result.stdout);
    expect(evidence).toMatchObject({
      configuration: { model: "operations", strands: 1, ops: 2, keys: 1 },
      bound: { depth: 3, faults: 1, progressBound: 32 },
      findings: [
        {
          check: "journal",
          what: "fencing (stale-epoch)",
          schedule: [
            { submit: { op: "o1", strand: "s1", steps: ["k1"] } },
            { takeover: { strand: "s1", executed: [] } },
          ],
        },
      ],
    });
    expect(evidence.schedules).toBeGreaterThan(0);
    expect(evidence.environmentEvents).toBeGreaterThan(evidence.schedules);
    expect(readdirSync(out).sort()).toEqual([
      "finding-1-fencing-stale-epoch-schedule.jsonl",
      "finding-1-fencing-stale-epoch.jsonl",
    ]);
    // The runtime's journal, written as one statefold audits: the stale write is its finding.
    const audited = await run("audit", join(out, "finding-1-fencing-stale-epoch.jsonl"));
    expect(audited.code).toBe(1);
    expect(audited.stdout).toContain("stale-epoch");
  });

  it("prints the shrunk schedule and the runtime's journal, the verdict last", async () => {
    const result = await run(
      "explore",
      "--model",
      "operations",
      "--driver",
      `${RUNTIME} --defect hint-ignored`,
      "--depth",
      "2",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "  the runtime's journal is not strictly conformant: line 3 breaks retryLadder: ladder-mismatch\n" +
        "  the schedule, shrunk to 2 events:\n" +
        '    1  {"submit":{"op":"o1","strand":"s1","steps":["k1"]}}\n' +
        '    2  {"respond":{"call":"c1","result":"retryable","retryAfterMs":2500}}\n' +
        "  the runtime's journal:\n",
    );
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe(
      "✗ found retryLadder (ladder-mismatch): the journal check failed",
    );
  });

  it("reports a driver that crashes, hangs, prints garbage, answers out of protocol or otherwise each time as a driver failure", async () => {
    // Each answers the reset, then fails at the first event (the last: at the second schedule).
    const node = (onEvent: string) =>
      `node -e ${JSON.stringify(
        `require('readline').createInterface({input: process.stdin}).on('line', (l) => { if (l.startsWith('{"reset"')) console.log('{"ok":true}'); else { ${onEvent} } })`,
      )}`;
    for (const [command, message] of [
      [node("process.exit(3)"), "exited with status 3"],
      [node("console.log('hello')"), "answered with a line that is not JSON"],
      [node(""), "gave no answer within 2000 ms"],
      [node(`console.log('{"journal":[]}')`), 'not {"journal": [lines], "calls": '],
      [node(`console.log('{"journal":[],"calls":[{"id":1}],"wake":null}')`), 'not {"journal"'],
      [
        node(
          "console.log(JSON.stringify({journal: [], calls: [{id: String(Math.random()), type: 'readback', op: 'o1', effect: 'e'}], wake: null}))",
        ),
        "a runtime must be deterministic given the same events",
      ],
    ] as const) {
      const result = await run(
        "explore",
        "--model",
        "operations",
        "--driver",
        command,
        "--driver-timeout",
        "2000",
        "--depth",
        "2",
      );
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toContain(message);
      expect(result.stdout, command).toBe("");
    }
  });

  it("refuses flags that do not go together, naming why", async () => {
    for (const [args, message] of [
      [["--model", "operations", "--faults", "2"], "a number of faults goes with --driver"],
      [["--model", "operations", "--progress-bound", "5"], "--progress-bound goes with --driver"],
      [
        ["--model", "operations", "--driver", RUNTIME, "--mutants"],
        "--mutants explores the model itself, not a --driver",
      ],
      [
        ["--model", "operations", "--driver", RUNTIME, "--faults"],
        "with --driver, --faults N bounds the faults of each schedule",
      ],
      [
        ["--model", "executive", "--driver", "true", "--faults", "1"],
        "--faults N bounds the faults of an effect runtime",
      ],
      [["--model", "operations", "--driver", RUNTIME, "--faults", "-1"], "--faults"],
    ] as const) {
      const result = await run("explore", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain(message);
    }
  });
});

describe("statefold explore --model executive --driver", () => {
  const HOST = "node examples/drivers/executive-driver.mjs";

  it("passes the honest host and catches the one whose restart rolls back, exit 1", async () => {
    const honest = await run("explore", "--model", "executive", "--driver", HOST, "--depth", "3");
    expect(honest.code).toBe(0);
    expect(honest.stdout.trimEnd().split("\n").at(-1)).toBe(
      "✓ the host journaled the machine's decision everywhere, restarted or not, and its journal audited strictly conformant",
    );
    const defect = await run(
      "explore",
      "--model",
      "executive",
      "--driver",
      `${HOST} --with-defect`,
      "--depth",
      "3",
      "--format",
      "json",
    );
    expect(defect.code).toBe(1);
    const evidence = JSON.parse(defect.stdout);
    expect(evidence.configuration).toMatchObject({
      model: "executive",
      driver: `${HOST} --with-defect`,
    });
    expect(evidence.divergence.actions).toEqual([
      { observation: { tag: "start", now: 0 } },
      { restart: true },
      { observation: { tag: "start", now: 0 } },
    ]);
  });
});
