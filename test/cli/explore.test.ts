/**
 * `statefold explore` (docs/explore.md): the summary and the evidence of a tiny exploration, a
 * DAG file explored alone, usage errors, the mutants with their counterexamples written to a
 * folder, and the refinement check through a driver.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DAG_MUTANTS } from "../../src/explore/dag/mutants.js";
import { EXECUTIVE_MUTANTS } from "../../src/explore/executive/mutants.js";
import { OPERATIONS_MUTANTS } from "../../src/explore/operations/mutants.js";
import { testTempDir } from "../support/temp-dirs.js";
import { type CliRun, statefoldInProcess, tempFile } from "./cli-process.js";

const run = (...args: string[]): Promise<CliRun> => statefoldInProcess(args);

describe("statefold explore", () => {
  it("prints the configuration, the bound and what was explored, and passes with nothing found", async () => {
    const result = await run("explore", "--nodes", "1", "--paths", "0", "--depth", "3");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      "statefold explore --model dag: every DAG of 1 to 1 node (1, up to isomorphism), surfaces from 0 paths, depth 3",
    );
    expect(lines[1]).toBe(
      "  1 initial state, 16 states, 10 distinct, 15 transitions, depth reached 3",
    );
    expect(lines[3]).toMatch(/^✓ nothing found/);
  });

  it("writes the evidence as JSON, and explores one DAG of a file", async () => {
    const result = await run(
      "explore",
      "--dag",
      "examples/diamond.dag.json",
      "--depth",
      "4",
      "--format",
      "json",
    );
    expect(result.code).toBe(0);
    const evidence = JSON.parse(result.stdout);
    expect(evidence).toMatchObject({
      configuration: {
        model: "dag",
        dags: { file: "examples/diamond.dag.json" },
        paths: 1,
      },
      bound: { depth: 4 },
      initialStates: 1,
      depthReached: 4,
      findings: [],
    });
    expect(evidence.configuration.dags.shape).toMatch(/<-/);
    expect(evidence.distinctStates).toBeGreaterThan(10);
  });

  it("refuses what it cannot explore, naming why", async () => {
    for (const [args, message] of [
      [
        ["--model", "executive", "--spec", "examples/executive/spec.json"],
        "--spec and --budget go together",
      ],
      [
        [
          "--model",
          "executive",
          "--spec",
          "examples/executive/spec.json",
          "--budget",
          "examples/executive/spec.json",
        ],
        "examples/executive/spec.json: refused (invalid-budget) at steps",
      ],
      [
        ["--model", "executive", "--policy", "p.json"],
        "--policy is a flag of the operations model, not of executive",
      ],
      [
        ["--model", "operations", "--nodes", "2"],
        "--nodes is a flag of the dag model, not of operations",
      ],
      [["--strands", "2"], "--strands is a flag of the operations model, not of dag"],
      [["--model", "operations", "--policy", "examples/diamond.dag.json"], "expected a policy"],
      [["--nodes", "9"], "--nodes must be at most 4"],
      [["--nodes", "2", "--dag", "examples/diamond.dag.json"], "give one"],
      [["--depth", "ten"], "--depth must be a whole number"],
      [["journal.jsonl"], "explore takes no journal"],
    ] as const) {
      const result = await run("explore", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });
});

describe("statefold explore --model operations", () => {
  it("explores a runtime's commits under a policy of a file, with the effect faults", async () => {
    const policy = tempFile(
      "policy.json",
      '{"maxAttempts": 3, "baseDelayMs": 50, "maxDelayMs": 400}',
    );
    const result = await run(
      "explore",
      "--model",
      "operations",
      "--policy",
      policy,
      "--attempts",
      "3",
      "--depth",
      "5",
      "--faults",
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      'statefold explore --model operations: 1 strand, 2 ops of 1 step, attempts up to 3, 1 lease, policy {"maxAttempts":3,"baseDelayMs":50,"maxDelayMs":400}, depth 5',
    );
    // The verdict is the run's last line, after the fault matrix (issue 32).
    expect(lines.at(-2)).toMatch(/^✓ nothing found/);
    expect(result.stdout).toMatch(/lost-response +\d+ made/);
    expect(result.stdout).toMatch(
      /restart +[\d,]+ splits by snapshot and resume, every one the whole audit's report/,
    );
  });
});

describe("statefold explore --model executive", () => {
  it("explores the observations of a spec and budget of files, with the faults and restarts", async () => {
    const result = await run(
      "explore",
      "--model",
      "executive",
      "--spec",
      "examples/executive/spec.json",
      "--budget",
      "examples/executive/budget.json",
      "--depth",
      "4",
      "--faults",
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(
      /^statefold explore --model executive: the spec examples\/executive\/spec.json under the budget examples\/executive\/budget.json \(\{"steps":40,.*\}\), depth 4$/,
    );
    expect(lines.at(-2)).toMatch(/^✓ nothing found/);
    expect(result.stdout).toMatch(
      /restart +[\d,]+ splits by snapshot and resume, every one the whole audit's report/,
    );
  });
});

describe("statefold explore --model executive --mutants", () => {
  it("kills every executive mutant, each with its journal", async () => {
    const result = await run("explore", "--model", "executive", "--mutants", "--format", "json");
    expect(result.code).toBe(0);
    const { mutants } = JSON.parse(result.stdout);
    expect(mutants.killed).toBe(EXECUTIVE_MUTANTS.length);
    const tick = mutants.mutants.find(
      ({ name }: { name: string }) => name === "terminal-accepts-tick",
    );
    expect(tick).toMatchObject({ killed: true, madeBy: "reference", differs: "decisionsMatch" });
    expect(
      tick.journal.map(({ observation }: { observation: { tag: string } }) => observation.tag),
    ).toEqual(["cancel", "tick"]);
  });
});

describe("statefold explore --model operations --mutants", () => {
  it("kills every operations mutant, each with its journal", async () => {
    const result = await run("explore", "--model", "operations", "--mutants", "--format", "json");
    expect(result.code).toBe(0);
    const { mutants } = JSON.parse(result.stdout);
    expect(mutants.killed).toBe(OPERATIONS_MUTANTS.length);
    const hint = mutants.mutants.find(({ name }: { name: string }) => name === "hint-ignored");
    expect(hint).toMatchObject({ killed: true, madeBy: "reference", differs: "retryLadder" });
    expect(hint.journal.at(-1)).toMatchObject({ kind: "settled", retryAfterMs: 2500 });
  });
});

describe("statefold explore --mutants", () => {
  it("kills every mutant, shows each one's shrunk journal, and writes it where --out says, never over a file", async () => {
    const out = join(testTempDir("statefold-explore-"), "counterexamples");
    const result = await run("explore", "--nodes", "2", "--depth", "5", "--mutants", "--out", out);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `Mutants of the reference, each explored to depth 5 beside it: ${DAG_MUTANTS.length} of ${DAG_MUTANTS.length} killed`,
    );
    expect(result.stdout).toContain(
      "  ✓ killed dispatch-ignores-dependencies: dispatch does not check that the node's dependencies are proven\n" +
        "    told apart by legality, on a journal of the mutant's actions from DAG a; b<-a (1 record):\n" +
        '      1  {"kind":"dispatched","id":"b"}   the reference: scheduleCorrect (b) · legality (dependencies-not-proven); the mutant: scheduleCorrect (b)\n',
    );
    expect(readdirSync(out).sort()).toEqual(
      DAG_MUTANTS.map(({ name }) => `mutant-${name}.jsonl`).sort(),
    );
    // Each written counterexample is a journal statefold audits: here, what the reference says of it.
    const audited = await run("audit", join(out, "mutant-dispatch-ignores-dependencies.jsonl"));
    expect(audited.code).toBe(1);
    expect(audited.stdout).toContain("dependencies-not-proven");

    const again = await run("explore", "--nodes", "1", "--depth", "4", "--mutants", "--out", out);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("is already there: explore never writes over a file");
  });

  it("names the mutants that survive the bound as findings (exit 1), in the evidence too", async () => {
    const result = await run(
      "explore",
      "--nodes",
      "1",
      "--depth",
      "1",
      "--mutants",
      "--format",
      "json",
    );
    expect(result.code).toBe(1);
    const { mutants } = JSON.parse(result.stdout);
    expect(mutants.total).toBe(DAG_MUTANTS.length);
    expect(mutants.killed).toBeLessThan(mutants.total);
    const timeout = mutants.mutants.find(
      ({ name }: { name: string }) => name === "gate-timeout-passes",
    );
    expect(timeout).toMatchObject({ killed: false });
    expect(timeout.journal).toBeUndefined();
  });

  it("ends every run with one verdict line that says what was found, never a ✓ before a survivor", async () => {
    const result = await run("explore", "--nodes", "1", "--depth", "1", "--mutants", "--faults");
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split("\n");
    expect(result.stdout).not.toContain("✓ nothing found");
    expect(lines.at(-1)).toMatch(
      /^✗ found \d+ of 14 mutants survived \(gate-timeout-passes, .*\); not exercised by this configuration: dispatch-ignores-dependencies$/,
    );
    const clean = await run("explore", "--nodes", "1", "--depth", "2", "--faults");
    expect(clean.code).toBe(0);
    expect(clean.stdout.trimEnd().split("\n").at(-1)).toMatch(/^✓ nothing found: /);
  });

  it("says a mutant the configuration never exercises is not exercised, not that the rules are too weak", async () => {
    const spec = tempFile(
      "flat.json",
      JSON.stringify({ task: "flat", plan: { steps: [{ id: "a", deps: [], effect: "model" }] } }),
    );
    const result = await run(
      "explore",
      "--model",
      "executive",
      "--spec",
      spec,
      "--budget",
      "examples/executive/budget.json",
      "--depth",
      "4",
      "--mutants",
    );
    for (const name of ["child-budget-not-narrowed", "checkpoint-never-due"]) {
      expect(result.stdout).toContain(`  – not exercised ${name}: `);
      expect(result.stdout).not.toContain(`✗ survived ${name}`);
    }
    expect(result.stdout).toContain(
      "    the spec has no checkpointEvery, so nothing it changes is ever reached: explore a configuration that has it",
    );
    expect(result.stdout.trimEnd().split("\n").at(-1)).toMatch(
      /not exercised by this configuration: child-budget-not-narrowed, checkpoint-never-due$/,
    );
    expect(result.code).toBe(0);
  });
});

describe("statefold explore --driver", () => {
  const driver = "node examples/drivers/driver.mjs";

  it("passes the honest campaign runner, and catches its planted defect with the shortest counterexample", async () => {
    const honest = await run("explore", "--driver", driver, "--nodes", "2", "--depth", "3");
    expect(honest.code).toBe(0);
    expect(honest.stdout).toContain(
      "✓ the runtime journaled what the model logs and refused what it rejects",
    );
    const defect = await run(
      "explore",
      "--driver",
      `${driver} --with-defect`,
      "--nodes",
      "2",
      "--depth",
      "3",
      "--format",
      "json",
    );
    expect(defect.code).toBe(1);
    const { divergence } = JSON.parse(defect.stdout);
    expect(divergence).toMatchObject({
      dag: "a; b<-a",
      actions: [{ call: "dispatch", id: "b" }],
      expected: { refused: "dependencies-not-proven" },
      why: "the model rejects it (dependencies-not-proven); the runtime performed it",
    });
    expect(JSON.parse(divergence.got.journal[0])).toMatchObject({ kind: "dispatched", id: "b" });
  });

  it("reports a driver that crashes, hangs, prints garbage or answers out of protocol as a driver failure", async () => {
    const node = (code: string) => `node -e ${JSON.stringify(code)}`;
    for (const [command, message] of [
      [node("process.exit(3)"), "exited with status 3"],
      [
        node("process.stdin.on('data', () => console.log('hello'))"),
        "answered with a line that is not JSON",
      ],
      [node("process.stdin.resume()"), "gave no answer within 2000 ms"],
      [node("process.stdin.on('data', () => console.log('{}'))"), 'not {"ok": true}'],
    ] as const) {
      const result = await run(
        "explore",
        "--driver",
        command,
        // Long enough for a node to start on a loaded machine: a short one reads a slow start as a hang.
        "--driver-timeout",
        "2000",
        "--nodes",
        "1",
        "--depth",
        "1",
      );
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toContain(message);
      expect(result.stdout).toBe("");
    }
  });
});
