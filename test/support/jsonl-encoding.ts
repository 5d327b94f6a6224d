/**
 * JSONL journals as bytes, written the many ways a runtime (or a hostile file) may write them,
 * for holding byte-level journal scanners to the reference reader (src/journal/jsonl.ts).
 *
 * `jsonlJournalArbitrary` takes a DAG and a raw log from the shared arbitraries and writes one
 * line per entry: objects with random whitespace (space, tab, CR) between tokens, random key
 * order, extra fields of any nesting (`ts`, `seq`, nested objects and arrays holding `kind` and
 * `id` keys of their own, numbers in every JSON form), string escapes (`\uXXXX` for ordinary
 * characters in keys and values, surrogate-pair escapes, `\/`, `\n`, ...), earlier duplicate keys
 * that the real one overrides as in `JSON.parse`, CRLF line ends, blank and whitespace-only lines,
 * an optional header line, an optional byte-order mark, and an unterminated final line that parses
 * or a torn tail that does not. `UnparseableLine` entries become lines that are not JSON (invalid
 * syntax) or not UTF-8 (overlong forms, encoded surrogates, truncated sequences, bytes F5–FF).
 *
 * The encoding is faithful: the reference reader gives back the raw log's entries, each with its
 * own fields and values (plus the extra fields), the header's DAG and the torn tail (checked by
 * test/differential/audit-bytes.test.ts), so the bytes mean what the log means and every variation
 * is one a scanner must see through.
 *
 * Every variation has an intensity in percent that shrinks to 0 (plain, compact JSON), and the
 * choices come from a seeded generator, so a failing case shrinks to the few variations it needs.
 */
import fc from "fast-check";
import { type Dag, EVENT_KINDS } from "../../src/models/dag/index.js";
import { UnparseableLine } from "../../src/models/journal-source.js";
import { type DagShape, dagArbitrary, type RawLogShape, rawLogArbitrary } from "./arbitraries.js";
import { concatBytes } from "./bytes.js";

// ---------------------------------------------------------------------------------------------
// Choices

/** mulberry32: a small seeded generator, so one fast-check integer drives all formatting choices. */
export class Choices {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** 0 .. count - 1. */
  below(count: number): number {
    return this.next() % count;
  }

  chance(percent: number): boolean {
    return percent > 0 && this.below(100) < percent;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j] as T, items[i] as T];
    }
    return items;
  }
}

/** How often each variation is applied, in percent; all 0 writes compact JSON. */
export interface EncodingStyle {
  readonly seed: number;
  /** Whitespace at each gap between tokens, and around the line. */
  readonly whitespace: number;
  /** A `\uXXXX` (or `\/`) escape for each ordinary character of a key or string. */
  readonly escapes: number;
  /** Each extra field of an event or the header. */
  readonly extras: number;
  /** An earlier duplicate of each key, which the real one overrides. */
  readonly decoys: number;
  /** Shuffled key order, per object. */
  readonly shuffle: number;
  /** Another spelling of each number (`1.0`, `1e0`, `1.5e+21`). */
  readonly numberForms: number;
  /** Blank or whitespace-only lines before each line. */
  readonly blankLines: number;
  /** CRLF instead of LF, per line. */
  readonly crlf: number;
}

const percent = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 }));

export const encodingStyleArbitrary: fc.Arbitrary<EncodingStyle> = fc.record({
  seed: fc.integer(),
  whitespace: percent,
  escapes: percent,
  extras: percent,
  decoys: percent,
  shuffle: percent,
  numberForms: percent,
  blankLines: percent,
  crlf: percent,
});

/** Compact JSON, LF line ends, no variation. */
export const PLAIN_STYLE: EncodingStyle = {
  seed: 0,
  whitespace: 0,
  escapes: 0,
  extras: 0,
  decoys: 0,
  shuffle: 0,
  numberForms: 0,
  blankLines: 0,
  crlf: 0,
};

// ---------------------------------------------------------------------------------------------
// JSON text

