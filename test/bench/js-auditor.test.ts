/**
 * The plain-JavaScript auditor (bench/dag/js-auditor/) against the reference: a competitor that gave
 * wrong answers would prove nothing about speed. Generated journals — legal, illegal and malformed
 * logs, written every way test/support/jsonl-encoding.ts knows, whole and in chunks of any size —
 * must give deep-equal reports (or the same JournalError) from both.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsAuditor } from "../../bench/dag/js-auditor/index.js";
import { campaignLines } from "../../src/generate/dag/campaign.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { chunked, chunkingArbitrary, jsonlJournalArbitrary } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf } from "../support/outcome.js";
import { REACHABLE_VERDICTS, VerdictTally } from "../support/verdicts.js";

describe("JsAuditor.auditBytes", () => {
  it("deep-equals the reference on generated journals, whole and in chunks", async () => {
    const coverage = new VerdictTally();
    const auditor = new JsAuditor();
    await fc.assert(
      fc.asyncProperty(jsonlJournalArbitrary(), chunkingArbitrary, async (journal, chunking) => {
        const expected = await asyncOutcomeOf(() =>
          referenceEngine.auditBytes(journal.given, journal.bytes),
        );
        coverage.note(expected);
        const whole = await asyncOutcomeOf(() => auditor.auditBytes(journal.given, journal.bytes));
        expect(whole, "whole").toEqual(expected);
        const inChunks = await asyncOutcomeOf(() =>
          auditor.auditBytes(journal.given, chunked(journal.bytes, chunking)),
        );
        expect(inChunks, `chunks ${JSON.stringify(chunking)}`).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
    // Not vacuous: the journals reach every verdict the model can give (phaseMonotonic,
    // noPendingProven, dagPreserved and tamperEvident cannot fail under the fold).
    for (const verdict of REACHABLE_VERDICTS) {
      expect(coverage.count(verdict), verdict).toBeGreaterThan(3);
    }
  });

  it("deep-equals the reference on the benchmark's campaigns, illegal events included", async () => {
    const auditor = new JsAuditor();
    for (const seed of [1, 2, 3]) {
      const options = { nodes: 40, events: 4000, seed, illegalRate: 0.02, surfacePathsMax: 6 };
      const bytes = new TextEncoder().encode(`${[...campaignLines(options)].join("\n")}\n`);
      const expected = await referenceEngine.auditBytes(null, bytes);
      expect(expected.legality.illegal).toBeGreaterThan(0);
      expect(await auditor.auditBytes(null, bytes), `seed ${seed}`).toEqual(expected);
    }
  });

  it("keeps no state from one journal to the next", async () => {
    const auditor = new JsAuditor();
    await fc.assert(
      fc.asyncProperty(
        fc.array(jsonlJournalArbitrary(), { minLength: 2, maxLength: 4 }),
        async (journals) => {
          for (const [i, journal] of journals.entries()) {
            const expected = await asyncOutcomeOf(() =>
              referenceEngine.auditBytes(journal.given, journal.bytes),
            );
            const outcome = await asyncOutcomeOf(() =>
              auditor.auditBytes(journal.given, journal.bytes),
            );
            expect(outcome, `journal ${i}`).toEqual(expected);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
