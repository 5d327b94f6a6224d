/**
 * `statefold explore` (docs/explore.md): the summary and the evidence of a tiny exploration, a
 * DAG file explored alone, and usage errors.
 */
import { describe, expect, it } from "vitest";
import { type CliRun, statefoldInProcess } from "./cli-process.js";

const run = (...args: string[]): Promise<CliRun> => statefoldInProcess(args);

describe("statefold explore", () => {
  it("prints the configuration, the bound and what was explored, and passes with nothing found", async () => {
    const result = await run("explore", "--nodes", "1", "--paths", "0", "--depth", "3");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(
      "statefold explore --model dag: every DAG of 1 to 1 nodes (1, up to isomorphism), surfaces from 0 paths, depth 3",
    );
    expect(lines[1]).toBe(
      "  1 initial states, 16 states, 10 distinct, 15 transitions, depth reached 3",
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
      [["--model", "operations"], "explore runs the dag model so far, not operations"],
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
      [node("process.stdin.resume()"), "gave no answer within 300 ms"],
      [node("process.stdin.on('data', () => console.log('{}'))"), 'not {"ok": true}'],
    ] as const) {
      const result = await run(
        "explore",
        "--driver",
        command,
        "--driver-timeout",
        "300",
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
