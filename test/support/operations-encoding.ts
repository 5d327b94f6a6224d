/**
 * `operations` journals as bytes, and adversarial records, for holding the WebAssembly kernel to
 * the reference (test/differential/operations-*.test.ts).
 *
 * - `encodeOperationsJournal` writes records as JSONL the many ways test/support/jsonl-encoding.ts
 *   knows — escapes in strings and keys, whitespace, key order, earlier duplicate keys that the
 *   real one overrides (the last wins, as in `JSON.parse`), other spellings of numbers, extra
 *   fields at every level, blank lines, CRLF — with an optional header and an unterminated final
 *   line that parses or a torn tail that does not. `UnparseableLine` entries become lines that
 *   are not JSON or not UTF-8; `RawJson` values are written verbatim (`3.0`, `1e3`, `-0`).
 * - `adversarialRecordsArbitrary` gives records a runtime would not write: every field of every
 *   kind given every wrong type or left out, enumerations out of their sets, ids reused across
 *   few-valued pools (with lone surrogates, combining marks and astral characters), hints of
 *   every kind, `notBefore` right and off by one, epochs up and down, and responses for every
 *   classification branch (overflow phrases in ASCII-case variants and with non-ASCII
 *   lookalikes, handles matching the intent's request or not).
 */
import fc from "fast-check";
import { UnparseableLine } from "../../src/models/journal-source.js";
import {
  classify,
  type Policy,
  RESPONSE_CLASSES,
  type Request,
  type Response,
  retryWait,
  STOP_REASONS,
} from "../../src/models/operations/index.js";
import { concatBytes } from "./bytes.js";
import {
  Choices,
  type EncodingStyle,
  INVALID_UTF8_SEQUENCES,
  JsonWriter,
  RawJson,
} from "./jsonl-encoding.js";

export type Tail = "terminated" | "unterminated" | "torn";

export interface OperationsJournalOptions {
  readonly header: boolean;
  readonly tail: Tail;
}

export const operationsJournalOptionsArbitrary: fc.Arbitrary<OperationsJournalOptions> = fc.record({
  header: fc.boolean(),
  tail: fc.constantFrom<Tail>("terminated", "unterminated", "torn"),
});

export const HEADER = { statefold: "journal", version: 1, model: "operations" };

const utf8 = new TextEncoder();

/** Records nest objects two deep (`response.handle`); the extras and decoys below are written plainly. */
const DRESSED_DEPTH_MAX = 2;

/** A value dressed at every level of a record: extra fields, shuffled keys, earlier decoys. */
function dressed(writer: JsonWriter, value: unknown, depth = 0): string {
  if (
    value instanceof RawJson ||
    value === null ||
    typeof value !== "object" ||
    depth > DRESSED_DEPTH_MAX
  ) {
    return writer.value(value);
  }
  if (Array.isArray(value)) return writer.value(value);
  const c = writer.choices;
  const entries = writer.dressedEntries(
    value as Record<string, unknown>,
    [
      ["seq", () => c.below(1000)],
      ["ts", () => "2026-12-01T21:00:00.000Z"],
      ["meta", () => ({ kind: "finished", op: c.pick(["o1", "x"]), at: [1, { effect: "e1" }] })],
    ],
    () => c.pick<unknown>(["decoy", 7, null, { op: "o1" }, [1, 2], true, new RawJson("1e400")]),
  );
  const members = entries.map(
    ([key, item]) =>
      `${writer.string(key)}${writer.gap()}:${writer.gap()}${dressed(writer, item, depth + 1)}`,
  );
  return writer.list("{", members, "}");
}

function unparseableLine(writer: JsonWriter, entry: UnparseableLine): Uint8Array {
  const c = writer.choices;
  if (entry.problem === "invalid-json") {
    return utf8.encode(
      c.pick(['{"kind":"accepted"', "nope", '{"op":1,}', "{'kind':'lease'}", "\u00a0{}"]),
    );
  }
  const bad = c.pick(INVALID_UTF8_SEQUENCES);
  return concatBytes(
    utf8.encode('{"kind":"lease","strand":"'),
    new Uint8Array(bad),
    utf8.encode('","epoch":1}'),
  );
}

