import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Report } from "../../src/models/dag/report.js";
import { expectCleanFailure, headerLine, statefold, tempFile, tempFiles } from "./cli-process.js";

const DAG = "examples/diamond.dag.json";

function journal(content: string | Uint8Array, name = "j.jsonl"): string {
  return tempFile(name, content);
}

async function auditReport(
  ...args: string[]
): Promise<{ code: number | null; report: Report; stderr: string }> {
  const run = await statefold(["audit", "--format", "json", ...args]);
  return { code: run.code, report: JSON.parse(run.stdout) as Report, stderr: run.stderr };
}

/** Pseudo-random bytes with line feeds among them: what a corrupted disk block looks like. */
function binaryGarbage(): Uint8Array {
  const bytes = new Uint8Array(4096);
  let state = 0x9e3779b9;
  for (let i = 0; i < bytes.length; i += 1) {
    // xorshift32: deterministic, and exact in 32-bit integer arithmetic.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = i % 64 === 63 ? 0x0a : state & 0xff;
  }
  bytes[0] = 0xfe;
  return bytes;
}

describe("bad input", () => {
  it.each(["wasm", "reference"])(
    "a header naming an unknown model is refused (%s)",
    async (engine) => {
      const file = journal(
        '{"statefold":"journal","version":1,"model":"workflow"}\n{"kind":"accepted","op":"r","strand":"s"}\n',
      );
      const run = await statefold(["audit", file, "--engine", engine]);
      expectCleanFailure(run);
      expect(run.stderr).toBe(
        `statefold: ${file}:1:44: header: expected "model": one of "dag", "operations", "executive", "temporal", "cadence", "stepfunctions", found "workflow"\n`,
      );
    },
  );

  it("an empty file: no DAG, exit 2; with --dag, an empty and conformant log", async () => {
    const empty = journal("");
    const run = await statefold(["audit", empty]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      `statefold: ${empty}: no DAG: the journal is empty: add a header line {"statefold":"journal","version":1,"dag":{"nodes":[...]}} or pass --dag FILE\n`,
    );
    const { code, report } = await auditReport(empty, "--dag", DAG);
    expect(code).toBe(0);
    expect(report).toMatchObject({ conformant: true, events: 0 });
  });

  it("binary garbage: a malformed event at its first line, exit 1", async () => {
    const { code, report, stderr } = await auditReport(journal(binaryGarbage()), "--dag", DAG);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    expect(report.integrity).toEqual({
      index: 0,
      line: 1,
      reason: "malformed-event",
      message: "the line is not valid UTF-8",
    });
  });

  it("a 10 MB single line: read whole, as an event or as a malformed line", async () => {
    const pad = "x".repeat(10 * 1024 * 1024);
    const good = journal(
      `${headerLine()}\n${JSON.stringify({ kind: "dispatched", id: "A", pad })}\n`,
    );
    expect((await auditReport(good)).report).toMatchObject({ strictlyConformant: true, events: 1 });
    const bad = journal(`${headerLine()}\n{"kind":"dispatched","id":"A","pad":"${pad}\n`);
    expect((await auditReport(bad)).report.integrity).toMatchObject({
      line: 2,
      reason: "malformed-event",
    });
  });

  it("invalid UTF-8 on a line: a malformed event at that line", async () => {
    const bytes = new TextEncoder().encode(
      `${headerLine()}\n{"kind":"dispatched","id":"A"}\n{"kind":"landed","id":"X"}\n`,
    );
    bytes[bytes.length - 4] = 0xff; // the "X"
    const { code, report } = await auditReport(journal(bytes));
    expect(code).toBe(1);
    expect(report.integrity).toEqual({
      index: 1,
      line: 3,
      reason: "malformed-event",
      message: "the line is not valid UTF-8",
    });
  });

  it("a header that is not a DAG: the header's line and column, exit 2", async () => {
    const file = journal(
      `${JSON.stringify({ statefold: "journal", version: 1, dag: { nodes: "A,B" } })}\n`,
    );
    const run = await statefold(["audit", file]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      `statefold: ${file}:1:51: dag.nodes: expected "nodes" to be an array of {"id", "deps"}, found "A,B"\n`,
    );
  });

  it("a DAG with a cycle: the reason and the ids, exit 2", async () => {
    const dir = tempFiles({
      "dag.json": JSON.stringify(
        {
          nodes: [
            { id: "A", deps: ["B"] },
            { id: "B", deps: ["A"] },
          ],
        },
        null,
        1,
      ),
      "j.jsonl": '{"kind":"dispatched","id":"A"}\n',
    });
    const run = await statefold(["audit", join(dir, "j.jsonl"), "--dag", join(dir, "dag.json")]);
    expectCleanFailure(run);
    expect(run.stderr).toMatch(/^statefold: .*dag\.json:3:3: nodes\[0\]: cycle: .*"A", "B"\n$/);
  });

  it("a missing file: named, with the reason, exit 2", async () => {
    const run = await statefold(["audit", "no/such/journal.jsonl"]);
    expectCleanFailure(run);
    expect(run.stderr).toBe("statefold: no/such/journal.jsonl: cannot read: no such file\n");
  });

  it("a directory: named, with the reason, exit 2", async () => {
    const run = await statefold(["replay", "examples"]);
    expectCleanFailure(run);
    expect(run.stderr).toBe("statefold: examples: cannot read: it is a directory\n");
  });

  it("an unbalanced runtime journal: line and column, exit 2", async () => {
    const file = journal('(:NODE-DISPATCHED "A")\n(:NODE-LANDED "A"))\n', "c.lisp-expr");
    const run = await statefold(["audit", file, "--dag", DAG]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      `statefold: ${file}:2:19: expected '(' or an atom, found ')' that closes no form\n`,
    );
  });

  it("a DAG file that is not JSON: line and column of the problem, exit 2", async () => {
    const dir = tempFiles({ "dag.json": '{\n  "nodes": [\n    {"id": "A", "deps": []}\n  ]\n' });
    const run = await statefold(["layers", join(dir, "dag.json")]);
    expectCleanFailure(run);
    expect(run.stderr).toBe(
      `statefold: ${join(dir, "dag.json")}:5:1: expected ',' or '}', found the end of the text\n`,
    );
  });
});
