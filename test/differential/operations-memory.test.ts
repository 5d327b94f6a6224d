/**
 * The operations kernel's memory (docs/models/operations.md, "State": memory is proportional to
 * the ops and effect ids of the journal plus the steps of the ops still running): a finished
 * op's steps and live effects are reused, so a journal ten times longer whose ops all finish
 * costs only its kept ids — however large its steps were — and a journal that needs more memory
 * than the module may have is a reported limit naming its line, never a trap.
 */
import { describe, expect, it } from "vitest";
import { loadOperationsEngine } from "../../bindings/operations/index.js";
import { JournalError } from "../../src/journal/errors.js";
import { audit } from "../../src/models/operations/index.js";
import { FLAVOURS } from "../support/engines.js";
import { readOperationsJournal } from "../support/operations-jsonl.js";

const encoder = new TextEncoder();
const STEPS = 3;

/**
 * `ops` ops, one after another on one strand, each with STEPS steps (keys of `keyBytes` bytes and
 * requests of as many) that settle ok, then finished: a conformant journal.
 */
function finishingJournal(ops: number, keyBytes: number): Uint8Array {
  const pad = "x".repeat(keyBytes);
  const request = `{"provider":"p${pad}","model":"m${pad}","api":"a${pad}"}`;
  const lines: string[] = ['{"statefold":"journal","version":1,"model":"operations"}'];
  for (let i = 0; i < ops; i++) {
    const op = `op-${i}`;
    lines.push(`{"kind":"accepted","op":"${op}","strand":"chat"}`);
    for (let s = 0; s < STEPS; s++) {
      lines.push(
        `{"kind":"intent","op":"${op}","key":"turn-${s}/${pad}","effect":"e-${i}-${s}","attempt":1,"at":${i},"request":${request}}`,
      );
    }
    for (let s = 0; s < STEPS; s++) {
      lines.push(`{"kind":"settled","op":"${op}","effect":"e-${i}-${s}","outcome":"ok","at":${i}}`);
    }
    lines.push(`{"kind":"finished","op":"${op}","outcome":"completed","at":${i}}`);
  }
  return encoder.encode(`${lines.join("\n")}\n`);
}

async function memoryAfter(flavour: (typeof FLAVOURS)[number], bytes: Uint8Array) {
  const engine = await loadOperationsEngine({ flavour });
  const report = await engine.auditBytes(bytes);
  return { report, memory: engine.memoryBytes() };
}

describe("the operations kernel's memory", () => {
  it("gives the reference's report for a journal whose ops all finish", async () => {
    const bytes = finishingJournal(300, 64);
    const journal = readOperationsJournal(bytes);
    const expected = audit(journal.records, { lines: journal.lines, tornTail: null });
    for (const flavour of FLAVOURS)
      expect((await memoryAfter(flavour, bytes)).report).toEqual(expected);
  });

  for (const flavour of FLAVOURS) {
    it(`stays flat for a 10× longer journal whose ops all finish, whatever their steps hold (${flavour})`, async () => {
      const ops = 2000;
      const keyBytes = 1024;
      const short = await memoryAfter(flavour, finishingJournal(ops, keyBytes));
      const long = await memoryAfter(flavour, finishingJournal(10 * ops, keyBytes));
      const longSmallSteps = await memoryAfter(flavour, finishingJournal(10 * ops, 8));
      for (const [run, n] of [
        [short, ops],
        [long, 10 * ops],
        [longSmallSteps, 10 * ops],
      ] as const) {
        expect(run.report.conformant).toBe(true);
        expect(run.report.final).toEqual({
          operations: { running: 0, cancelled: 0, completed: n, failed: 0, aborted: 0 },
          steps: { pending: 0, ok: 0, failed: 0, retryWait: 0, unknown: 0 },
          effects: STEPS * n,
          strands: 1,
        });
      }
      // The 18 000 more ops keep their ids (op and effect entries, some hundred bytes an op):
      // far less than the 54 000 steps' keys and 54 000 requests (over 200 MB) they finished with.
      const grown = long.memory - short.memory;
      expect(grown).toBeLessThan(9 * ops * 512 + (4 << 20));
      // And the size of the finished steps does not matter at all beyond the longest line.
      expect(Math.abs(long.memory - longSmallSteps.memory)).toBeLessThanOrEqual(8 << 20);
    });
  }

  it("reports a journal too large for the memory it may have as a limit at its line, and recovers", async () => {
    const ops = 60_000;
    const id = "o".repeat(120);
    const lines: string[] = [];
    for (let i = 0; i < ops; i++)
      lines.push(`{"kind":"accepted","op":"${id}-${i}","strand":"${id}-${i}"}`);
    const bytes = encoder.encode(`${lines.join("\n")}\n`);
    const limitLines: number[] = [];
    for (const flavour of FLAVOURS) {
      const engine = await loadOperationsEngine({ flavour, memoryLimitBytes: 8 << 20 });
      const error = await engine.auditBytes(bytes, { file: "big.jsonl" }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(JournalError);
      const match = /^big\.jsonl:(\d+): the WebAssembly memory cannot grow any further/.exec(
        (error as JournalError).message,
      );
      expect(match).not.toBeNull();
      const line = Number(match?.[1]);
      expect(line).toBeGreaterThan(1000);
      expect(line).toBeLessThan(ops);
      limitLines.push(line);
      // The same engine audits the next journal from scratch.
      const small = encoder.encode(lines.slice(0, 50).join("\n"));
      const journal = readOperationsJournal(small);
      expect(await engine.auditBytes(small)).toEqual(
        audit(journal.records, { lines: journal.lines, tornTail: journal.tornTail }),
      );
    }
    // Both builds lay memory out alike: they run out at the same line.
    expect(new Set(limitLines).size).toBe(1);
  });
});
