/**
 * auditBytes: the WASM engine (both builds) against the reference on JSONL journals written every
 * way test/support/jsonl-encoding.ts knows, whole and cut into chunks of any size.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { WasmEngine } from "../../bindings/index.js";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { Dag } from "../../src/models/dag/index.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import { dagArbitrary } from "../support/arbitraries.js";
import { encode } from "../support/bytes.js";
import { loadFlavours } from "../support/engines.js";
import { dagOf } from "../support/fixtures.js";
import {
  type ChunkFeed,
  chunked,
  chunkingArbitrary,
  encodeHeader,
  encodingStyleArbitrary,
  JsonWriter,
  jsonlJournalArbitrary,
} from "../support/jsonl-encoding.js";
import { asyncOutcomeOf } from "../support/outcome.js";
import { REACHABLE_VERDICTS, VerdictTally } from "../support/verdicts.js";

let engines: readonly WasmEngine[];
beforeAll(async () => {
  engines = await loadFlavours();
});

/**
 * An object event as read, limited to the fields it was written with and the four the audit reads
 * (extra fields are additions; an audited field that was not written must not appear).
 */
function fieldsOf(read: unknown, written: unknown): unknown {
  if (typeof read !== "object" || read === null || Array.isArray(read)) return read;
  if (typeof written !== "object" || written === null) return read;
  const keys = new Set([...Object.keys(written), "kind", "id", "result", "surface"]);
  return Object.fromEntries(Object.entries(read).filter(([key]) => keys.has(key)));
}

describe("the JSONL encoding (test support)", () => {
  it("is faithful: the reference reader reads back the raw log, the header's DAG and the tail", () => {
    fc.assert(
      fc.property(jsonlJournalArbitrary(), (journal) => {
        fc.pre(!journal.options.bom);
        const read = readJsonlJournal(journal.bytes, "j.jsonl");
        expect(read.events).toHaveLength(journal.events.length);
        for (const [i, event] of read.events.entries()) {
          const written = journal.events[i];
          if (written instanceof UnparseableLine) {
            expect(event).toEqual(written);
            expect(event).toBeInstanceOf(UnparseableLine);
          } else {
            expect(fieldsOf(event, written)).toEqual(written);
          }
        }
        expect(dagOfHeader(read.header)?.nodes ?? null).toEqual(
          journal.options.header ? journal.dag.nodes : null,
        );
        expect(read.tornTail !== null).toBe(journal.options.tail === "torn");
      }),
      { numRuns: 300 },
    );
  });
});

