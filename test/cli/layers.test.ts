import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  expectCleanFailure,
  headerLine,
  statefold,
  statefoldInProcess,
  tempFile,
} from "./cli-process.js";

const dagFile = (nodes: unknown[]) => tempFile("dag.json", JSON.stringify({ nodes }));

describe("statefold layers", () => {
  it("reads - as a DAG file or a journal on the standard input", async () => {
    const expected = (await statefold(["layers", "examples/diamond.dag.json"])).stdout;
    for (const file of ["examples/diamond.dag.json", "examples/diamond.jsonl"]) {
      const piped = await statefold(["layers", "-"], {}, readFileSync(file));
      expect(piped).toEqual({ code: 0, stdout: expected, stderr: "" });
    }
  });

  it("prints the Kahn layers of a DAG file, one layer per line", async () => {
    const run = await statefold(["layers", "examples/diamond.dag.json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"layers":[\n  ["A"],\n  ["B","C"],\n  ["D"]\n]}\n');
  });

  it("reads the DAG of a journal's header", async () => {
    const nodes = [
      { id: "x", deps: [] },
      { id: "y", deps: ["x"] },
    ];
    const file = tempFile("j.jsonl", `${headerLine(nodes)}\n{"kind":"dispatched","id":"x"}\n`);
    expect(JSON.parse((await statefoldInProcess(["layers", file])).stdout)).toEqual({
      layers: [["x"], ["y"]],
    });
  });

  it("sorts each layer by code point, not by UTF-16 unit or locale", async () => {
    const ids = ["😀", "\uFF61", "z", "Z", "é", "e\u0301", "with space", 'q"uote', "back\\slash"];
    const run = await statefoldInProcess(["layers", dagFile(ids.map((id) => ({ id, deps: [] })))]);
    expect(JSON.parse(run.stdout)).toEqual({
      layers: [["Z", "back\\slash", "e\u0301", 'q"uote', "with space", "z", "é", "\uFF61", "😀"]],
    });
  });

  it("prints an empty DAG as no layers", async () => {
    expect((await statefoldInProcess(["layers", dagFile([])])).stdout).toBe('{"layers":[]}\n');
  });

  it.each([
    [
      "duplicate-id",
      [
        { id: "A", deps: [] },
        { id: "A", deps: [] },
      ],
      /duplicate-id: .*"A"/,
    ],
    [
      "dangling-dependency",
      [{ id: "A", deps: ["ghost"] }],
      /dangling-dependency: node "A" depends on "ghost"/,
    ],
    [
      "cycle",
      [
        { id: "A", deps: ["B"] },
        { id: "B", deps: ["A"] },
        { id: "C", deps: [] },
      ],
      /cycle: .*: "A", "B"\n$/,
    ],
  ])("rejects a DAG with a %s, naming it and its ids, exit 2", async (_, nodes, message) => {
    const run = await statefoldInProcess(["layers", dagFile(nodes)]);
    expectCleanFailure(run);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });

  it("rejects a runtime journal, which carries no DAG", async () => {
    const run = await statefoldInProcess(["layers", "examples/runtime/campaign.lisp-expr"]);
    expectCleanFailure(run);
    expect(run.stderr).toContain("carries no DAG");
  });
});
