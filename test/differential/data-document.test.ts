/**
 * The data kernel's own reader of JSON documents (assembly/data/document.ts) against the
 * reference's (src/journal/json-array-source.ts, read by src/models/data/engine.ts): generated
 * documents with the records array at a path the source lists — first in document order among
 * arrays at other listed paths, after members of the same names that are no arrays — or at none,
 * among members of every JSON shape (nested arrays, strings of brackets, quotes, escapes and
 * non-ASCII characters), written compact or over many lines; now and then cut short, or with a
 * byte put in or changed anywhere, inside the records array or out. Fed in chunks of random
 * sizes, both builds give the reference's report or its refusal, word for word. Vacuity guarded:
 * reports, breaks inside and outside the array, and documents without one were all reached. And
 * every file of JSONTestSuite (test/data/json-test-suite) as a document, as an element of the
 * records array and as a member outside it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDataEngine, type WasmDataEngine } from "../../bindings/data/engine.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { auditDataBytes } from "../../src/models/data/engine.js";
import { recordTextArbitrary } from "../bindings/data/journals.js";
import { path, paymentIntents, tasksModel } from "../bindings/data/models.js";
import { concatBytes, encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import { JSON_TEST_SUITE } from "../support/json-test-suite.js";
import { chunked } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

/** The source of the shipped `temporal` model, and a suffix step besides. */
const SOURCE = { arrays: [path("history.*Events"), path("events"), []] };
const MODELS: readonly CompiledModel[] = [
  { ...paymentIntents(), name: "payments-documents", source: SOURCE },
  { ...tasksModel(), name: "tasks-documents", source: SOURCE },
];

const NOISE_KEYS = ['"a"', '"events"', '"history"', '"xEvents"', '"é"', '"]}"', '"\\u0065vents"'];

/** A value that is no record: every JSON shape, strings that look like structure. */
const { noise } = fc.letrec<{ noise: string }>((tie) => ({
  noise: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(
      '"]"',
      '"[{"',
      '"\\"]}"',
      '"\\\\"',
      '"é😀 ]"',
      '"\\u00e9\\ud83d\\ude00\\u005d"',
      '"a\\/b\\n"',
      '""',
      "0",
      "-1.5e+3",
      "2E-2",
      "true",
      "false",
      "null",
      "[]",
      "{}",
    ),
    fc.array(tie("noise"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(fc.constantFrom(...NOISE_KEYS), tie("noise")), { maxLength: 3 })
      .map((members) => `{${members.map(([key, value]) => `${key}:${value}`).join(",")}}`),
  ),
}));

/** Where the records array is put: at a listed path (the suffix's key spelled two ways), or none. */
const PLACES: readonly (readonly string[])[] = [
  ["events"],
  ["history", "historyEvents"],
  ["history", "Events"],
  [],
  ["other"],
  ["history", "events"],
  ["x", "events"],
];

interface Draft {
  readonly place: readonly string[];
  /** Per level of the place: members before and after the one leading on. */
  readonly around: readonly (readonly [readonly string[], readonly string[]])[];
  readonly elements: readonly string[];
  /** White space put between tokens, used in turn. */
  readonly spaces: readonly string[];
}

interface Breakage {
  readonly how: "none" | "cut" | "insert" | "replace" | "append";
  readonly at: number;
  readonly bytes: readonly number[];
}

interface Document {
  readonly bytes: Uint8Array;
  /** The records array's place in `bytes`, before any breakage. */
  readonly arrayStart: number;
  readonly arrayEnd: number;
  /** Where the breakage is, -1 when none. */
  readonly brokenAt: number;
}

const BREAKING_BYTES = [
  [0x00],
  [0x01],
  [0x0a],
  [0x22],
  [0x5c],
  [0x5d],
  [0x7d],
  [0x2c],
  [0x3a],
  [0x78],
  [0x30],
  [0x2d],
  [0x2e],
  [0x65],
  [0x80],
  [0xbf],
  [0xc3],
  [0xc0],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0xff],
  [0xc3, 0xa9],
  [0xf0, 0x9f, 0x98, 0x80],
];

function documentArbitrary(model: CompiledModel): fc.Arbitrary<Document> {
  const members = fc.array(
    fc.tuple(fc.constantFrom(...NOISE_KEYS), noise).map(([key, value]) => `${key}:${value}`),
    { maxLength: 2 },
  );
  const draft: fc.Arbitrary<Draft> = fc.constantFrom(...PLACES).chain((place) =>
    fc.record({
      place: fc.constant(place),
      around: fc.array(fc.tuple(members, members), {
        minLength: place.length,
        maxLength: place.length,
      }),
      elements: fc.array(
        fc.oneof(
          { weight: 8, arbitrary: recordTextArbitrary(model, true) },
          { weight: 2, arbitrary: recordTextArbitrary(model, false) },
          { weight: 1, arbitrary: noise },
          { weight: 1, arbitrary: fc.constantFrom("0", "12", "-3.5e+2", "1E2", "true", '"s"') },
        ),
        { maxLength: 8 },
      ),
      spaces: fc.array(fc.constantFrom("", "", " ", "\n", "\n    ", "\t", "\r\n  "), {
        minLength: 1,
        maxLength: 5,
      }),
    }),
  );
  const breakage: fc.Arbitrary<Breakage> = fc.record({
    how: fc.constantFrom("none", "none", "none", "cut", "insert", "replace", "append"),
    at: fc.nat(),
    bytes: fc.constantFrom(...BREAKING_BYTES),
  });
  return fc.tuple(draft, breakage).map(([plan, broken]) => breakDocument(writeDraft(plan), broken));
}

