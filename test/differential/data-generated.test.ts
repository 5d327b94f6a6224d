/**
 * The data kernel (both builds) against the reference interpreter on generated models *and*
 * journals (test/support/data-model-arbitrary.ts: every clause, operand, path form and journal
 * setting; JSONL and array documents; every spelling and breakage of a record), fed whole and in
 * random chunkings: the same report, or the same refusal. Vacuity guarded: the reports reached
 * every reason there is, integrity errors, and conformant journals.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDataEngine } from "../../bindings/data/engine.js";
import { auditDataBytes, auditDataJournals } from "../../src/models/data/engine.js";
import { checkModel } from "../../src/models/data/load.js";
import { DATA_REASONS, type DataJournalsReport } from "../../src/models/data/report.js";
import { dataModelAndJournalArbitrary } from "../support/data-model-arbitrary.js";
import { FLAVOURS } from "../support/engines.js";
import { chunked, chunkingArbitrary } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

describe("data kernel ≡ reference: generated models and journals", () => {
  it("give the same report, or the same refusal, in any chunking", async () => {
    const reasons = new Set<string>();
    const seen = { integrity: 0, conformant: 0, refused: 0, documents: 0 };
    await fc.assert(
      fc.asyncProperty(
        dataModelAndJournalArbitrary({ split: "never" }),
        chunkingArbitrary,
        async ({ model: file, journal }, chunking) => {
          const model = checkModel(file, "generated.json");
          if (!("lines" in model.source)) seen.documents += 1;
          const expected = outcomeOf(() => auditDataBytes(model, journal.bytes));
          if ("threw" in expected) seen.refused += 1;
          else {
            if (expected.returned.integrity !== null) seen.integrity += 1;
            if (expected.returned.conformant) seen.conformant += 1;
            for (const finding of expected.returned.legality.first) reasons.add(finding.reason);
          }
          for (const flavour of FLAVOURS) {
            const engine = await loadDataEngine(model, { flavour });
            expect(await asyncOutcomeOf(() => engine.auditBytes(journal.bytes))).toEqual(expected);
            const chunks = chunked(journal.bytes, chunking);
            expect(await asyncOutcomeOf(() => engine.auditBytes(chunks))).toEqual(expected);
          }
        },
      ),
      { numRuns: 500 },
    );
    expect([...reasons].sort()).toEqual([...DATA_REASONS].sort());
    expect(seen.integrity).toBeGreaterThan(0);
    expect(seen.conformant).toBeGreaterThan(0);
    expect(seen.documents).toBeGreaterThan(0);
  }, 300_000);
});

describe("data kernel ≡ reference: generated streams split by journal.key", () => {
  it("give the same report per journal, or the same refusal, in any chunking", async () => {
    const reasons = new Set<string>();
    const seen = {
      journals: 0,
      several: 0,
      integrity: 0,
      keyless: 0,
      tornTail: 0,
      none: 0,
      documents: 0,
    };
    await fc.assert(
      fc.asyncProperty(
        dataModelAndJournalArbitrary({ split: "always" }),
        chunkingArbitrary,
        async ({ model: file, journal }, chunking) => {
          const model = checkModel(file, "generated.json");
          if (model.journal.key === null) return; // no field could key it
          if (!("lines" in model.source)) seen.documents += 1;
          const expected = outcomeOf(() => ({
            journals: auditDataJournals(model, journal.bytes),
          }));
          if ("returned" in expected) {
            const { journals } = expected.returned;
            for (const report of journals)
              for (const finding of report.legality.first) reasons.add(finding.reason);
            seen.journals += 1;
            if (journals.length > 1) seen.several += 1;
            if (journals[0]?.journal === null) seen.none += 1;
            if (journals[0]?.tornTail !== null) seen.tornTail += 1;
            const integrity = journals[0]?.integrity;
            if (integrity) seen.integrity += 1;
            if (integrity?.message.startsWith("the record has no journal key")) seen.keyless += 1;
          }
          for (const flavour of FLAVOURS) {
            const engine = await loadDataEngine<DataJournalsReport>(model, { flavour });
            expect(await asyncOutcomeOf(() => engine.auditBytes(journal.bytes))).toEqual(expected);
            const chunks = chunked(journal.bytes, chunking);
            expect(await asyncOutcomeOf(() => engine.auditBytes(chunks))).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(seen.several).toBeGreaterThan(0);
    expect(seen.integrity).toBeGreaterThan(0);
    expect(seen.keyless).toBeGreaterThan(0);
    expect(seen.tornTail).toBeGreaterThan(0);
    expect(seen.none).toBeGreaterThan(0);
    expect([...reasons].sort()).toEqual([...DATA_REASONS].sort());
    expect(seen.documents).toBeGreaterThan(0);
  }, 300_000);
});
