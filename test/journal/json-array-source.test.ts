import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JournalError } from "../../src/journal/errors.js";
import {
  type ArrayElement,
  formatPath,
  JsonArraySource,
  jsonArrayElements,
} from "../../src/journal/json-array-source.js";
import type { Path } from "../../src/models/data/compiled.js";
import { concatBytes, encode } from "../support/bytes.js";
import { JSON_TEST_SUITE } from "../support/json-test-suite.js";

const FILE = "history.json";
const EVENTS: Path = [{ member: "events" }];
const HISTORY_EVENTS: Path = [{ member: "history" }, { member: "events" }];
/** The shipped `temporal` model's alternatives. */
const TEMPORAL: readonly Path[] = [EVENTS, HISTORY_EVENTS, []];

/** What reading a document gives: its elements, or the refusal's message. */
type Read =
  | { readonly elements: readonly ReadElement[] }
  | { readonly refused: string; readonly line?: number; readonly column?: number };

interface ReadElement {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly text: string;
}

const utf8 = new TextDecoder();

/** Reads `document` pushed in chunks of the given sizes, in turn (the whole of it by default). */
function read(
  document: Uint8Array | string,
  paths: readonly Path[],
  sizes: readonly number[] = [],
): Read {
  const bytes = typeof document === "string" ? encode(document) : document;
  const source = new JsonArraySource(paths, FILE);
  const elements: ReadElement[] = [];
  const keep = (element: ArrayElement) =>
    elements.push({
      ...element,
      bytes: undefined,
      text: utf8.decode(element.bytes),
    } as ReadElement);
  try {
    for (let at = 0, turn = 0; at < bytes.length; turn += 1) {
      const size = sizes.length === 0 ? bytes.length : (sizes[turn % sizes.length] as number);
      source.push(bytes.slice(at, at + size)).forEach(keep);
      at += size;
    }
    source.end();
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return { refused: error.message, line: error.line, column: error.column };
  }
  return { elements: elements.map(({ start, end, line, text }) => ({ start, end, line, text })) };
}

function texts(outcome: Read): string[] {
  if ("refused" in outcome) throw new Error(`refused: ${outcome.refused}`);
  return outcome.elements.map((element) => element.text);
}