/** The journal's bytes: an optional header, one line per record, then the tail. */
export function encodeOperationsJournal(
  records: readonly unknown[],
  style: EncodingStyle,
  options: OperationsJournalOptions,
): Uint8Array {
  const writer = new JsonWriter(style);
  const c = writer.choices;
  const lines: Uint8Array[] = [];
  if (options.header) lines.push(utf8.encode(dressed(writer, HEADER)));
  for (const record of records) {
    lines.push(
      record instanceof UnparseableLine
        ? unparseableLine(writer, record)
        : utf8.encode(`${writer.gap()}${dressed(writer, record)}${writer.gap()}`),
    );
  }
  const parts: Uint8Array[] = [];
  const end = () => utf8.encode(c.chance(style.crlf) ? "\r\n" : "\n");
  for (const [i, line] of lines.entries()) {
    // No blank line before the header: only the first non-blank line can be one.
    if (!(options.header && i === 0) && c.chance(style.blankLines)) {
      parts.push(utf8.encode(c.pick(["", " ", "\t", " \r", "\t \t"])), end());
    }
    parts.push(line);
    const last = i === lines.length - 1;
    if (!last || options.tail !== "unterminated") parts.push(end());
  }
  if (options.tail === "torn")
    parts.push(utf8.encode(c.pick(['{"kind":"settled","op":"o1","eff', "{", '{"kind":"lea'])));
  return concatBytes(...parts);
}

// ---------------------------------------------------------------------------------------------
// Adversarial records

const OPS = ["o1", "o2", "o3", "é", "e\u0301", "\ud800", "o\u{1f600}"];
const STRANDS = ["s1", "s2", "\udc00", "s😀"];
const KEYS = ["k1", "k2", "turn-1/assistant", "\ud83d"];
const EFFECT_POOL = ["e1", "e2", "e-1", "", "\udc00x", "é😀", "e\ud800"];