describe("auditBytes, WASM vs reference", () => {
  it("deep-equals the reference on generated journals, whole and chunked, on both builds", async () => {
    const coverage = new VerdictTally();
    await fc.assert(
      fc.asyncProperty(jsonlJournalArbitrary(), chunkingArbitrary, async (journal, chunking) => {
        const expected = await asyncOutcomeOf(() =>
          referenceEngine.auditBytes(journal.given, journal.bytes),
        );
        coverage.note(expected);
        for (const engine of engines) {
          const whole = await asyncOutcomeOf(() => engine.auditBytes(journal.given, journal.bytes));
          expect(whole, `${engine.flavour}, whole`).toEqual(expected);
          const inChunks = await asyncOutcomeOf(() =>
            engine.auditBytes(journal.given, chunked(journal.bytes, chunking)),
          );
          expect(inChunks, `${engine.flavour}, chunks ${JSON.stringify(chunking)}`).toEqual(
            expected,
          );
        }
      }),
      { numRuns: 2000 },
    );
    // Not vacuous: the generated journals reach every kind of verdict the model can give
    // (phaseMonotonic, noPendingProven, dagPreserved and tamperEvident cannot fail under the fold).
    for (const key of REACHABLE_VERDICTS) {
      expect(coverage.count(key), key).toBeGreaterThan(5);
    }
  });

  it("gives the same report for one-byte chunks as for the whole journal", async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonlJournalArbitrary({ log: { maxInsertions: 6 } }),
        fc.constantFrom<ChunkFeed>(
          "iterable",
          "async-iterable",
          "reused-buffer",
          "async-reused-buffer",
        ),
        async (journal, feed) => {
          const expected = await asyncOutcomeOf(() =>
            referenceEngine.auditBytes(journal.given, journal.bytes),
          );
          for (const engine of engines) {
            const bytes = chunked(journal.bytes, { sizes: [1], feed });
            const outcome = await asyncOutcomeOf(() => engine.auditBytes(journal.given, bytes));
            expect(outcome, engine.flavour).toEqual(expected);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("throws the reference's JournalError for a missing, mismatched or broken header DAG", async () => {
    const brokenHeaders = [
      '{"statefold":"journal","version":2,"dag":{"nodes":[]}}',
      '{"statefold":"journal","version":1}',
      '{"statefold":"other","version":1,"dag":{"nodes":[]}}',
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":["A"]}]}}',
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":["B"]}]}}',
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"A","deps":[]}]}}',
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":7,"deps":[]}]}}',
      '{"statefold":"journal","version":1,"dag":[]}',
      '{"statefold":null}',
    ];
    await fc.assert(
      fc.asyncProperty(
        dagArbitrary(),
        dagArbitrary(),
        encodingStyleArbitrary,
        fc.constantFrom(...brokenHeaders, "good header", "no header"),
        fc.constantFrom("own DAG", "other DAG", "no DAG"),
        fc.constantFrom(
          undefined,
          { file: "journal.jsonl" },
          { file: "dir/ü 😀.jsonl", dagName: "dag.json" },
          { dagName: "the --dag file" },
        ),
        chunkingArbitrary,
        async (dag, other, style, headerKind, givenKind, options, chunking) => {
          const writer = new JsonWriter(style);
          const header =
            headerKind === "no header"
              ? new Uint8Array()
              : headerKind === "good header"
                ? encodeHeader(writer, dag)
                : encode(headerKind);
          const body = encode(`\n{"kind":"dispatched","id":${JSON.stringify(dag.nodes[0]?.id)}}\n`);
          const bytes = Uint8Array.from([...encode("\n \r\n"), ...header, ...body]);
          const given: Dag | null =
            givenKind === "own DAG" ? dag : givenKind === "other DAG" ? other : null;
          const expected = await asyncOutcomeOf(() =>
            referenceEngine.auditBytes(given, bytes, options),
          );
          for (const engine of engines) {
            expect(await asyncOutcomeOf(() => engine.auditBytes(given, bytes, options))).toEqual(
              expected,
            );
            const inChunks = chunked(bytes, chunking);
            expect(await asyncOutcomeOf(() => engine.auditBytes(given, inChunks, options))).toEqual(
              expected,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("names the given DAG as options.dagName says, in a header mismatch, as the reference does", async () => {
    const header = encode(
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]}]}}\n',
    );
    const given = dagOf(["B"]);
    const options = { file: "j.jsonl", dagName: "dag.json" };
    const expected = await asyncOutcomeOf(() => referenceEngine.auditBytes(given, header, options));
    for (const engine of engines) {
      const outcome = await asyncOutcomeOf(() => engine.auditBytes(given, header, options));
      expect(outcome, engine.flavour).toEqual(expected);
    }
  });

  it("audits the same engine's journals one after another without carrying state over", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(jsonlJournalArbitrary(), { minLength: 2, maxLength: 4 }),
        async (journals) => {
          const expected = await Promise.all(
            journals.map((journal) =>
              asyncOutcomeOf(() => referenceEngine.auditBytes(journal.given, journal.bytes)),
            ),
          );
          for (const engine of engines) {
            for (const [i, journal] of journals.entries()) {
              const outcome = await asyncOutcomeOf(() =>
                engine.auditBytes(journal.given, journal.bytes),
              );
              expect(outcome, `${engine.flavour}, journal ${i}`).toEqual(expected[i]);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