describe("JsonArraySource", () => {
  it("gives each element's bytes, offsets and line, at any of the paths", () => {
    const document = '{"history": {"id": "w", "events": [\n  {"eventId": "1"},\n  [2, "x"], 3\n]}}';
    const outcome = read(document, TEMPORAL);
    expect(outcome).toEqual({
      elements: [
        { start: 38, end: 54, line: 2, text: '{"eventId": "1"}' },
        { start: 58, end: 66, line: 3, text: '[2, "x"]' },
        { start: 68, end: 69, line: 3, text: "3" },
      ],
    });
    for (const element of (outcome as { elements: ReadElement[] }).elements) {
      expect(document.slice(element.start, element.end)).toBe(element.text);
    }
  });

  it("reads a document that is the array itself with the path []", () => {
    expect(texts(read(' [1, -0.5e+3, "a\\"b", null, true, false, {}] ', [[]]))).toEqual([
      "1",
      "-0.5e+3",
      '"a\\"b"',
      "null",
      "true",
      "false",
      "{}",
    ]);
    expect(texts(read("[]", [[]]))).toEqual([]);
  });

  it("takes the first array in document order that a path leads to, whichever path it is", () => {
    const both = '{"history": {"events": ["h"]}, "events": ["e"]}';
    expect(texts(read(both, TEMPORAL))).toEqual(['"h"']);
    expect(texts(read('{"events": ["e"], "history": {"events": ["h"]}}', TEMPORAL))).toEqual([
      '"e"',
    ]);
    // A path that leads to something else is passed over for one that leads to an array.
    expect(texts(read('{"events": {"n": 1}, "history": {"events": [1]}}', TEMPORAL))).toEqual([
      "1",
    ]);
  });

  it("follows every occurrence of a repeated member, the first array reached winning", () => {
    expect(texts(read('{"events": [1], "events": [2]}', [EVENTS]))).toEqual(["1"]);
    expect(texts(read('{"events": 5, "events": [1]}', [EVENTS]))).toEqual(["1"]);
    expect(texts(read('{"history": {}, "history": {"events": [7]}}', [HISTORY_EVENTS]))).toEqual([
      "7",
    ]);
  });

  it("takes a suffix step's first matching key, every occurrence of it, and no other key", () => {
    const path: Path = [{ suffix: "Attributes" }, { member: "events" }];
    const other = '{"aAttributes": {}, "bAttributes": {"events": [1]}}';
    expect(read(other, [path])).toMatchObject({ refused: expect.stringContaining("found none") });
    const repeated =
      '{"aAttributes": {}, "bAttributes": {"events": [1]}, "aAttributes": {"events": [2]}}';
    expect(texts(read(repeated, [path]))).toEqual(["2"]);
  });

  it("walks objects only: a path does not lead into an array", () => {
    const outcome = read('[{"events": [1]}]', [EVENTS]);
    expect(outcome).toEqual({
      refused: `${FILE}: expected an array of records at events; found none`,
    });
  });

  it("refuses a valid document with no array at any path, naming the paths", () => {
    expect(read('{"events": "none"}', TEMPORAL)).toEqual({
      refused: `${FILE}: expected an array of records at one of: events, history.events, the document itself; found none`,
    });
    expect(read("5", TEMPORAL)).toMatchObject({ refused: expect.stringContaining("found none") });
  });

  it("validates what lies outside the array too, and names the line, column and byte", () => {
    const after = '{"events": [1],\n "other": [1,]}';
    expect(read(after, TEMPORAL)).toEqual({
      refused: `${FILE}:2:14: expected a value, found ']' at byte 29`,
      line: 2,
      column: 14,
    });
    expect(read("[1] x", [[]])).toMatchObject({
      refused: `${FILE}:1:5: expected the end of the text, found 'x' at byte 4`,
    });
  });

  it("refuses a BOM, as JSON.parse does", () => {
    expect(read("\ufeff[1]", [[]])).toMatchObject({
      refused: `${FILE}:1:1: expected a value, found U+FEFF at byte 0`,
    });
  });

  it("refuses bytes that are not UTF-8, even inside a string outside the array", () => {
    const surrogate = new Uint8Array([
      ...encode('{"x": "'),
      0xed,
      0xa0,
      0x80,
      ...encode('", "events": []}'),
    ]);
    expect(read(surrogate, [EVENTS])).toMatchObject({
      refused: `${FILE}:1:8: expected a UTF-8 continuation byte, found byte 0xA0 at byte 8`,
    });
    expect(read(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), [[]])).toMatchObject({
      refused: `${FILE}:1:3: expected UTF-8, found byte 0xFF at byte 2`,
    });
  });

  it("counts columns in code points and names a character out of place, however chunks fall", () => {
    const document = '{"é😀": [1 é]}';
    const whole = read(document, [[{ member: "é😀" }]]);
    expect(whole).toMatchObject({
      refused: `${FILE}:1:11: expected ',' or ']', found 'é' at byte 14`,
    });
    for (let size = 1; size < 8; size += 1) {
      expect(read(document, [[{ member: "é😀" }]], [size])).toEqual(whole);
    }
  });

  it("refuses a document that ends early, saying what it still needed", () => {
    expect(read('{"events": [1', [EVENTS])).toMatchObject({
      refused: `${FILE}:1:14: expected ',' or ']', found the end of the text at byte 13`,
    });
    expect(read("", [[]])).toMatchObject({
      refused: `${FILE}:1:1: expected a value, found the end of the text at byte 0`,
    });
    expect(read('["ab', [[]])).toMatchObject({
      refused: expect.stringContaining("to close the string"),
    });
  });

  it("reads chunks from a buffer the caller reuses, a view valid until the next push", () => {
    const document = encode('{"events": [{"a": 1}, 22, "three"]}');
    const buffer = new Uint8Array(4);
    const source = new JsonArraySource([EVENTS], FILE);
    const seen: string[] = [];
    for (let at = 0; at < document.length; at += buffer.length) {
      const chunk = buffer.subarray(0, Math.min(buffer.length, document.length - at));
      chunk.set(document.subarray(at, at + chunk.length));
      for (const element of source.push(chunk)) seen.push(utf8.decode(element.bytes));
      buffer.fill(0x78);
    }
    source.end();
    expect(seen).toEqual(['{"a": 1}', "22", '"three"']);
  });

  it("reads 100 000 levels of nesting without recursion", () => {
    const depth = 100_000;
    const deep = `{"events": [${"[".repeat(depth)}${"]".repeat(depth)}]}`;
    const outcome = read(deep, [EVENTS]);
    expect("elements" in outcome && outcome.elements.map((element) => element.end)).toEqual([
      12 + 2 * depth,
    ]);
  });
});

