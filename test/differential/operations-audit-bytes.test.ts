/**
 * The `operations` kernel (both builds) against the reference model: for JSONL journals of the
 * simulated runtime — well-behaved and with each fault injected — and of adversarial records,
 * written every way test/support/operations-encoding.ts knows and fed in random chunkings down
 * to single bytes, `auditBytes` deep-equals the reference's `audit(records, { lines, tornTail })`
 * over the same bytes as the reference reader (test/support/operations-jsonl.ts) reads them.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  loadOperationsEngine,
  type WasmOperationsEngine as OperationsEngine,
} from "../../bindings/operations/index.js";
import { audit, type OperationsReport } from "../../src/models/operations/index.js";
import { FLAVOURS } from "../support/engines.js";
import {
  chunked,
  chunkingArbitrary,
  encodingStyleArbitrary,
  PLAIN_STYLE,
} from "../support/jsonl-encoding.js";
import {
  FAULT_KINDS,
  faultyJournalArbitrary,
  runtimeJournalArbitrary,
} from "../support/operations-arbitraries.js";
import {
  adversarialCaseArbitrary,
  adversarialRecords,
  encodeOperationsJournal,
  operationsJournalOptionsArbitrary,
} from "../support/operations-encoding.js";
import { readOperationsJournal } from "../support/operations-jsonl.js";
import { asyncOutcomeOf } from "../support/outcome.js";

let engines: readonly OperationsEngine[];
beforeAll(async () => {
  engines = await Promise.all(FLAVOURS.map((flavour) => loadOperationsEngine({ flavour })));
});

const encoder = new TextEncoder();

function referenceReport(bytes: Uint8Array): OperationsReport {
  const journal = readOperationsJournal(bytes);
  return audit(journal.records, { lines: journal.lines, tornTail: journal.tornTail });
}

/** One byte at a time, from one reused buffer. */
const ONE_BYTE_CHUNKS = { sizes: [1], feed: "reused-buffer" } as const;

/** Every engine, the bytes whole, chunked and byte by byte, against the reference. */
async function expectSameReports(
  bytes: Uint8Array,
  chunking: Parameters<typeof chunked>[1],
  byteByByte = true,
): Promise<OperationsReport> {
  const expected = referenceReport(bytes);
  for (const engine of engines) {
    expect(await engine.auditBytes(bytes)).toEqual(expected);
    expect(await engine.auditBytes(chunked(bytes, chunking))).toEqual(expected);
    if (byteByByte)
      expect(await engine.auditBytes(chunked(bytes, ONE_BYTE_CHUNKS))).toEqual(expected);
  }
  return expected;
}

/** A tally of the verdicts a property's cases reached, so a vacuous generator shows. */
class Tally {
  readonly reasons = new Set<string>();
  integrity = 0;
  conformant = 0;
  torn = 0;
  add(report: OperationsReport): void {
    for (const entry of report.legality.first) this.reasons.add(entry.reason);
    if (report.integrity !== null) this.integrity += 1;
    if (report.conformant) this.conformant += 1;
    if (report.tornTail !== null) this.torn += 1;
  }
}