/** JSON text written verbatim where a value goes. */
export class RawJson {
  constructor(readonly text: string) {}
}

export class JsonWriter {
  readonly choices: Choices;

  constructor(readonly style: EncodingStyle) {
    this.choices = new Choices(style.seed);
  }

  /** Whitespace that JSON allows between tokens, except LF (it ends the line). */
  gap(): string {
    if (!this.choices.chance(this.style.whitespace)) return "";
    let text = "";
    for (let i = this.choices.below(3); i >= 0; i--)
      text += this.choices.pick([" ", " ", "\t", "\r"]);
    return text;
  }

  string(text: string): string {
    const c = this.choices;
    let out = '"';
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      const next = text.charCodeAt(i + 1);
      if (isHighSurrogate(unit) && isLowSurrogate(next)) {
        out += c.chance(this.style.escapes)
          ? this.unicodeEscape(unit) + this.unicodeEscape(next)
          : text.slice(i, i + 2);
        i++;
      } else if (isHighSurrogate(unit) || isLowSurrogate(unit)) {
        out += this.unicodeEscape(unit); // a lone surrogate has no UTF-8 form: only an escape spells it
      } else if (unit === 0x22 || unit === 0x5c || unit < 0x20) {
        const short = SHORT_ESCAPES.get(unit);
        out += short !== undefined && c.chance(70) ? short : this.unicodeEscape(unit);
      } else if (c.chance(this.style.escapes)) {
        out += unit === 0x2f && c.chance(50) ? "\\/" : this.unicodeEscape(unit);
      } else {
        out += text[i];
      }
    }
    return `${out}"`;
  }

  private unicodeEscape(unit: number): string {
    const hex = unit.toString(16).padStart(4, "0");
    let spelled = "";
    for (const digit of hex) spelled += this.choices.chance(50) ? digit.toUpperCase() : digit;
    return `\\u${spelled}`;
  }

  number(value: number): string {
    const text = Object.is(value, -0) ? "-0" : JSON.stringify(value);
    if (!this.choices.chance(this.style.numberForms)) return text;
    const plain = /^-?\d+(\.\d+)?$/.test(text);
    const forms = [
      ...(plain ? [`${text}e0`, `${text}E+0`, `${text}e-00`, `${text}E-0`] : []),
      ...(/^-?\d+$/.test(text) ? [`${text}.0`, `${text}.000e+0`] : []),
      value.toExponential(),
      value.toExponential().toUpperCase(),
    ];
    const same = forms.filter((form) => Object.is(JSON.parse(form), value));
    return same.length === 0 ? text : this.choices.pick(same);
  }

  value(value: unknown): string {
    if (value instanceof RawJson) return value.text;
    if (value === null || value === undefined) return "null";
    if (typeof value === "boolean") return String(value);
    if (typeof value === "number") return Number.isFinite(value) ? this.number(value) : "null";
    if (typeof value === "string") return this.string(value);
    if (Array.isArray(value)) {
      // Array.from turns holes into undefined, written as null, as JSON.stringify does.
      const items = Array.from(value, (item) => this.value(item));
      return this.list("[", items, "]");
    }
    const entries = definedEntries(value as Record<string, unknown>);
    return this.object(
      this.choices.chance(this.style.shuffle) ? this.choices.shuffle(entries) : entries,
    );
  }

  /** An object from entries already in order (duplicates allowed: JSON.parse keeps the last). */
  object(entries: readonly (readonly [string, unknown])[]): string {
    const members = entries.map(
      ([key, value]) => `${this.string(key)}${this.gap()}:${this.gap()}${this.value(value)}`,
    );
    return this.list("{", members, "}");
  }

  list(open: string, items: readonly string[], close: string): string {
    if (items.length === 0) return `${open}${this.gap()}${close}`;
    return `${open}${this.gap()}${items.join(`${this.gap()},${this.gap()}`)}${this.gap()}${close}`;
  }

  /** Entries of an object with extra fields, shuffled keys and overridden duplicates mixed in. */
  dressedEntries(
    object: Record<string, unknown>,
    extras: readonly (readonly [string, () => unknown])[],
    decoyOf: (key: string) => unknown,
  ): [string, unknown][] {
    const entries: [string, unknown][] = definedEntries(object);
    for (const [key, make] of extras) {
      if (!Object.hasOwn(object, key) && this.choices.chance(this.style.extras))
        entries.push([key, make()]);
    }
    if (this.choices.chance(this.style.shuffle)) this.choices.shuffle(entries);
    for (const [key] of [...entries]) {
      if (!this.choices.chance(this.style.decoys)) continue;
      const real = entries.findIndex(([k]) => k === key);
      entries.splice(this.choices.below(real + 1), 0, [key, decoyOf(key)]);
    }
    return entries;
  }

  /** Any JSON value, nested up to `depth`, its objects holding keys the audit reads. */
  randomJson(depth: number): unknown {
    const c = this.choices;
    switch (c.below(depth > 0 ? 8 : 5)) {
      case 0:
        return c.pick([null, true, false]);
      case 1:
        return c.pick(AWKWARD_NUMBERS);
      case 2:
        return c.pick(AWKWARD_STRINGS);
      case 3:
        return (c.below(2_000_000_001) - 1_000_000_000) / c.pick([1, 7, 1000, 1e-12]);
      case 4:
        return c.pick(EVENT_KINDS);
      case 5:
      case 6: {
        const object: Record<string, unknown> = {};
        for (let i = c.below(4); i > 0; i--) {
          // defineProperty, so that "__proto__" is an own key (as JSON.parse makes it), not the prototype
          Object.defineProperty(object, c.pick(NESTED_KEYS), {
            value: this.randomJson(depth - 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return object;
      }
      default:
        return Array.from({ length: c.below(4) }, () => this.randomJson(depth - 1));
    }
  }
}

const SHORT_ESCAPES = new Map<number, string>([
  [0x22, '\\"'],
  [0x5c, "\\\\"],
  [0x08, "\\b"],
  [0x0c, "\\f"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
]);

const AWKWARD_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5e10,
  1e21,
  1.5e-7,
  2 ** 53 + 2,
  -1.7976931348623157e308,
  5e-324,
];

const AWKWARD_STRINGS = [
  "",
  "pass",
  "dispatched",
  'say "hi"',
  "back\\slash",
  "new\nline\ttab\r",
  "\u0000\u001f\u007f",
  "é e\u0301 日本語",
  "😀 🎉",
  "\ud800",
  "\udfff\ud800",
  "\uFEFF",
  "a/b</script>",
  '{"kind":"dispatched","id":"A"}',
];

const NESTED_KEYS = ["kind", "id", "result", "surface", "ts", "", "__proto__", "k\u0000", "😀"];

/** Fields a runtime adds that the model ignores; names outside kind/id/result/surface. */
function extraFields(writer: JsonWriter): (readonly [string, () => unknown])[] {
  const c = writer.choices;
  return [
    ["ts", () => c.pick([c.below(2 ** 31) * 1000 + 0.25, "2024-05-01T12:00:00.000Z", -0.5e10])],
    ["seq", () => c.below(1_000_000)],
    ["meta", () => writer.randomJson(3)],
    [
      "payload",
      () => ({
        kind: c.pick(EVENT_KINDS),
        id: c.pick(AWKWARD_STRINGS),
        nested: writer.randomJson(2),
      }),
    ],
    ["trace", () => [writer.randomJson(2), { id: "A", kind: "landed" }, [["surface"]]]],
    ["note", () => c.pick(AWKWARD_STRINGS)],
    ["", () => writer.randomJson(1)],
    ["Kind", () => "dispatched"],
    ["ids", () => ["A", "B"]],
    ["results", () => ({ result: "pass" })],
  ];
}

/** A value for an earlier duplicate of `key`: strings of the right sort and values of other types. */
function decoyValue(writer: JsonWriter, key: string, ids: readonly string[]): unknown {
  const c = writer.choices;
  const strings: Record<string, readonly unknown[]> = {
    kind: EVENT_KINDS,
    id: ids.length > 0 ? ids : ["A"],
    result: ["pass", "fail", "timeout"],
    surface: [["src/a.ts"], []],
  };
  const likely = strings[key];
  if (likely !== undefined && c.chance(50)) return c.pick(likely);
  return c.pick([
    null,
    0,
    -1.5e-3,
    true,
    false,
    {},
    [],
    ["x"],
    { kind: "dispatched" },
    "decoy",
    writer.randomJson(2),
  ]);
}

function definedEntries(object: Record<string, unknown>): [string, unknown][] {
  return Object.entries(object).filter(([, value]) => value !== undefined);
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit < 0xdc00;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

// ---------------------------------------------------------------------------------------------
// Lines

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** How the reference reader classifies one line's bytes (line end excluded). */
export type LineClass = "blank" | "invalid-utf8" | "invalid-json" | "json";

export function classifyLine(bytes: Uint8Array): LineClass {
  if (bytes.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)) return "blank";
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return "invalid-utf8";
  }
  try {
    JSON.parse(text);
    return "json";
  } catch {
    return "invalid-json";
  }
}

/** Byte sequences no strict UTF-8 decoder accepts. */
export const INVALID_UTF8_SEQUENCES: readonly (readonly number[])[] = [
  [0x80], // a lone continuation byte
  [0xbf],
  [0xc0, 0xaf], // overlong "/"
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf], // overlong, 3 bytes
  [0xe0, 0x9f, 0xbf],
  [0xf0, 0x80, 0x80, 0xaf], // overlong, 4 bytes
  [0xed, 0xa0, 0x80], // U+D800 encoded
  [0xed, 0xbf, 0xbf], // U+DFFF encoded
  [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], // a surrogate pair encoded one by one (CESU-8)
  [0xe2, 0x82], // truncated "€"
  [0xf0, 0x9f, 0x98], // truncated "😀"
  [0xc3], // truncated "é"
  [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
  [0xf5, 0x80, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
];

/** Texts JSON.parse rejects (each checked where it is used). */
const INVALID_JSON_TEXTS = [
  '{"kind":',
  '{kind:"dispatched"}',
  "{'kind':'dispatched'}",
  '{"kind":"dispatched",}',
  '{"kind":"dispatched" "id":"A"}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":1e}',
  '{"a":-}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\\uD83D\\uDE0"}',
  '{"a":[1,2}',
  '{"a" 1}',
  '{"a":1}}',
  '{"a":1} {"b":2}',
  "[1,]",
  "NaN",
  "undefined",
  "tru",
  "nul",
  '"abc',
  "}",
  "\f{}",
  '{"a":"tab\there"}',
  '{"a":"\u0001"}',
  "\u00a0{}",
  "\uFEFF{}",
  "{\u2028}",
];

/** Inserts `inserted` at `at`. */
function spliceBytes(bytes: Uint8Array, at: number, inserted: readonly number[]): Uint8Array {
  return Uint8Array.from([...bytes.subarray(0, at), ...inserted, ...bytes.subarray(at)]);
}

function invalidJsonLine(writer: JsonWriter, valid: Uint8Array): Uint8Array {
  const c = writer.choices;
  const candidates: Uint8Array[] = [
    valid.subarray(0, 1 + c.below(Math.max(1, valid.length - 1))),
    Uint8Array.from([...valid, ...utf8.encode(c.pick([" x", "}", ",", "]", " {}", "\u0000"]))]),
    Uint8Array.from([0xef, 0xbb, 0xbf, ...valid]), // a byte-order mark is not JSON whitespace
    spliceBytes(valid, valid.indexOf(0x22) + 1, [c.pick([0x01, 0x09, 0x1f])]), // a raw control character in a string
    utf8.encode(c.pick(INVALID_JSON_TEXTS)),
  ];
  const line = c.pick(candidates);
  return classifyLine(line) === "invalid-json" ? line : utf8.encode('{"kind":');
}

function invalidUtf8Line(writer: JsonWriter, valid: Uint8Array): Uint8Array {
  const c = writer.choices;
  const quote = valid.indexOf(0x22);
  const at = c.chance(60) && quote >= 0 ? quote + 1 : c.below(valid.length + 1);
  const line = spliceBytes(valid, at, c.pick(INVALID_UTF8_SEQUENCES));
  return classifyLine(line) === "invalid-utf8" ? line : Uint8Array.from([...valid, 0xff]);
}

/** A final line cut short by a crash: not blank, and not a line that parses. */
function tornTail(writer: JsonWriter, valid: Uint8Array): Uint8Array {
  const c = writer.choices;
  const candidates: Uint8Array[] = [
    valid.subarray(0, 1 + c.below(Math.max(1, valid.length - 1))),
    Uint8Array.from([...valid.subarray(0, Math.max(1, valid.lastIndexOf(0x22))), 0xe2, 0x82]), // mid-character
    Uint8Array.from([...utf8.encode(`${writer.gap()}{"kind":"dispa`)]),
    invalidUtf8Line(writer, valid),
    invalidJsonLine(writer, valid),
  ];
  const line = c.pick(candidates);
  const cls = classifyLine(line);
  return cls === "invalid-json" || cls === "invalid-utf8" ? line : utf8.encode('{"kind":"dispa');
}

// ---------------------------------------------------------------------------------------------
// Journals

export type Tail = "terminated" | "unterminated" | "torn";

export interface JsonlJournalOptions {
  readonly header: boolean;
  /** A byte-order mark before the first byte (the first line is then not JSON). */
  readonly bom: boolean;
  /**
   * terminated: every line ends with a line end; unterminated: the last line has none when it
   * parses (one that does not would be a torn tail); torn: a final line cut short follows.
   */
  readonly tail: Tail;
}

export const journalOptionsArbitrary: fc.Arbitrary<JsonlJournalOptions> = fc.record({
  header: fc.boolean(),
  bom: fc.oneof(
    { weight: 9, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  tail: fc.constantFrom<Tail>("terminated", "unterminated", "torn"),
});

/** One raw-log entry as a line. */
export function encodeEntry(writer: JsonWriter, entry: unknown, dag: Dag): Uint8Array {
  const ids = dag.nodes.map((node) => node.id);
  if (entry instanceof UnparseableLine) {
    const valid = utf8.encode(
      writer.value({
        kind: writer.choices.pick(EVENT_KINDS),
        id: writer.choices.pick(ids.length > 0 ? ids : ["A"]),
      }),
    );
    return entry.problem === "invalid-json"
      ? invalidJsonLine(writer, valid)
      : invalidUtf8Line(writer, valid);
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    return utf8.encode(`${writer.gap()}${writer.value(entry)}${writer.gap()}`);
  }
  const entries = writer.dressedEntries(
    entry as Record<string, unknown>,
    extraFields(writer),
    (key) => decoyValue(writer, key, ids),
  );
  return utf8.encode(`${writer.gap()}${writer.object(entries)}${writer.gap()}`);
}

export function encodeHeader(writer: JsonWriter, dag: Dag): Uint8Array {
  const randomDecoy = () => writer.randomJson(1);
  const nodes = dag.nodes.map((node) => {
    const entries = writer.dressedEntries(
      { id: node.id, deps: [...node.deps] },
      [["label", () => writer.randomJson(1)]],
      randomDecoy,
    );
    return new RawJson(writer.object(entries));
  });
  const dagEntries = writer.dressedEntries({ nodes }, [["name", () => "work"]], randomDecoy);
  const header = { statefold: "journal", version: 1, dag: new RawJson(writer.object(dagEntries)) };
  const headerExtras: [string, () => unknown][] = [
    ["created", () => "2024-05-01T00:00:00Z"],
    ["writer", () => ({ name: "runtime", version: [1, 2], statefold: "not the header key" })],
  ];
  const entries = writer.dressedEntries(header, headerExtras, (key) =>
    key === "statefold" ? writer.choices.pick([null, 1, "other", {}]) : writer.randomJson(1),
  );
  return utf8.encode(`${writer.gap()}${writer.object(entries)}${writer.gap()}`);
}

/** Collects byte runs and joins them once (a spread of a multi-megabyte line overflows the stack). */
export class ByteSink {
  private readonly runs: Uint8Array[] = [];

  push(bytes: Uint8Array | readonly number[]): void {
    this.runs.push(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
  }

  bytes(): Uint8Array {
    return concatBytes(...this.runs);
  }
}

/** Writes a journal: header, lines, blank lines, line ends, BOM and tail as the options say. */
export function encodeJournal(
  dag: Dag,
  events: readonly unknown[],
  style: EncodingStyle,
  options: JsonlJournalOptions,
): Uint8Array {
  const writer = new JsonWriter(style);
  const c = writer.choices;
  const lines: Uint8Array[] = [];
  if (options.header) lines.push(encodeHeader(writer, dag));
  for (const entry of events) lines.push(encodeEntry(writer, entry, dag));
  const sink = new ByteSink();
  if (options.bom) sink.push(BOM);
  const lineEnd = () => (c.chance(style.crlf) ? CRLF : LF);
  const blankLines = () => {
    if (!c.chance(style.blankLines)) return;
    for (let i = c.below(3); i >= 0; i--) {
      sink.push(utf8.encode(c.pick(BLANK_LINES)));
      sink.push(lineEnd());
    }
  };
  for (const [i, line] of lines.entries()) {
    // No blank line before the header: only line 1 can be one.
    if (!(options.header && i === 0)) blankLines();
    sink.push(line);
    // Only a line that parses is left unterminated; one that does not would be a torn tail.
    const last = i === lines.length - 1;
    const unterminated = last && options.tail === "unterminated" && classifyLine(line) === "json";
    if (!unterminated) sink.push(lineEnd());
  }
  if (options.tail === "torn") {
    blankLines();
    sink.push(
      tornTail(writer, utf8.encode(writer.value({ kind: "landed", id: dag.nodes[0]?.id ?? "A" }))),
    );
  } else if (options.tail === "terminated") {
    blankLines();
    // An unterminated final line that is blank: no event and no torn tail.
    if (c.chance(style.blankLines)) sink.push(utf8.encode(c.pick(BLANK_LINES.slice(1))));
  }
  return sink.bytes();
}

export const BOM: readonly number[] = [0xef, 0xbb, 0xbf];
const LF: readonly number[] = [0x0a];
const CRLF: readonly number[] = [0x0d, 0x0a];
const BLANK_LINES = ["", " ", "\t", "\r", " \t \r", "   "];

/** One journal to audit: its bytes and the DAG given beside them (null: take the header's). */
export interface JsonlJournalCase {
  readonly dag: Dag;
  readonly given: Dag | null;
  readonly events: readonly unknown[];
  readonly style: EncodingStyle;
  readonly options: JsonlJournalOptions;
  readonly bytes: Uint8Array;
}

export interface JsonlJournalShape {
  readonly dag?: DagShape;
  readonly log?: RawLogShape;
  /** The DAGs to draw from instead of `dagArbitrary(dag)`. */
  readonly dagArbitrary?: fc.Arbitrary<Dag>;
  /** The logs to draw over a DAG instead of `rawLogArbitrary`. */
  readonly logArbitrary?: (dag: Dag) => fc.Arbitrary<unknown[]>;
}

export function journalCaseOf(
  dag: Dag,
  events: readonly unknown[],
  style: EncodingStyle,
  options: JsonlJournalOptions,
  giveDag: boolean,
): JsonlJournalCase {
  const bytes = encodeJournal(dag, events, style, options);
  const given = giveDag || !options.header ? dag : null;
  return {
    dag,
    given,
    events,
    style,
    options,
    bytes,
    [fc.toStringMethod]: () =>
      `journal(${JSON.stringify({ options, style, given: given !== null, nodes: dag.nodes })}, ${JSON.stringify(showBytes(bytes))})`,
  } as JsonlJournalCase;
}

/** The bytes as text, with bytes that are not printable ASCII as \xNN. */
export function showBytes(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) {
    text +=
      byte === 0x0a
        ? "\n"
        : byte >= 0x20 && byte < 0x7f
          ? String.fromCharCode(byte)
          : `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return text;
}

/** A DAG, a raw log over it, written as a JSONL journal. */
export function jsonlJournalArbitrary(
  shape: JsonlJournalShape = {},
): fc.Arbitrary<JsonlJournalCase> {
  const dags = shape.dagArbitrary ?? dagArbitrary(shape.dag);
  const logOf = shape.logArbitrary ?? ((dag: Dag) => rawLogArbitrary(dag, shape.log));
  return dags.chain((dag) =>
    fc
      .tuple(logOf(dag), encodingStyleArbitrary, journalOptionsArbitrary, fc.boolean())
      .map(([events, style, options, giveDag]) =>
        journalCaseOf(dag, events, style, options, giveDag),
      ),
  );
}

// ---------------------------------------------------------------------------------------------
// Chunks

/**
 * How chunks are delivered: an array of fresh copies, an async stream of them, or a stream that
 * reuses one buffer (a file reader's) for every chunk — the contract of `JournalBytes` is that a
 * chunk need only stay valid until the next is requested, so an engine must copy what it keeps.
 */
export type ChunkFeed = "iterable" | "async-iterable" | "reused-buffer" | "async-reused-buffer";

export interface Chunking {
  /** Chunk sizes, used in turn until the bytes run out; 0 makes an empty chunk. */
  readonly sizes: readonly number[];
  readonly feed: ChunkFeed;
}

export const chunkingArbitrary: fc.Arbitrary<Chunking> = fc.record({
  sizes: fc
    .array(
      fc.oneof(
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 100 }) },
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 5000 }) },
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((sizes) => (sizes.some((size) => size > 0) ? sizes : [...sizes, 1])),
  feed: fc.constantFrom<ChunkFeed>(
    "iterable",
    "async-iterable",
    "reused-buffer",
    "async-reused-buffer",
  ),
});

/** The bytes cut as `chunking` says, delivered as `chunking.feed` says. */
export function chunked(
  bytes: Uint8Array,
  chunking: Chunking,
): Iterable<Uint8Array> | AsyncIterable<Uint8Array> {
  const ranges: [number, number][] = [];
  for (let at = 0, turn = 0; at < bytes.length; turn++) {
    const size = chunking.sizes[turn % chunking.sizes.length] as number;
    ranges.push([at, Math.min(at + size, bytes.length)]);
    at += size;
  }
  switch (chunking.feed) {
    case "iterable":
      return ranges.map(([start, end]) => bytes.slice(start, end));
    case "async-iterable":
      return (async function* () {
        for (const [start, end] of ranges) {
          await Promise.resolve();
          yield bytes.slice(start, end);
        }
      })();
    case "reused-buffer":
      return reusingBuffer(bytes, ranges);
    case "async-reused-buffer":
      return (async function* () {
        for (const chunk of reusingBuffer(bytes, ranges)) {
          await Promise.resolve();
          yield chunk;
        }
      })();
    default: {
      const unreachable: never = chunking.feed;
      return unreachable;
    }
  }
}

/**
 * Every chunk a view of one buffer, overwritten when the next chunk is requested; when the stream
 * ends the buffer is filled with `{` bytes, so bytes kept without copying turn into other text.
 */
function* reusingBuffer(bytes: Uint8Array, ranges: readonly [number, number][]) {
  let longest = 1;
  for (const [start, end] of ranges) longest = Math.max(longest, end - start);
  const buffer = new Uint8Array(longest);
  for (const [start, end] of ranges) {
    buffer.fill(0x7b);
    buffer.set(bytes.subarray(start, end));
    yield buffer.subarray(0, end - start);
  }
  buffer.fill(0x7b);
}
