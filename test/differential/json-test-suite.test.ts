/**
 * JSONTestSuite (vendored in test/data/json-test-suite, read only): every file, as the
 * value of an extra field of an otherwise valid event line, as a line of its own, and as an
 * unterminated final line; the WASM engine (both builds) must give the reference's report, whose
 * verdict is JSON.parse's over strict UTF-8 (the suite's README). The deeply nested files are in:
 * the kernel's scanner must not recurse per level.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { WasmEngine } from "../../bindings/index.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { Report } from "../../src/models/dag/index.js";
import { loadFlavours } from "../support/engines.js";
import { dagOf } from "../support/fixtures.js";
import { oneLineSuiteFiles, PLACEMENTS } from "../support/json-test-suite.js";
import { chunked } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, type Outcome } from "../support/outcome.js";

const files = oneLineSuiteFiles();
const dag = dagOf(["A"]);

let engines: readonly WasmEngine[];
beforeAll(async () => {
  engines = await loadFlavours();
});

describe("JSONTestSuite, WASM vs reference", () => {
  it("has the suite's files, the deeply nested ones included", () => {
    expect(files.length).toBeGreaterThan(300);
    const names = files.map((file) => file.name);
    expect(names).toContain("n_structure_100000_opening_arrays.json");
    expect(names).toContain("n_structure_open_array_object.json");
    expect(names).toContain("i_structure_500_nested_arrays.json");
  });

  for (const [placement, place] of Object.entries(PLACEMENTS)) {
    it(`gives the reference's report for every file ${placement}, whole and in chunks`, async () => {
      // One comparison over all files, so a failure lists every file that differs.
      const actual: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const file of files) {
        const journal = place(file.bytes);
        const reference = verdictOf(
          await asyncOutcomeOf(() => referenceEngine.auditBytes(dag, journal)),
        );
        for (const engine of engines) {
          const chunks = () => chunked(journal, { sizes: [7, 1, 4093], feed: "reused-buffer" });
          const whole = await asyncOutcomeOf(() => engine.auditBytes(dag, journal));
          const inChunks = await asyncOutcomeOf(() => engine.auditBytes(dag, chunks()));
          actual[`${file.name}, ${engine.flavour}, whole`] = verdictOf(whole);
          actual[`${file.name}, ${engine.flavour}, in chunks`] = verdictOf(inChunks);
          expected[`${file.name}, ${engine.flavour}, whole`] = reference;
          expected[`${file.name}, ${engine.flavour}, in chunks`] = reference;
        }
      }
      expect(actual).toEqual(expected);
    });
  }

  it("agrees with the suite on y_ and n_ files on a line of their own (not vacuous)", async () => {
    for (const file of files) {
      const report = await referenceEngine.auditBytes(
        dag,
        PLACEMENTS["as a line of its own"]?.(file.bytes) as Uint8Array,
      );
      const unparseable =
        report.integrity?.reason === "malformed-event" &&
        /not valid (JSON|UTF-8)/.test(report.integrity.message);
      const blank = report.events === 1;
      if (file.name.startsWith("y_")) expect(unparseable || blank, file.name).toBe(false);
      if (file.name.startsWith("n_")) expect(unparseable || blank, file.name).toBe(true);
    }
  });
});

/**
 * The whole outcome as text with sorted keys: one report (or error) per file reads as one line of
 * a diff, and key order does not count, as in toEqual.
 */
function verdictOf(outcome: Outcome<Report>): string {
  return JSON.stringify(outcome, (_, value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)))
      : value,
  );
}
