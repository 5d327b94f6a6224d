/**
 * Journals whose first line is big (over 64 KiB): the CLI reads their model with the dag kernel
 * instead of parsing the line in JavaScript, and must route and report each exactly as the
 * reference reader would.
 */
import { describe, expect, it } from "vitest";
import { statefoldInProcess, tempFile } from "./cli-process.js";

const NODES = 5000;

function bigDagNodes(): { id: string; deps: string[] }[] {
  return Array.from({ length: NODES }, (_, i) => ({
    id: `task-${i}`,
    deps: i === 0 ? [] : [`task-${i - 1}`, `task-${Math.floor(i / 2)}`],
  }));
}

function bigDagJournal(header: object): string {
  const events = ["dispatched", "landed", "dispatched"].map((kind) =>
    JSON.stringify({ kind, id: "task-0" }),
  );
  return `${JSON.stringify(header)}\n${events.join("\n")}\n`;
}

async function bothEngines(args: readonly string[]) {
  const wasm = await statefoldInProcess([...args, "--engine", "wasm"]);
  const reference = await statefoldInProcess([...args, "--engine", "reference"]);
  return { wasm, reference };
}

describe("a journal whose header is over 64 KiB", () => {
  it("audits a dag journal as the reference engine does", async () => {
    const text = bigDagJournal({ statefold: "journal", version: 1, dag: { nodes: bigDagNodes() } });
    expect(text.length).toBeGreaterThan(64 * 1024);
    const { wasm, reference } = await bothEngines([
      "audit",
      "--format",
      "json",
      tempFile("big.jsonl", text),
    ]);
    expect(wasm).toEqual(reference);
    expect(JSON.parse(wasm.stdout)).toMatchObject({
      model: "dag",
      events: 3,
      legality: {
        illegal: 1,
        first: [{ kind: "dispatched", node: "task-0", reason: "wrong-status" }],
      },
    });
  });

  it("routes an operations journal to its engine", async () => {
    const padding = "x".repeat(70 * 1024);
    const header = { statefold: "journal", version: 1, model: "operations", notes: padding };
    const file = tempFile("ops.jsonl", `${JSON.stringify(header)}\n`);
    const { wasm, reference } = await bothEngines(["audit", "--format", "json", file]);
    expect(wasm).toEqual(reference);
    expect(JSON.parse(wasm.stdout)).toMatchObject({ model: "operations", conformant: true });
  });

  it("refuses a header the reference refuses, with its words", async () => {
    const text = bigDagJournal({ statefold: "journal", version: 2, dag: { nodes: bigDagNodes() } });
    const { wasm, reference } = await bothEngines(["audit", tempFile("v2.jsonl", text)]);
    expect(wasm).toEqual(reference);
    expect(wasm.code).toBe(2);
    expect(wasm.stderr).toContain('expected "version": 1, found 2');
  });

  it("reads a big first line that is no header as an event, as the reference does", async () => {
    const line = JSON.stringify({ kind: "dispatched", id: "A", note: "y".repeat(70 * 1024) });
    const file = tempFile("no-header.jsonl", `${line}\n`);
    const { wasm, reference } = await bothEngines([
      "audit",
      "--dag",
      "examples/diamond.dag.json",
      file,
    ]);
    expect(wasm).toEqual(reference);
    expect(wasm.stdout).toContain("1 event");
  });
});