describe("jsonArrayElements", () => {
  it("yields the elements of a stream of chunks, then checks its end", async () => {
    const chunks = ['{"events": [1, ', "2]", "}"].map(encode);
    const seen: string[] = [];
    for await (const element of jsonArrayElements(chunks, [EVENTS], FILE)) {
      seen.push(utf8.decode(element.bytes));
    }
    expect(seen).toEqual(["1", "2"]);
    const torn = jsonArrayElements(['{"events": [1, 2]'].map(encode), [EVENTS], FILE);
    await expect(async () => {
      for await (const _ of torn);
    }).rejects.toThrow(`${FILE}:1:18: expected ',' or '}', found the end of the text at byte 17`);
  });
});

describe("formatPath", () => {
  it("writes a path as the model file does", () => {
    expect(formatPath([])).toBe("the document itself");
    expect(formatPath([{ suffix: "EventAttributes" }, { member: "scheduledEventId" }])).toBe(
      "*EventAttributes.scheduledEventId",
    );
  });
});

describe("JsonArraySource against JSON.parse, on generated documents", () => {
  /** A document, the path to its records, and where the records sit in it. */
  const documents = fc
    .record({
      records: fc.array(fc.jsonValue(), { maxLength: 6 }),
      before: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
      after: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
      shape: fc.constantFrom("events", "history.events", "bare"),
      indent: fc.constantFrom(0, 1, 2, "\t"),
    })
    .map(({ records, before, after, shape, indent }) => {
      const { events: _e, history: _h, ...outside } = before;
      const { events: _e2, history: _h2, ...trailing } = after;
      const value =
        shape === "bare"
          ? records
          : shape === "events"
            ? { ...outside, events: records, ...trailing }
            : { ...outside, history: { ...trailing, events: records } };
      return JSON.stringify(value, null, indent);
    });
  const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 });

  it("elements re-parse to the values JSON.parse finds at the path, however the chunks fall", () => {
    fc.assert(
      fc.property(documents, sizes, (document, chunkSizes) => {
        const parsed = JSON.parse(document) as { events?: unknown; history?: { events: unknown } };
        const expected = Array.isArray(parsed) ? parsed : (parsed.events ?? parsed.history?.events);
        const whole = read(document, TEMPORAL);
        if (!("elements" in whole)) throw new Error(`refused: ${whole.refused}`);
        expect(whole.elements.map((element) => JSON.parse(element.text))).toEqual(expected);
        const bytes = encode(document);
        for (const element of whole.elements) {
          expect(utf8.decode(bytes.subarray(element.start, element.end))).toBe(element.text);
          expect(element.line).toBe(document.slice(0, element.start).split("\n").length);
        }
        expect(read(document, TEMPORAL, chunkSizes)).toEqual(whole);
      }),
    );
  });

  it("refuses a mangled document exactly when JSON.parse over strict UTF-8 does, at the same place in any chunks", () => {
    const mangled = fc
      .tuple(documents, fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 2 }), sizes)
      .map(([document, at, inserted, chunkSizes]) => {
        const bytes = encode(document);
        const place = at % (bytes.length + 1);
        const result = new Uint8Array(bytes.length + inserted.length);
        result.set(bytes.subarray(0, place));
        result.set(inserted, place);
        result.set(bytes.subarray(place), place + inserted.length);
        return { bytes: result, chunkSizes };
      });
    fc.assert(
      fc.property(mangled, ({ bytes, chunkSizes }) => {
        const whole = read(bytes, TEMPORAL);
        expect(isSyntaxRefusal(whole)).toBe(!acceptedByJsonParse(bytes));
        expect(read(bytes, TEMPORAL, chunkSizes)).toEqual(whole);
      }),
    );
  });
});

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** `JSON.parse`'s verdict over strict UTF-8 (a BOM kept, as a character). */
function acceptedByJsonParse(bytes: Uint8Array): boolean {
  try {
    JSON.parse(strictUtf8.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** A refusal that names where the document breaks (not one that found no array). */
function isSyntaxRefusal(outcome: Read): boolean {
  return "refused" in outcome && outcome.line !== undefined;
}

/**
 * JSONTestSuite (vendored in test/data/json-test-suite): every file placed in a document four
 * ways. The oracle is `JSON.parse` over strict UTF-8 of the whole document as placed, so the
 * verdict compared is the document's, not the file's (a file placed inside an object meets a
 * different grammar context than at the top). For each document: the reader refuses it for a
 * break exactly when the oracle rejects it; when the oracle accepts it, the reader gives the
 * elements of the array at the path, each re-parsing to the oracle's element, or refuses it for
 * having no array there exactly when the oracle's value at the path is not an array; a break is
 * reported at a byte before which the reader finds none (the prefix up to it reads without
 * error); and the outcome is the same in chunks of one byte and of 7, 1, 4093 bytes.
 */
describe("JsonArraySource against JSON.parse, on every JSONTestSuite file", () => {
  const files = readdirSync(JSON_TEST_SUITE)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(JSON_TEST_SUITE, name))) }));

  interface Placement {
    readonly paths: readonly Path[];
    readonly place: (bytes: Uint8Array) => Uint8Array;
    /** The oracle's value at the path, from the document's parsed value. */
    readonly records: (parsed: unknown) => unknown;
  }
  const around = (before: string, after: string) => (bytes: Uint8Array) =>
    concatBytes(encode(before), bytes, encode(after));
  const PLACEMENTS: Record<string, Placement> = {
    "as the document itself, path []": {
      paths: [[]],
      place: (bytes) => bytes,
      records: (parsed) => parsed,
    },
    "as a member's value, its path": {
      paths: [[{ member: "a" }]],
      place: around('{"a": ', "}"),
      records: (parsed) => (parsed as { a: unknown }).a,
    },
    "as an element of the records": {
      paths: [EVENTS],
      place: around('{"events": [0, ', ", 0]}"),
      records: (parsed) => (parsed as { events: unknown }).events,
    },
    "outside the records, before them": {
      paths: [EVENTS],
      place: around('{"x": ', ', "events": [0]}'),
      records: (parsed) => (parsed as { events: unknown }).events,
    },
  };

  it("has the suite's files, the deeply nested ones included", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.map((file) => file.name)).toContain("n_structure_100000_opening_arrays.json");
  });

  for (const [placement, { paths, place, records }] of Object.entries(PLACEMENTS)) {
    it(`agrees with JSON.parse on every file ${placement}, whole and in chunks`, () => {
      const disagreements: string[] = [];
      const tally = { elements: 0, broken: 0, noArray: 0 };
      for (const file of files) {
        const document = place(file.bytes);
        const problem = disagreement(document, paths, records, tally);
        if (problem !== null) disagreements.push(`${file.name}: ${problem}`);
      }
      expect(disagreements).toEqual([]);
      // Not vacuous: documents of every outcome were met.
      expect(tally.elements).toBeGreaterThan(20);
      expect(tally.broken).toBeGreaterThan(100);
      if (placement.startsWith("as the document") || placement.startsWith("as a member")) {
        expect(tally.noArray).toBeGreaterThan(20);
      }
    });
  }

  it("accepts every y_ file and refuses every n_ file as the document itself (the oracle is the suite's)", () => {
    for (const file of files) {
      const outcome = read(file.bytes, [[]]);
      if (file.name.startsWith("y_")) expect(isSyntaxRefusal(outcome), file.name).toBe(false);
      if (file.name.startsWith("n_")) expect(isSyntaxRefusal(outcome), file.name).toBe(true);
    }
  });
});

