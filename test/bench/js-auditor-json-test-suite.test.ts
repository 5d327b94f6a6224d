/**
 * JSONTestSuite (vendored in test/data/json-test-suite, read only) for the plain-JavaScript
 * auditor: every file as an extra field's value, as a line of its own and as an unterminated final
 * line must give the reference's report, whose verdict is JSON.parse's over strict UTF-8. The
 * generated journals of js-auditor.test.ts rarely spell the grammar's corners (`1.`, `-01`,
 * `[1,]`, lone escapes, 100 000 opening brackets); the suite spells them all.
 */
import { describe, expect, it } from "vitest";
import { JsAuditor } from "../../bench/dag/js-auditor/index.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { dagOf } from "../support/fixtures.js";
import { oneLineSuiteFiles, PLACEMENTS } from "../support/json-test-suite.js";
import { chunked } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf } from "../support/outcome.js";

/** The files that fit on one line (a final line feed is taken as the line end). */
const files = oneLineSuiteFiles();

describe("JSONTestSuite, JsAuditor vs reference", () => {
  it("has the suite's files, the deeply nested ones included", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.map((file) => file.name)).toContain("n_structure_100000_opening_arrays.json");
  });

  for (const [placement, place] of Object.entries(PLACEMENTS)) {
    it(`gives the reference's report for every file ${placement}, whole and in chunks`, async () => {
      const dag = dagOf(["A"]);
      const auditor = new JsAuditor();
      // One comparison over all files, so that a failure lists every file that differs.
      const actual: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const file of files) {
        const journal = place(file.bytes);
        const reference = await asyncOutcomeOf(() => referenceEngine.auditBytes(dag, journal));
        const chunks = chunked(journal, { sizes: [7, 1, 4093], feed: "reused-buffer" });
        actual[`${file.name}, whole`] = await asyncOutcomeOf(() =>
          auditor.auditBytes(dag, journal),
        );
        actual[`${file.name}, in chunks`] = await asyncOutcomeOf(() =>
          auditor.auditBytes(dag, chunks),
        );
        expected[`${file.name}, whole`] = reference;
        expected[`${file.name}, in chunks`] = reference;
      }
      expect(actual).toEqual(expected);
    });
  }
});
