/**
 * A header line longer than the kernel's first line buffer (1 MiB), in the models whose kernel
 * frames the header line with the rest (operations, executive): the framing drops the header's
 * bytes as they come instead of growing its buffer to hold a line the model has read already
 * (assembly/jsonl.ts). Whatever the chunking, the line end (LF, CRLF, none) or where a snapshot
 * is taken, the report is the reference's, and the lines after the header are counted from it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadExecutiveEngine, type WasmExecutiveEngine } from "../../bindings/executive/index.js";
import {
  loadOperationsEngine,
  type WasmOperationsEngine,
} from "../../bindings/operations/index.js";
import { referenceExecutiveEngine } from "../../src/models/executive/engine.js";
import { referenceOperationsEngine } from "../../src/models/operations/engine.js";
import { encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import { asyncOutcomeOf } from "../support/outcome.js";

const MIB = 1 << 20;
/** A member the readers ignore, long enough for a header of about 2.5 MiB. */
const NOTE = "é".repeat(1.25 * MIB);

const BUDGET = {
  steps: 10,
  depth: 3,
  modelCalls: 5,
  toolCalls: 5,
  contextOps: 5,
  retries: 2,
  outputBytes: 1000,
  deadline: 100,
};
const EXECUTIVE_HEADER = JSON.stringify({
  statefold: "journal",
  version: 1,
  model: "executive",
  note: NOTE,
  spec: { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "tool" }] } },
  budget: BUDGET,
});
const EXECUTIVE_LINES = [
  '{"observation":{"tag":"start","now":1},"decision":{"tag":"execute","seq":1,"path":["a"],"effect":"tool","attempt":1}}',
  '{"observation":{"tag":"result","seq":1,"outcome":"ok","bytes":5,"now":2},"decision":{"tag":"wait","seq":2}}',
  "not json",
];

const OPERATIONS_HEADER = JSON.stringify({
  statefold: "journal",
  version: 1,
  model: "operations",
  note: NOTE,
});
const OPERATIONS_LINES = [
  '{"type":"op.accepted","op":"o1","strand":"s","steps":1,"at":1}',
  '{"type":"op.finished","op":"o1","at":2}',
  "[1,",
];

type Engine = WasmExecutiveEngine | WasmOperationsEngine;

interface Model {
  readonly name: string;
  readonly header: string;
  readonly lines: readonly string[];
  readonly reference: (bytes: Uint8Array) => Promise<unknown>;
  readonly load: (flavour: (typeof FLAVOURS)[number]) => Promise<Engine>;
}

const MODELS: readonly Model[] = [
  {
    name: "executive",
    header: EXECUTIVE_HEADER,
    lines: EXECUTIVE_LINES,
    reference: (bytes) => referenceExecutiveEngine.auditBytes(bytes),
    load: (flavour) => loadExecutiveEngine({ flavour }),
  },
  {
    name: "operations",
    header: OPERATIONS_HEADER,
    lines: OPERATIONS_LINES,
    reference: (bytes) => referenceOperationsEngine.auditBytes(bytes),
    load: (flavour) => loadOperationsEngine({ flavour }),
  },
];

/** The journal: the header on line 1 (docs/journals.md), its line end, blank lines, then the lines after it. */
function journalOf(model: Model, lineEnd: string, lines: number): Uint8Array {
  return encode(`${model.header}${lineEnd}\n \r\n${model.lines.slice(0, lines).join("\n")}`);
}

/** The header with its note cut or padded (in ASCII) to make it `length` bytes of UTF-8. */
function exactly(header: string, length: number): string {
  const [before, after] = header.split(NOTE) as [string, string];
  return `${before}${"x".repeat(length - encode(before + after).length)}${after}`;
}

/** `bytes` cut into pieces of `size` bytes. */
function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

const engines = new Map<string, Engine[]>();
beforeAll(async () => {
  for (const model of MODELS) {
    engines.set(model.name, await Promise.all(FLAVOURS.map((flavour) => model.load(flavour))));
  }
});

describe.each(MODELS)("a header longer than the line buffer ($name)", (model) => {
  it("audits as the reference, in any chunking, whatever ends the header", async () => {
    expect(encode(model.header).length).toBeGreaterThan(2 * MIB);
    for (const lineEnd of ["\n", "\r\n"]) {
      for (const lines of [0, 1, model.lines.length]) {
        const bytes = journalOf(model, lineEnd, lines);
        const expected = await asyncOutcomeOf(() => model.reference(bytes));
        for (const engine of engines.get(model.name) as Engine[]) {
          for (const size of [bytes.length, MIB - 1, MIB + 1, 65_537]) {
            const auditor = engine.openAuditor();
            for (const chunk of chunksOf(bytes, size)) auditor.write(chunk);
            expect(await asyncOutcomeOf(async () => auditor.finish()), `${size}`).toEqual(expected);
          }
        }
      }
    }
  });

  it("ends the header where it ends when its bytes fill the line buffer exactly", async () => {
    // The framing drops a header a whole buffer (1 MiB) at a time: here nothing of it, or only
    // its CR, is left when its line feed comes, and the line after it is still an event.
    for (const [lineEnd, length] of [
      ["\n", 2 * MIB],
      ["\r\n", 2 * MIB - 1],
    ] as const) {
      const header = exactly(model.header, length);
      const bytes = encode(`${header}${lineEnd}${model.lines.join("\n")}`);
      const expected = await asyncOutcomeOf(() => model.reference(bytes));
      for (const engine of engines.get(model.name) as Engine[]) {
        const auditor = engine.openAuditor();
        auditor.write(bytes);
        expect(await asyncOutcomeOf(async () => auditor.finish()), lineEnd).toEqual(expected);
      }
    }
  });

  it("reports a header with no line end after it as the reference does", async () => {
    const bytes = encode(model.header);
    const expected = await asyncOutcomeOf(() => model.reference(bytes));
    for (const engine of engines.get(model.name) as Engine[]) {
      const auditor = engine.openAuditor();
      for (const chunk of chunksOf(bytes, MIB - 3)) auditor.write(chunk);
      expect(await asyncOutcomeOf(async () => auditor.finish())).toEqual(expected);
    }
  });

  it("resumes from a snapshot taken within the header or after it", async () => {
    const bytes = journalOf(model, "\r\n", model.lines.length);
    const expected = await model.reference(bytes);
    const headerEnd = bytes.indexOf(0x0a, 4) + 1;
    for (const engine of engines.get(model.name) as Engine[]) {
      for (const cut of [MIB + 5, headerEnd - 1, headerEnd, headerEnd + 20]) {
        const auditor = engine.openAuditor({ snapshots: true });
        for (const chunk of chunksOf(bytes.subarray(0, cut), MIB)) auditor.write(chunk);
        const snapshot = auditor.snapshot();
        const resumed = await engine.resume(snapshot, [bytes]);
        expect(resumed.finish(), `cut at ${cut}`).toEqual(expected);
      }
    }
  });
});