describe("the operations kernel against the reference", () => {
  it("reads the worked example and its three breakages as the reference does", async () => {
    const example = [
      '{"statefold":"journal","version":1,"model":"operations"}',
      '{"kind":"accepted","op":"run-1","strand":"chat-A","policy":{"maxAttempts":3,"baseDelayMs":1000,"maxDelayMs":30000}}',
      '{"kind":"intent","op":"run-1","key":"turn-1/assistant","effect":"e-1","attempt":1,"at":1000}',
      '{"kind":"settled","op":"run-1","effect":"e-1","outcome":"error","retryable":true,"retryAfterMs":500,"at":1400,"notBefore":2344}',
      '{"kind":"intent","op":"run-1","key":"turn-1/assistant","effect":"e-2","attempt":2,"at":2400}',
      '{"kind":"settled","op":"run-1","effect":"e-2","outcome":"unknown","at":2600}',
      '{"kind":"readback","op":"run-1","effect":"e-2","found":"committed","at":2700}',
      '{"kind":"finished","op":"run-1","outcome":"completed","at":2800}',
    ];
    const variants = [
      example,
      example.map((line, i) => (i === 4 ? line.replace('"at":2400', '"at":2300') : line)),
      example.filter((_, i) => i !== 6),
      [...example.slice(0, 6), example[3] as string, ...example.slice(6)],
    ];
    const reports = [];
    for (const lines of variants) {
      const bytes = encoder.encode(`${lines.join("\n")}\n`);
      reports.push(await expectSameReports(bytes, { sizes: [1], feed: "iterable" }));
    }
    expect(reports.map((report) => report.legality.first.map((entry) => entry.reason))).toEqual([
      [],
      ["retry-too-early"],
      ["effects-outstanding"],
      ["already-settled"],
    ]);
  });

  it("deep-equals the reference on the simulated runtime's journals, re-encoded and chunked", async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        runtimeJournalArbitrary(),
        encodingStyleArbitrary,
        operationsJournalOptionsArbitrary,
        chunkingArbitrary,
        async (journal, style, options, chunking) => {
          const bytes = encodeOperationsJournal(journal.records, style, options);
          tally.add(await expectSameReports(bytes, chunking));
        },
      ),
      { numRuns: 80 },
    );
    expect(tally.conformant).toBeGreaterThan(0);
    expect(tally.torn).toBeGreaterThan(0);
  });

  for (const fault of FAULT_KINDS) {
    it(`deep-equals the reference with a ${fault} fault injected`, async () => {
      const tally = new Tally();
      let found = 0;
      await fc.assert(
        fc.asyncProperty(
          faultyJournalArbitrary(fault),
          encodingStyleArbitrary,
          operationsJournalOptionsArbitrary,
          chunkingArbitrary,
          async (journal, style, options, chunking) => {
            const bytes = encodeOperationsJournal(journal.records, style, options);
            const report = await expectSameReports(bytes, chunking);
            tally.add(report);
            if (
              journal.finding !== null &&
              report.legality.first.some((e) => e.reason === journal.finding?.reason)
            ) {
              found += 1;
            }
          },
        ),
        { numRuns: 25 },
      );
      expect(found).toBeGreaterThan(0);
    });
  }

  it("deep-equals the reference on adversarial records, re-encoded and chunked", async () => {
    const tally = new Tally();
    await fc.assert(
      fc.asyncProperty(
        adversarialCaseArbitrary,
        encodingStyleArbitrary,
        operationsJournalOptionsArbitrary,
        chunkingArbitrary,
        async (adversarial, style, options, chunking) => {
          const bytes = encodeOperationsJournal(adversarialRecords(adversarial), style, options);
          tally.add(await expectSameReports(bytes, chunking));
        },
      ),
      { numRuns: 400 },
    );
    // The adversarial records reach integrity faults and a good share of the reasons.
    expect(tally.integrity).toBeGreaterThan(20);
    expect(tally.reasons.size).toBeGreaterThan(20);
  });

  it("gives every integrity message the reference gives, field by field", async () => {
    const messages = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const records = adversarialRecords({ seed, count: 8, breakage: 60 });
        const bytes = encodeOperationsJournal(records, PLAIN_STYLE, {
          header: false,
          tail: "terminated",
        });
        const report = await expectSameReports(bytes, { sizes: [7], feed: "iterable" }, false);
        if (report.integrity !== null) messages.add(report.integrity.message);
      }),
      { numRuns: 500 },
    );
    expect(messages.size).toBeGreaterThan(40);
  });

  it("reads a nested object from the last of duplicate keys only, whole", async () => {
    const accepted = '"kind":"accepted","op":"o1","strand":"s1"';
    const intent = '"kind":"intent","op":"o1","key":"k","effect":"e1","attempt":1,"at":1';
    const settled = '"kind":"settled","op":"o1","effect":"e1","outcome":"ok","at":2';
    const full = '{"maxAttempts":3,"baseDelayMs":1,"maxDelayMs":9}';
    const handle = '{"id":"h","provider":"p","model":"m","api":"a"}';
    const cases = [
      // The earlier object has every field, the later one lacks one: malformed.
      `{${accepted},"policy":${full},"policy":{"baseDelayMs":1,"maxDelayMs":9}}`,
      `{${intent},"request":{"provider":"p","model":"m","api":"a"},"request":{"provider":"p","api":"a"}}`,
      `{${settled},"response":{"stop":"stop","handle":${handle}},"response":{"handle":{"id":"h"}}}`,
      `{${settled},"response":{"stop":"stop","handle":${handle},"handle":{"id":"h","api":"a"}}}`,
      // The later object is whole: well-formed.
      `{${accepted},"policy":{"maxAttempts":"x"},"policy":${full}}`,
      // A field of the same name one level off is not the field.
      `{${accepted},"policy":{"policy":${full}}}`,
      `{${accepted},"policy":[${full}]}`,
      `{${accepted},"extra":${full},"policy":{"baseDelayMs":1}}`,
    ];
    const verdicts: boolean[] = [];
    for (const line of cases) {
      const prelude = line.includes('"accepted"') ? "" : `{${accepted}}\n{${intent}}\n`;
      const bytes = encoder.encode(`${prelude}${line}\n`);
      const report = await expectSameReports(bytes, { sizes: [5], feed: "iterable" });
      verdicts.push(report.integrity === null);
    }
    expect(verdicts).toEqual([false, false, false, false, true, false, false, false]);
  });

  it("refuses a header that is not an operations journal's, as the reference reader does", async () => {
    const headers = [
      '{"statefold":"journal","version":1,"model":"dag","dag":{"nodes":[]}}',
      '{"statefold":"journal","version":2,"model":"operations"}',
      '{"statefold":"other","version":1,"model":"operations"}',
    ];
    for (const header of headers) {
      const bytes = encoder.encode(`${header}\n{"kind":"lease","strand":"s","epoch":1}\n`);
      const refused = asyncOutcomeOf(async () => readOperationsJournal(bytes, "j.jsonl"));
      const expected = await refused;
      expect(expected).toHaveProperty("threw.class", "JournalError");
      for (const engine of engines) {
        expect(await asyncOutcomeOf(() => engine.auditBytes(bytes, { file: "j.jsonl" }))).toEqual(
          expected,
        );
      }
    }
  });

  it("audits a journal whose header names no model as an operations journal, as the reference does", async () => {
    const bytes = encoder.encode(
      '{"statefold":"journal","version":1}\n{"kind":"lease","strand":"s","epoch":1}\n',
    );
    const { records, lines, tornTail } = readOperationsJournal(bytes, "j.jsonl");
    const expected = audit(records, { lines, tornTail });
    expect(expected).toMatchObject({ model: "operations", events: 1 });
    for (const engine of engines) {
      expect(await engine.auditBytes(bytes, { file: "j.jsonl" })).toEqual(expected);
    }
  });
});
