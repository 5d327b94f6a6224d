import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  expectCleanFailure,
  headerLine,
  statefold,
  statefoldInProcess,
  tempFile,
} from "./cli-process.js";

describe("statefold replay", () => {
  it("reads - as the journal on the standard input, named <stdin> in its warnings", async () => {
    const journal = readFileSync("examples/diamond.jsonl", "utf8");
    const fromFile = await statefold(["replay", "examples/diamond.jsonl"]);
    const piped = await statefold(["replay", "-"], {}, `${journal}{"kind":"dispa`);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(fromFile.stdout);
    expect(piped.stderr).toMatch(/^statefold: <stdin>:\d+: warning: torn tail at byte \d+/);
  });

  it("prints the final state, one node per line in DAG order", async () => {
    const run = await statefold(["replay", "examples/diamond.jsonl"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        '{"nodes":[',
        '  {"id":"A","status":"proven","phase":1,"deposit":{"validation":"proven","mode":"gated","phase":1},"surface":["src/a.ts"]},',
        '  {"id":"B","status":"proven","phase":2,"deposit":{"validation":"proven","mode":"gated","phase":2},"surface":["src/b.ts","test/b.test.ts"]},',
        '  {"id":"C","status":"proven","phase":2,"deposit":{"validation":"proven","mode":"degraded","phase":2},"surface":["src/c.ts"]},',
        '  {"id":"D","status":"proven","phase":1,"deposit":{"validation":"proven","mode":"gated","phase":1},"surface":["src/d.ts"]}',
        "]}",
        "",
      ].join("\n"),
    );
  });

  it("stops at an integrity error: the state before it, the error on stderr, exit 1", async () => {
    const run = await statefoldInProcess(["replay", "examples/violations/unknown-kind.jsonl"]);
    expect(run.code).toBe(1);
    const nodes = (JSON.parse(run.stdout) as { nodes: { id: string; status: string }[] }).nodes;
    expect(nodes.map((node) => node.status)).toEqual(["proven", "landed", "queued", "queued"]);
    expect(run.stderr).toBe(
      'statefold: examples/violations/unknown-kind.jsonl:8: unknown-kind: unknown event kind "merged"; the state printed is the one before event 6\n',
    );
  });

  it("warns of a torn tail on stderr and exits 0", async () => {
    const run = await statefoldInProcess(["replay", "examples/violations/torn-tail.jsonl"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "statefold: examples/violations/torn-tail.jsonl:8: warning: torn tail at byte 705: an unfinished last entry (a crash mid-write?) was left out\n",
    );
  });

  it("replays a runtime journal against --dag", async () => {
    const run = await statefoldInProcess([
      "replay",
      "examples/runtime/campaign.lisp-expr",
      "--dag",
      "examples/runtime/dag.json",
    ]);
    expect(run.code).toBe(0);
    const nodes = (
      JSON.parse(run.stdout) as { nodes: { id: string; status: string; surface: string[] }[] }
    ).nodes;
    expect(nodes.map((node) => [node.id, node.status])).toEqual([
      ["config-schema", "landed"],
      ["config-loader", "landed"],
      ["cli-flags", "landed"],
      ["config-docs", "skipped"],
    ]);
    expect(nodes[1]?.surface).toContain('t/fixtures/config "minimal".lisp');
  });

  it("round-trips awkward ids, escaped or not, through the journal", async () => {
    const ids = ['say "hi"', "back\\slash", "with space", "é", "e\u0301", "日本語", "😀", "\uFFFD"];
    const escapedDispatch =
      '{"kind":"dispatched","id":"\\u00e9"}\n{"kind":"dispatched","id":"\\ud83d\\ude00"}';
    const lines = [
      headerLine(ids.map((id) => ({ id, deps: [] }))),
      ...ids.map((id) => JSON.stringify({ kind: "landed", id })),
      escapedDispatch,
    ];
    const file = tempFile("ids.jsonl", `${lines.join("\n")}\n`);
    const run = await statefoldInProcess(["replay", file]);
    expect(run.code).toBe(0);
    const nodes = (JSON.parse(run.stdout) as { nodes: { id: string; status: string }[] }).nodes;
    expect(nodes.map((node) => node.id)).toEqual(ids);
    const dispatched = nodes.filter((node) => node.status === "dispatched").map((node) => node.id);
    expect(dispatched).toEqual(["é", "😀"]);
  });

  it.each([
    ["examples/diamond.jsonl"],
    ...readdirSync("examples/violations").map((name) => [`examples/violations/${name}`]),
    ["examples/runtime/campaign.lisp-expr", "--dag", "examples/runtime/dag.json"],
  ])("prints the same state, warnings and status from either --engine: %s", async (...args) => {
    const wasm = await statefoldInProcess(["replay", ...args, "--engine", "wasm"]);
    const reference = await statefoldInProcess(["replay", ...args, "--engine", "reference"]);
    expect(wasm).toEqual(reference);
    expect(await statefoldInProcess(["replay", ...args])).toEqual(wasm);
  });

  it("keeps a malformed surface verbatim on either engine", async () => {
    const journal = tempFile(
      "malformed-surface.jsonl",
      `${headerLine([{ id: "A", deps: [] }])}\n{"kind":"surface-widened","id":"A","surface":["x",3]}\n`,
    );
    for (const engine of ["wasm", "reference"]) {
      const run = await statefoldInProcess(["replay", journal, "--engine", engine]);
      expect(run.code).toBe(0);
      const nodes = (JSON.parse(run.stdout) as { nodes: { surface: unknown }[] }).nodes;
      expect(nodes[0]?.surface, engine).toEqual(["x", 3]);
    }
  });

  it("refuses an unknown --engine", async () => {
    const run = await statefoldInProcess(["replay", "examples/diamond.jsonl", "--engine", "fast"]);
    expectCleanFailure(run);
    expect(run.stderr).toMatch(/--engine/);
  });

  it("takes exactly one journal", async () => {
    expectCleanFailure(await statefoldInProcess(["replay"]));
    const two = await statefoldInProcess([
      "replay",
      "examples/diamond.jsonl",
      "examples/diamond.jsonl",
    ]);
    expectCleanFailure(two);
    expect(two.stderr).toBe(
      "statefold: replay takes one journal, found 2 (see 'statefold replay --help')\n",
    );
  });
});