/** How the reader's outcome on `document` differs from the oracle's, or null when it does not. */
function disagreement(
  document: Uint8Array,
  paths: readonly Path[],
  records: (parsed: unknown) => unknown,
  tally: { elements: number; broken: number; noArray: number },
): string | null {
  const whole = read(document, paths);
  for (const sizes of [[1], [7, 1, 4093]]) {
    if (JSON.stringify(read(document, paths, sizes)) !== JSON.stringify(whole)) {
      return `differs in chunks of ${sizes}`;
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(strictUtf8.decode(document));
  } catch {
    tally.broken += 1;
    if (!isSyntaxRefusal(whole))
      return `JSON.parse rejects it, the reader gives ${JSON.stringify(whole)}`;
    return breaksBefore(document, paths, whole as { refused: string });
  }
  const expected = records(parsed);
  if (!Array.isArray(expected)) {
    tally.noArray += 1;
    return "refused" in whole && whole.line === undefined
      ? null
      : `no array at the path, the reader gives ${JSON.stringify(whole)}`;
  }
  tally.elements += 1;
  if (!("elements" in whole)) return `JSON.parse accepts it, the reader refuses: ${whole.refused}`;
  const values = whole.elements.map((element) => JSON.parse(element.text) as unknown);
  return isDeepStrictEqual(values, expected) ? null : `elements ${JSON.stringify(values)}`;
}

/** Null when the prefix before the byte a refusal names reads without a break. */
function breaksBefore(document: Uint8Array, paths: readonly Path[], refusal: { refused: string }) {
  const offset = Number(/at byte (\d+)$/.exec(refusal.refused)?.[1]);
  if (!(offset <= document.length)) return `no byte offset in ${refusal.refused}`;
  try {
    new JsonArraySource(paths, FILE).push(document.subarray(0, offset));
    return null;
  } catch (error) {
    return `breaks before the byte it names (${refusal.refused}): ${(error as Error).message}`;
  }
}
