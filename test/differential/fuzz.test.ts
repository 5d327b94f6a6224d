/**
 * Fuzzing the kernel: random bytes and mutated valid journals (bit flips, byte insertions and
 * deletions, truncations, splices of two journals). Every journal must be audited — no trap (a
 * RuntimeError), no hang (the engine runs under a watchdog, test/support/watchdog.ts) — and the
 * report, whole and chunked, on both builds, must equal the reference's.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { Dag } from "../../src/models/dag/index.js";
import { concatBytes, encode } from "../support/bytes.js";
import { dagOf } from "../support/fixtures.js";
import {
  type Chunking,
  chunkingArbitrary,
  INVALID_UTF8_SEQUENCES,
  jsonlJournalArbitrary,
} from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, isTrap } from "../support/outcome.js";
import { EngineWatchdog } from "../support/watchdog.js";

/** Far above any case here (kilobytes); only a kernel that does not finish reaches it. */
const CASE_TIMEOUT_MS = 10_000;

let watchdog: EngineWatchdog;
beforeAll(async () => {
  watchdog = await EngineWatchdog.start();
});
afterAll(async () => {
  await watchdog?.stop();
});

async function expectSameAsReference(dag: Dag | null, bytes: Uint8Array, chunking: Chunking) {
  const expected = await asyncOutcomeOf(() => referenceEngine.auditBytes(dag, bytes));
  const dagNodes = dag === null ? null : dag.nodes;
  const outcomes = await watchdog.audit({ dagNodes, bytes, chunking }, CASE_TIMEOUT_MS);
  for (const [how, outcome] of Object.entries(outcomes)) {
    expect(isTrap(outcome), `${how}: ${JSON.stringify(outcome)}`).toBe(false);
    expect(outcome, how).toEqual(expected);
  }
}

const SMALL_DAG = dagOf(["A"], ["B", "A"], ["é😀"]);

/** Bytes a JSONL scanner treats specially, whole tokens, and anything at all. */
const TOKENS = [
  "{",
  "}",
  "[",
  "]",
  '"',
  ":",
  ",",
  "\\",
  "\\u",
  "\\ud83d",
  "\\ude00",
  "\\ud800",
  "0041",
  "\n",
  "\r\n",
  "\r",
  " ",
  "\t",
  '"kind"',
  '"id"',
  '"result"',
  '"surface"',
  '"\\u006bind"',
  '"dispatched"',
  '"landed"',
  '"gate-checked"',
  '"discharged"',
  '"quarantined"',
  '"surface-widened"',
  '"A"',
  '"B"',
  '"é😀"',
  '"pass"',
  "true",
  "null",
  "-",
  "0",
  "1e5",
  ".5",
  '{"kind":"dispatched","id":"A"}\n',
  '{"kind":"landed","id":"A"}\n',
  '{"kind":"gate-checked","id":"A","result":"pass"}\n',
  '{"kind":"surface-widened","id":"B","surface":["a","b"]}\n',
  '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"B","deps":["A"]},{"id":"é😀","deps":[]}]}}\n',
].map(encode);

const randomJournalBytesArbitrary: fc.Arbitrary<Uint8Array> = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...TOKENS) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...INVALID_UTF8_SEQUENCES.map((s) => Uint8Array.from(s))),
      },
      { weight: 2, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 6 }) },
    ),
    { maxLength: 300 },
  )
  .map((parts) => concatBytes(...parts));

type Mutation =
  | { readonly op: "flip"; readonly at: number; readonly bit: number }
  | { readonly op: "insert"; readonly at: number; readonly bytes: Uint8Array }
  | { readonly op: "delete"; readonly at: number; readonly length: number }
  | { readonly op: "truncate"; readonly at: number }
  | { readonly op: "duplicate"; readonly at: number; readonly length: number };

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({
    op: fc.constant("insert" as const),
    at: fc.nat(),
    bytes: fc.oneof(fc.constantFrom(...TOKENS), fc.uint8Array({ minLength: 1, maxLength: 4 })),
  }),
  fc.record({
    op: fc.constant("delete" as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    op: fc.constant("duplicate" as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 200 }),
  }),
);

function mutate(bytes: Uint8Array, mutation: Mutation): Uint8Array {
  const at = bytes.length === 0 ? 0 : mutation.at % (bytes.length + 1);
  const before = bytes.subarray(0, at);
  switch (mutation.op) {
    case "flip": {
      if (bytes.length === 0) return bytes;
      const flipped = bytes.slice();
      const i = mutation.at % bytes.length;
      flipped[i] = (flipped[i] as number) ^ (1 << mutation.bit);
      return flipped;
    }
    case "insert":
      return concatBytes(before, mutation.bytes, bytes.subarray(at));
    case "delete":
      return concatBytes(before, bytes.subarray(at + mutation.length));
    case "truncate":
      return bytes.slice(0, at);
    case "duplicate":
      return concatBytes(bytes.subarray(0, at + mutation.length), bytes.subarray(at));
    default: {
      const unreachable: never = mutation;
      return unreachable;
    }
  }
}

describe("fuzzing, WASM under a watchdog vs reference", () => {
  it("audits random bytes without trapping or hanging, as the reference does", async () => {
    await fc.assert(
      fc.asyncProperty(
        randomJournalBytesArbitrary,
        fc.constantFrom<Dag | null>(SMALL_DAG, SMALL_DAG, null),
        chunkingArbitrary,
        (bytes, dag, chunking) => expectSameAsReference(dag, bytes, chunking),
      ),
      { numRuns: 800 },
    );
  });

  it("audits mutated journals without trapping or hanging, as the reference does", async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonlJournalArbitrary({ log: { maxInsertions: 6 } }),
        fc.array(mutationArbitrary, { minLength: 1, maxLength: 8 }),
        chunkingArbitrary,
        async (journal, mutations, chunking) => {
          const bytes = mutations.reduce(mutate, journal.bytes);
          await expectSameAsReference(journal.given, bytes, chunking);
        },
      ),
      { numRuns: 800 },
    );
  });

  it("audits splices of two journals without trapping or hanging, as the reference does", async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonlJournalArbitrary({ log: { maxInsertions: 6 } }),
        jsonlJournalArbitrary({ log: { maxInsertions: 6 } }),
        fc.nat(),
        fc.nat(),
        chunkingArbitrary,
        async (first, second, cut, resume, chunking) => {
          const bytes = concatBytes(
            first.bytes.subarray(0, cut % (first.bytes.length + 1)),
            second.bytes.subarray(resume % (second.bytes.length + 1)),
          );
          await expectSameAsReference(first.given, bytes, chunking);
        },
      ),
      { numRuns: 400 },
    );
  });
});