function writeDraft(plan: Draft): Omit<Document, "brokenAt"> {
  let turn = 0;
  const space = () => plan.spaces[turn++ % plan.spaces.length] as string;
  const array = `[${space()}${plan.elements.join(`,${space()}`)}${space()}]`;
  let before = "";
  let after = "";
  for (let level = plan.place.length - 1; level >= 0; level -= 1) {
    const [ahead, behind] = plan.around[level] as readonly [readonly string[], readonly string[]];
    const key = JSON.stringify(plan.place[level]);
    before = `{${space()}${ahead.map((member) => `${member},${space()}`).join("")}${key}:${space()}${before}`;
    after = `${after}${behind.map((member) => `,${space()}${member}`).join("")}${space()}}`;
  }
  const head = `${space()}${before}`;
  const arrayStart = encode(head).length;
  return {
    bytes: encode(`${head}${array}${after}${space()}`),
    arrayStart,
    arrayEnd: arrayStart + encode(array).length,
  };
}

function breakDocument(document: Omit<Document, "brokenAt">, broken: Breakage): Document {
  const { bytes } = document;
  const at = broken.at % (bytes.length + 1);
  const put = Uint8Array.from(broken.bytes);
  const join = (...parts: Uint8Array[]) => {
    const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      whole.set(part, offset);
      offset += part.length;
    }
    return whole;
  };
  switch (broken.how) {
    case "none":
      return { ...document, brokenAt: -1 };
    case "cut":
      return { ...document, bytes: bytes.slice(0, at), brokenAt: at };
    case "insert":
      return {
        ...document,
        bytes: join(bytes.subarray(0, at), put, bytes.subarray(at)),
        brokenAt: at,
      };
    case "replace":
      return {
        ...document,
        bytes: join(bytes.subarray(0, at), put, bytes.subarray(Math.min(at + 1, bytes.length))),
        brokenAt: at,
      };
    default:
      return { ...document, bytes: join(bytes, put), brokenAt: bytes.length };
  }
}

/** Chunk sizes, each from one byte to the whole document, used in turn. */
const chunkSizesArbitrary = fc.array(
  fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 4096 })),
  { minLength: 1, maxLength: 6 },
);

const engines = new Map<CompiledModel, Promise<readonly WasmDataEngine[]>>();

function enginesOf(model: CompiledModel): Promise<readonly WasmDataEngine[]> {
  let loaded = engines.get(model);
  if (loaded === undefined) {
    loaded = Promise.all(FLAVOURS.map((flavour) => loadDataEngine(model, { flavour })));
    engines.set(model, loaded);
  }
  return loaded;
}

describe("data kernel ≡ reference: the kernel's own reader of JSON documents", () => {
  for (const model of MODELS) {
    it(`reads every document of ${model.name} as the reference does, in chunks of any size`, async () => {
      const seen = { reported: 0, noArray: 0, brokenInside: 0, brokenOutside: 0, lines: 0 };
      await fc.assert(
        fc.asyncProperty(documentArbitrary(model), chunkSizesArbitrary, async (document, sizes) => {
          const { bytes, arrayStart, arrayEnd, brokenAt } = document;
          const expected = outcomeOf(() => auditDataBytes(model, bytes));
          for (const engine of await enginesOf(model)) {
            expect(await asyncOutcomeOf(() => engine.auditBytes(bytes))).toEqual(expected);
            const chunks = chunked(bytes, { sizes, feed: "async-reused-buffer" });
            expect(await asyncOutcomeOf(() => engine.auditBytes(chunks))).toEqual(expected);
          }
          if ("returned" in expected) {
            seen.reported += 1;
            if (expected.returned.legality.first.some(({ line }) => (line ?? 0) > 1))
              seen.lines += 1;
          } else if (expected.threw.message.endsWith("found none")) {
            seen.noArray += 1;
          } else if (brokenAt > arrayStart && brokenAt < arrayEnd) {
            seen.brokenInside += 1;
          } else {
            seen.brokenOutside += 1;
          }
        }),
        { numRuns: 300 },
      );
      for (const [outcome, count] of Object.entries(seen))
        expect(count, outcome).toBeGreaterThan(0);
    }, 300_000);
  }
});

describe("data kernel ≡ reference: JSONTestSuite's files in a document", () => {
  const files = readdirSync(JSON_TEST_SUITE).sort();
  const model = MODELS[0] as CompiledModel;
  /** The file as the whole document, as the records array's one element, and as a member outside it. */
  const placements: Record<string, (bytes: Uint8Array) => Uint8Array> = {
    whole: (bytes) => bytes,
    element: (bytes) => concatBytes(encode('{"events": [\n'), bytes, encode("\n]}")),
    outside: (bytes) => concatBytes(encode('{"meta": '), bytes, encode(', "events": []}')),
  };

  it.each(Object.keys(placements))(
    "every file %s: the same report or refusal",
    async (place) => {
      const builds = await enginesOf(model);
      let refused = 0;
      let reported = 0;
      for (const name of files) {
        const bytes = (placements[place] as (bytes: Uint8Array) => Uint8Array)(
          new Uint8Array(readFileSync(join(JSON_TEST_SUITE, name))),
        );
        const expected = outcomeOf(() => auditDataBytes(model, bytes));
        if ("threw" in expected) refused += 1;
        else reported += 1;
        for (const engine of builds) {
          expect(await asyncOutcomeOf(() => engine.auditBytes(bytes)), name).toEqual(expected);
          const bytewise = chunked(bytes, { sizes: [1, 7, 3], feed: "reused-buffer" });
          expect(await asyncOutcomeOf(() => engine.auditBytes(bytewise)), name).toEqual(expected);
        }
      }
      expect(refused).toBeGreaterThan(0);
      expect(reported).toBeGreaterThan(0);
    },
    300_000,
  );
});