const POLICIES: readonly unknown[] = [
  undefined,
  { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 30000 },
  { maxAttempts: null, baseDelayMs: 50, maxDelayMs: 400 },
  { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  { maxAttempts: 2, baseDelayMs: 2 ** 53 - 1, maxDelayMs: 2 ** 53 - 1 },
  { maxAttempts: null, baseDelayMs: 7, maxDelayMs: 2 ** 53 - 1 },
  { maxAttempts: 4, baseDelayMs: 2 ** 40, maxDelayMs: 3 },
];

const REQUESTS: readonly Request[] = [
  { provider: "anthropic", model: "claude", api: "messages" },
  { provider: "openai", model: "gpt", api: "responses" },
  { provider: "é", model: "\ud800", api: "" },
];

/** Hints of every kind: counts, negatives, strings, null, fractions, unsafe, containers. */
const HINTS: readonly unknown[] = [
  undefined,
  0,
  250,
  5000,
  2 ** 53 - 1,
  -5,
  "soon",
  "500",
  null,
  1.5,
  2 ** 53,
  true,
  {},
  [100],
  new RawJson("-0"),
  new RawJson("1e3"),
  new RawJson("2.5e2"),
  new RawJson("1e400"),
];

const ERROR_MESSAGES: readonly string[] = [
  "rate limited",
  "context window exceeded",
  "Context Window EXCEEDED for this model",
  "CONTEXT LENGTH EXCEEDED",
  "the maximum context length is 200000",
  "Prompt Is Too Long: 210000 tokens",
  "iNPUT iS tOO lONG",
  "Request exceeds the maximum size",
  "maximum cont\u0435xt length", // a Cyrillic е
  "prompt \u0131s too long", // a dotless ı
  "input i\u017f too long", // a long ſ
  "request exceeds the maximum \u212aize", // a Kelvin sign (never an s, but a K lookalike)
  "conte\u0078t window exceede", // cut short
  "context\u00a0window exceeded", // a no-break space
  "xxcontext length exceededxx",
  "",
];

/** Values of every JSON type, to put where a field of another type belongs. */
const WRONG_VALUES: readonly unknown[] = [
  "x",
  "",
  "1",
  1.5,
  -1,
  0,
  1,
  null,
  true,
  false,
  {},
  [],
  ["e1"],
  { a: 1 },
  2 ** 53,
  -(2 ** 53),
  new RawJson("1e400"),
  new RawJson("9007199254740993"),
  new RawJson("9007199254740992"),
  new RawJson("-0"),
  new RawJson("3.0"),
  new RawJson("1.0000000000000001"),
  new RawJson("0.5"),
  "ok",
  "OK",
  "Committed",
  "aborted",
  "length",
  "finished",
];

/** Text spellings of integers JSON.parse reads exactly (and one that rounds onto an integer). */
function integerSpelling(c: Choices, value: number): unknown {
  if (!Number.isSafeInteger(value) || !c.chance(20)) return value;
  const text = String(value);
  const forms = [`${text}.0`, `${text}e0`, `${text}.000E+0`, `${text}0e-1`];
  if (value === 0) forms.push("-0", "0e5", "0.0e-3", "-0.0");
  if (value % 1000 === 0 && value !== 0) forms.push(`${value / 1000}e3`, `${value / 1000}E+3`);
  if (Math.abs(value) < 2 ** 40 && value !== 0) forms.push(`${text}.00000000000000000001`);
  return new RawJson(c.pick(forms));
}

interface Book {
  /** Ops accepted so far (some finished since), and each one's strand. */
  readonly accepted: Map<string, string>;
  /** The epoch of each leased strand, as the journal raised it. */
  readonly epochs: Map<string, number>;
  /** The last attempt recorded for each op's step. */
  readonly attempts: Map<string, number>;
  readonly policies: Map<string, Policy>;
  readonly cancelled: Set<string>;
  readonly effects: Map<
    string,
    { op: string; attempt: number; request: Request | null; outputLimit: number }
  >;
  clock: number;
  freshEffects: number;
}

const NO_RETRY: Policy = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

function responseOf(c: Choices, request: Request | null): Record<string, unknown> {
  const stop = c.pick(STOP_REASONS);
  const response: Record<string, unknown> = { stop };
  if (c.chance(stop === "error" ? 90 : 20)) response.errorMessage = c.pick(ERROR_MESSAGES);
  if (c.chance(60)) response.outputTokens = c.pick([0, 40, 99, 100, 150]);
  if (c.chance(40)) response.toolCalls = c.pick([0, 1, 2]);
  if (c.chance(stop === "deferred" ? 80 : 15)) {
    const base = request ?? c.pick(REQUESTS);
    const handle: Record<string, unknown> = { id: c.pick(["h-1", "", "\ud800"]), ...base };
    if (c.chance(30)) handle[c.pick(["provider", "model", "api"])] = c.pick(["other", "é", ""]);
    response.handle = handle;
  }
  return response;
}

/** One well-typed record of a random kind, drawn against the book of what came before. */
function wellTypedRecord(c: Choices, book: Book): Record<string, unknown> {
  book.clock += c.pick([0, 1, 10, 500, 1000, 3000, -50]);
  const at = () => integerSpelling(c, book.clock);
  const accepted = [...book.accepted.keys()];
  const op = accepted.length > 0 && c.chance(85) ? c.pick(accepted) : c.pick(OPS);
  // The writer's epoch: mostly its strand's, sometimes one off either way or none.
  const epochOn = (strand: string | undefined) => {
    const current = strand === undefined ? undefined : book.epochs.get(strand);
    if (current === undefined) return c.chance(80) ? undefined : integerSpelling(c, c.below(6) - 1);
    const drawn = c.pick([current, current, current, current, current + 1, current - 1, undefined]);
    return drawn === undefined ? undefined : integerSpelling(c, drawn);
  };
  const epoch = () => epochOn(book.accepted.get(op));
  const kind = c.pick([
    "accepted",
    "accepted",
    "intent",
    "intent",
    "intent",
    "intent",
    "settled",
    "settled",
    "settled",
    "settled",
    "readback",
    "readback",
    "cancel-requested",
    "finished",
    "lease",
  ]);
  switch (kind) {
    case "accepted": {
      const fresh = OPS.filter((id) => !book.accepted.has(id));
      const id = fresh.length > 0 && c.chance(80) ? c.pick(fresh) : c.pick(OPS);
      const policy = c.pick(POLICIES);
      const strand = c.pick(STRANDS);
      if (!book.accepted.has(id)) book.accepted.set(id, strand);
      if (!book.policies.has(id)) book.policies.set(id, (policy as Policy | undefined) ?? NO_RETRY);
      return { kind, op: id, strand, policy, epoch: epochOn(strand) };
    }
    case "intent": {
      const effect = c.chance(70)
        ? `f${book.freshEffects++}${c.pick(["", "é", "😀", "\ud800"])}`
        : c.pick(EFFECT_POOL);
      const key = c.pick(KEYS);
      const last = book.attempts.get(`${op}\u0000${key}`);
      const attempt =
        last !== undefined && c.chance(60) ? last + 1 : c.pick([1, 1, 1, 2, 3, 0, -1, 2 ** 53 - 1]);
      book.attempts.set(`${op}\u0000${key}`, attempt);
      const request = c.chance(50) ? c.pick(REQUESTS) : undefined;
      const outputLimit = c.chance(50) ? undefined : c.pick([0, 100, 2 ** 53 - 1]);
      if (!book.effects.has(effect)) {
        book.effects.set(effect, {
          op,
          attempt,
          request: request ?? null,
          outputLimit: outputLimit ?? 0,
        });
      }
      return {
        kind,
        op,
        key: c.pick(KEYS),
        effect,
        attempt: integerSpelling(c, attempt),
        at: at(),
        request,
        outputLimit,
        epoch: epoch(),
      };
    }
    case "settled": {
      const known = [...book.effects.keys()];
      const effect = known.length > 0 && c.chance(85) ? c.pick(known) : c.pick(EFFECT_POOL);
      const booked = book.effects.get(effect);
      const recordOp = booked !== undefined && c.chance(90) ? booked.op : op;
      const outcome = c.pick(["ok", "error", "error", "unknown"]);
      const retryable = c.pick([undefined, true, true, false]);
      const hint = c.pick(HINTS);
      let notBefore: unknown;
      if (c.chance(45)) {
        const policy = book.policies.get(recordOp) ?? NO_RETRY;
        const attempt = booked?.attempt ?? 1;
        const hintValue = hint instanceof RawJson ? JSON.parse(hint.text) : hint;
        const wait = retryWait(policy, attempt, effect, hintValue);
        notBefore = book.clock + wait + c.pick([0, 0, 0, 1, -1]);
      }
      let response: Record<string, unknown> | undefined;
      let klass: unknown;
      if (c.chance(50)) {
        response = responseOf(c, booked?.request ?? null);
        if (c.chance(80)) {
          const control = book.cancelled.has(recordOp) ? "cancelled" : "running";
          const read: Response = {
            stop: response.stop as Response["stop"],
            errorMessage: (response.errorMessage as string | undefined) ?? null,
            outputTokens: (response.outputTokens as number | undefined) ?? 0,
            toolCalls: (response.toolCalls as number | undefined) ?? 0,
            handle: (response.handle as Response["handle"] | undefined) ?? null,
          };
          klass = c.chance(75)
            ? classify(control, read, booked?.request ?? null, booked?.outputLimit ?? 0)
            : c.pick(RESPONSE_CLASSES);
        }
      }
      return {
        kind,
        op: recordOp,
        effect,
        outcome,
        at: at(),
        retryable,
        retryAfterMs: hint,
        notBefore,
        response,
        class: klass,
        epoch: epoch(),
      };
    }
    case "readback": {
      const known = [...book.effects.keys()];
      const effect = known.length > 0 && c.chance(85) ? c.pick(known) : c.pick(EFFECT_POOL);
      const recordOp = book.effects.get(effect)?.op ?? op;
      return {
        kind,
        op: recordOp,
        effect,
        found: c.pick(["committed", "absent"]),
        at: at(),
        epoch: epoch(),
      };
    }
    case "cancel-requested":
      book.cancelled.add(op);
      return { kind, op, at: at(), epoch: epoch() };
    case "finished":
      return {
        kind,
        op,
        outcome: c.pick(["completed", "failed", "aborted"]),
        at: at(),
        epoch: epoch(),
      };
    default: {
      const strand = c.pick(STRANDS);
      const current = book.epochs.get(strand);
      const raised = current === undefined ? c.below(7) - 2 : current + c.pick([1, 1, 2, 0, -1]);
      if (current === undefined || raised > current) book.epochs.set(strand, raised);
      return {
        kind,
        strand,
        epoch: integerSpelling(c, raised),
        owner: c.chance(50) ? undefined : c.pick(["w1", "é"]),
      };
    }
  }
}

/** The fields of every kind, nested ones by path, for breaking one of them. */
const FIELDS_OF: Record<string, readonly string[]> = {
  accepted: [
    "op",
    "strand",
    "policy",
    "policy.maxAttempts",
    "policy.baseDelayMs",
    "policy.maxDelayMs",
    "epoch",
  ],
  intent: [
    "op",
    "key",
    "effect",
    "attempt",
    "at",
    "request",
    "request.provider",
    "request.model",
    "request.api",
    "outputLimit",
    "epoch",
  ],
  settled: [
    "op",
    "effect",
    "outcome",
    "at",
    "retryable",
    "notBefore",
    "response",
    "response.stop",
    "response.errorMessage",
    "response.outputTokens",
    "response.toolCalls",
    "response.handle",
    "response.handle.id",
    "response.handle.provider",
    "response.handle.model",
    "response.handle.api",
    "class",
    "epoch",
    "retryAfterMs",
  ],
  readback: ["op", "effect", "found", "at", "epoch"],
  "cancel-requested": ["op", "at", "epoch"],
  finished: ["op", "outcome", "at", "epoch"],
  lease: ["strand", "epoch", "owner"],
};

/** The record with one field (at a path, created if need be) given a wrong value or removed. */
function broken(c: Choices, record: Record<string, unknown>): Record<string, unknown> {
  const fields = FIELDS_OF[record.kind as string] as readonly string[];
  const path = c.pick(fields).split(".");
  const copy = structuredClone(record, { transfer: [] }) as Record<string, unknown>;
  restoreRaw(record, copy);
  let object = copy;
  for (const step of path.slice(0, -1)) {
    const inner = object[step];
    if (
      typeof inner !== "object" ||
      inner === null ||
      Array.isArray(inner) ||
      inner instanceof RawJson
    ) {
      object[step] = {};
    }
    object = object[step] as Record<string, unknown>;
  }
  const last = path[path.length - 1] as string;
  if (c.chance(25)) delete object[last];
  else object[last] = c.pick(WRONG_VALUES);
  return copy;
}

/** structuredClone drops RawJson's class: put the originals back. */
function restoreRaw(from: unknown, to: unknown): void {
  if (typeof from !== "object" || from === null) return;
  for (const [key, value] of Object.entries(from)) {
    if (value instanceof RawJson) (to as Record<string, unknown>)[key] = value;
    else restoreRaw(value, (to as Record<string, unknown>)[key]);
  }
}

/** An entry that is no record: not an object, no string kind, an unknown kind. */
function nonRecord(c: Choices): unknown {
  return c.pick<unknown>([
    new UnparseableLine("invalid-json"),
    new UnparseableLine("invalid-utf8"),
    [],
    "accepted",
    7,
    null,
    { op: "o1" },
    { kind: 3, op: "o1" },
    { kind: null },
    { kind: "Accepted", op: "o1", strand: "s1" },
    { kind: "dispatched", id: "A" },
    { kind: "lease\u0000", strand: "s1", epoch: 1 },
    { kind: "" },
    // A kind is read as words: one byte off in each word of each kind's name.
    { kind: c.pick(["leasE", "Lease", "intenT", "iNtent", "settlEd", "setTled", "Settled"]) },
    { kind: c.pick(["acceptEd", "readbacK", "finisheD", "cancel-requesteD", "cancel_requested"]) },
  ]);
}

export interface AdversarialCase {
  readonly seed: number;
  readonly count: number;
  /** Percent of records with one field broken (an integrity fault, mostly). */
  readonly breakage: number;
}

export const adversarialCaseArbitrary: fc.Arbitrary<AdversarialCase> = fc.record({
  seed: fc.integer(),
  count: fc.integer({ min: 1, max: 60 }),
  breakage: fc.oneof(fc.constant(0), fc.constant(2), fc.integer({ min: 0, max: 30 })),
});

export function adversarialRecords({ seed, count, breakage }: AdversarialCase): unknown[] {
  const c = new Choices(seed);
  const book: Book = {
    accepted: new Map(),
    epochs: new Map(),
    attempts: new Map(),
    policies: new Map(),
    cancelled: new Set(),
    effects: new Map(),
    clock: c.pick([0, -10000, 2 ** 53 - 100000, 1_000_000]),
    freshEffects: 0,
  };
  const records: unknown[] = [];
  for (let i = 0; i < count; i++) {
    if (c.chance(Math.ceil(breakage / 4))) {
      records.push(nonRecord(c));
      continue;
    }
    const record = wellTypedRecord(c, book);
    records.push(c.chance(breakage) ? broken(c, record) : record);
  }
  return records;
}
