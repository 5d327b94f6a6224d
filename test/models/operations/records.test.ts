/**
 * Integrity (docs/models/operations.md, "Records" and "Integrity"): every field of every kind
 * missing and of every wrong type, every enumeration out of its set, the object-valued fields
 * and their insides, the lenient fields, the order of the checks, and the fold stopping at the
 * first fault with the rules judged on the prefix before it. The expected messages are spelled
 * out here, independently of the model's tables.
 */
import { describe, expect, it } from "vitest";
import { UnparseableLine } from "../../../src/models/journal-source.js";
import { audit, readRecord } from "../../../src/models/operations/index.js";
import {
  accepted,
  cancelRequested,
  finished,
  intent,
  type JsonRecord,
  LADDER_POLICY,
  lease,
  settled,
} from "../../support/operations-arbitraries.js";

type Expectation =
  | "string"
  | "integer"
  | "count"
  | "boolean"
  | "object"
  | "budget"
  | { oneOf: readonly string[] };

const EXPECTED_TEXT = (expectation: Expectation): string => {
  if (typeof expectation === "object") {
    return `one of ${expectation.oneOf.map((value) => `"${value}"`).join(", ")}`;
  }
  return {
    string: "a string",
    integer: "a safe integer",
    count: "a safe integer ≥ 0",
    boolean: "a boolean",
    object: "an object",
    budget: "a safe integer ≥ 1 or null",
  }[expectation];
};

/** Values of the wrong type for each expectation; a present null is wrong for all of these. */
const WRONG_VALUES = (expectation: Expectation): unknown[] => {
  const anyOther = [null, [], {}, true];
  if (typeof expectation === "object")
    return [...anyOther, "bogus", expectation.oneOf[0]?.toUpperCase(), 1];
  switch (expectation) {
    case "string":
      return [...anyOther, 1, 0];
    case "integer":
      return [...anyOther, "1", 1.5, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, 0.1];
    case "count":
      return [...anyOther, "1", 1.5, -1, 2 ** 53];
    case "boolean":
      return [null, [], {}, "true", 1, 0];
    case "object":
      return [null, [], "x", 1, true];
    case "budget":
      return [[], {}, true, "1", 0, -1, 1.5, 2 ** 53];
    default: {
      const unreachable: never = expectation;
      return unreachable;
    }
  }
};

const OUTCOMES = { oneOf: ["ok", "error", "unknown"] } as const;
const FOUND = { oneOf: ["committed", "absent"] } as const;
const FINISHED = { oneOf: ["completed", "failed", "aborted"] } as const;
const STOPS = {
  oneOf: ["stop", "length", "tool-use", "error", "aborted", "deferred", "pending"],
} as const;
const CLASSES = {
  oneOf: [
    "corrupt",
    "cancelled",
    "overflow",
    "deferred-valid",
    "deferred-invalid",
    "error",
    "tool-use",
    "tool-use-truncated",
    "finished",
  ],
} as const;

const REQUEST = { provider: "p", model: "m", api: "a" };
const HANDLE = { id: "h", ...REQUEST };
const RESPONSE = {
  stop: "deferred",
  errorMessage: "e",
  outputTokens: 1,
  toolCalls: 0,
  handle: HANDLE,
};

interface FieldCase {
  readonly path: string;
  readonly expectation: Expectation;
  readonly required: boolean;
}

/** A valid record of each kind with every field present, and its fields in checking order. */
const KINDS: readonly { kind: string; full: JsonRecord; fields: FieldCase[] }[] = [
  {
    kind: "accepted",
    full: accepted("o", "s", { policy: LADDER_POLICY, epoch: 1 }),
    fields: [
      { path: "op", expectation: "string", required: true },
      { path: "strand", expectation: "string", required: true },
      { path: "policy", expectation: "object", required: false },
      { path: "policy.maxAttempts", expectation: "budget", required: true },
      { path: "policy.baseDelayMs", expectation: "count", required: true },
      { path: "policy.maxDelayMs", expectation: "count", required: true },
      { path: "epoch", expectation: "integer", required: false },
    ],
  },
  {
    kind: "intent",
    full: intent("o", "k", "e", 1, 0, { request: REQUEST, outputLimit: 10, epoch: 1 }),
    fields: [
      { path: "op", expectation: "string", required: true },
      { path: "key", expectation: "string", required: true },
      { path: "effect", expectation: "string", required: true },
      { path: "attempt", expectation: "integer", required: true },
      { path: "at", expectation: "integer", required: true },
      { path: "request", expectation: "object", required: false },
      { path: "request.provider", expectation: "string", required: true },
      { path: "request.model", expectation: "string", required: true },
      { path: "request.api", expectation: "string", required: true },
      { path: "outputLimit", expectation: "count", required: false },
      { path: "epoch", expectation: "integer", required: false },
    ],
  },
  {
    kind: "settled",
    full: settled("o", "e", "ok", 0, {
      retryable: false,
      retryAfterMs: 5,
      notBefore: 9,
      response: RESPONSE,
      class: "deferred-valid",
      epoch: 1,
    }),
    fields: [
      { path: "op", expectation: "string", required: true },
      { path: "effect", expectation: "string", required: true },
      { path: "outcome", expectation: OUTCOMES, required: true },
      { path: "at", expectation: "integer", required: true },
      { path: "retryable", expectation: "boolean", required: false },
      { path: "notBefore", expectation: "integer", required: false },
      { path: "response", expectation: "object", required: false },
      { path: "response.stop", expectation: STOPS, required: true },
      { path: "response.errorMessage", expectation: "string", required: false },
      { path: "response.outputTokens", expectation: "count", required: false },
      { path: "response.toolCalls", expectation: "count", required: false },
      { path: "response.handle", expectation: "object", required: false },
      { path: "response.handle.id", expectation: "string", required: true },
      { path: "response.handle.provider", expectation: "string", required: true },
      { path: "response.handle.model", expectation: "string", required: true },
      { path: "response.handle.api", expectation: "string", required: true },
      { path: "class", expectation: CLASSES, required: false },
      { path: "epoch", expectation: "integer", required: false },
    ],
  },
  {
    kind: "readback",
    full: { kind: "readback", op: "o", effect: "e", found: "absent", at: 0, epoch: 1 },
    fields: [
      { path: "op", expectation: "string", required: true },
      { path: "effect", expectation: "string", required: true },
      { path: "found", expectation: FOUND, required: true },
      { path: "at", expectation: "integer", required: true },
      { path: "epoch", expectation: "integer", required: false },
    ],
  },
  {
    kind: "cancel-requested",
    full: cancelRequested("o", 0, { epoch: 1 }),
    fields: [
      { path: "op", expectation: "string", required: true },
      { path: "at", expectation: "integer", required: true },
      { path: "epoch", expectation: "integer", required: false },
    ],
  },
  {
    kind: "finished",
    full: finished("o", "failed", 0, { epoch: 1 }),
    fields: [
      { path: "op", expectation: "string", required: true },
      { path: "outcome", expectation: FINISHED, required: true },
      { path: "at", expectation: "integer", required: true },
      { path: "epoch", expectation: "integer", required: false },
    ],
  },
  {
    kind: "lease",
    full: lease("s", 1, { owner: "x" }),
    fields: [
      { path: "strand", expectation: "string", required: true },
      { path: "epoch", expectation: "integer", required: true },
      { path: "owner", expectation: "string", required: false },
    ],
  },
];

/** `record` with the field at `path` set to `value`, or removed when `value` is undefined. */
function withField(record: JsonRecord, path: string, value: unknown): JsonRecord {
  const [head, ...rest] = path.split(".") as [string, ...string[]];
  const copy = { ...record };
  if (rest.length > 0) copy[head] = withField(copy[head] as JsonRecord, rest.join("."), value);
  else if (value === undefined) delete copy[head];
  else copy[head] = value;
  return copy;
}

function messageOf(entry: unknown): string | null {
  const read = readRecord(entry);
  return read.ok ? null : `${read.fault.reason}: ${integrityMessageOf(entry)}`;
}

function integrityMessageOf(entry: unknown): string {
  return audit([entry]).integrity?.message ?? "";
}

describe("every kind's full record is well-formed", () => {
  it.each(KINDS.map(({ kind, full }) => [kind, full]))("%s", (_, full) => {
    expect(messageOf(full)).toBeNull();
  });
});

describe.each(KINDS)("$kind: each field missing and of each wrong type", ({ full, fields }) => {
  it.each(fields.filter((f) => f.required))("$path missing", ({ path }) => {
    expect(messageOf(withField(full, path, undefined))).toBe(
      `malformed-event: field "${path}" is missing`,
    );
  });

  it.each(fields.filter((f) => !f.required))("$path absent is fine", ({ path }) => {
    // A class needs its response: without the response, the class goes too.
    const base = path === "response" ? withField(full, "class", undefined) : full;
    expect(messageOf(withField(base, path, undefined))).toBeNull();
  });

  it.each(fields)("$path of a wrong type", ({ path, expectation }) => {
    for (const value of WRONG_VALUES(expectation)) {
      expect(messageOf(withField(full, path, value)), JSON.stringify(value)).toBe(
        `malformed-event: field "${path}" is not ${EXPECTED_TEXT(expectation)}`,
      );
    }
  });
});

describe("field values", () => {
  it("integers are JSON numbers with a safe-integer value: 3.0 and 1e3 count, negatives too", () => {
    const parsed = JSON.parse(
      '{"kind":"intent","op":"o","key":"k","effect":"e","attempt":3.0,"at":1e3,"epoch":-0,"outputLimit":0.0}',
    );
    expect(messageOf(parsed)).toBeNull();
    for (const value of [-1, -(2 ** 53 - 1), 0, 2 ** 53 - 1]) {
      expect(messageOf(intent("o", "k", "e", value, value, { epoch: value }))).toBeNull();
    }
  });

  it("maxAttempts may be null (unbounded) but not absent; delays may be 0", () => {
    const unbounded = { maxAttempts: null, baseDelayMs: 0, maxDelayMs: 0 };
    expect(messageOf(accepted("o", "s", { policy: unbounded }))).toBeNull();
    expect(messageOf(accepted("o", "s", { policy: { baseDelayMs: 0, maxDelayMs: 0 } }))).toBe(
      'malformed-event: field "policy.maxAttempts" is missing',
    );
  });

  it("retryAfterMs is never malformed: any value, null included, is accepted", () => {
    for (const value of [null, "soon", -5, 1.5, {}, [], true, 2 ** 60]) {
      expect(messageOf(settled("o", "e", "error", 0, { retryAfterMs: value }))).toBeNull();
    }
  });

  it("class needs a response", () => {
    expect(messageOf(settled("o", "e", "ok", 0, { class: "finished" }))).toBe(
      'malformed-event: field "class" is present without "response"',
    );
    expect(messageOf(settled("o", "e", "ok", 0, { class: "bogus" }))).toBe(
      `malformed-event: field "class" is not ${EXPECTED_TEXT(CLASSES)}`,
    );
  });

  it("enumerations are case-sensitive exact strings", () => {
    expect(messageOf(settled("o", "e", "OK", 0))).not.toBeNull();
    expect(messageOf(finished("o", "completed ", 0))).not.toBeNull();
    expect(messageOf(settled("o", "e", "ok", 0, { response: { stop: "Stop" } }))).not.toBeNull();
  });

  it("unknown extra fields are ignored, here and inside every object", () => {
    const extra = { ts: "2026-01-01", seq: 3, nested: { deep: [null] } };
    expect(
      messageOf({
        ...settled("o", "e", "ok", 0),
        ...extra,
        response: { ...RESPONSE, ...extra, handle: { ...HANDLE, ...extra } },
      }),
    ).toBeNull();
    expect(messageOf(accepted("o", "s", { policy: { ...LADDER_POLICY, ...extra } }))).toBeNull();
    expect(
      messageOf(intent("o", "k", "e", 1, 0, { request: { ...REQUEST, ...extra } })),
    ).toBeNull();
  });

  it("a field another kind uses is just an extra field", () => {
    expect(
      messageOf(cancelRequested("o", 0, { attempt: "x", outcome: 7, policy: null })),
    ).toBeNull();
    expect(messageOf(lease("s", 1, { op: 5, at: "now" }))).toBeNull();
    expect(messageOf(accepted("o", "s", { request: null, class: "x" }))).toBeNull();
  });

  it("epoch is checked on every kind but lease, leased strand or not", () => {
    expect(messageOf(cancelRequested("o", 0, { epoch: "1" }))).toBe(
      'malformed-event: field "epoch" is not a safe integer',
    );
    expect(messageOf(cancelRequested("o", 0, { epoch: null }))).toBe(
      'malformed-event: field "epoch" is not a safe integer',
    );
  });
});

describe("the order of the integrity checks", () => {
  it("not a record at all: not an object, no string kind, not JSON", () => {
    for (const entry of [null, undefined, 1, "accepted", true, [], [{ kind: "accepted" }]]) {
      expect(messageOf(entry), JSON.stringify(entry)).toBe(
        "malformed-event: the record is not a JSON object",
      );
    }
    for (const entry of [{}, { kind: 1 }, { kind: null }, { kind: ["lease"] }, { op: "o" }]) {
      expect(messageOf(entry)).toBe('malformed-event: the record has no string "kind"');
    }
    expect(messageOf(new UnparseableLine("invalid-json"))).toBe(
      "malformed-event: the line is not valid JSON",
    );
    expect(messageOf(new UnparseableLine("invalid-utf8"))).toBe(
      "malformed-event: the line is not valid UTF-8",
    );
  });

  it("unknown-kind comes before any field check", () => {
    expect(messageOf({ kind: "Accepted" })).toBe('unknown-kind: unknown record kind "Accepted"');
    expect(messageOf({ kind: "" })).toBe('unknown-kind: unknown record kind ""');
    expect(messageOf({ kind: "dispatched", id: "A" })).toBe(
      'unknown-kind: unknown record kind "dispatched"',
    );
  });

  it("the first bad field in the kind's order is the one named; epoch comes last", () => {
    expect(messageOf({ kind: "intent", attempt: "x", epoch: "x" })).toBe(
      'malformed-event: field "op" is missing',
    );
    expect(
      messageOf({ kind: "intent", op: "o", key: "k", effect: "e", attempt: "x", epoch: "x" }),
    ).toBe('malformed-event: field "attempt" is not a safe integer');
    expect(messageOf({ ...intent("o", "k", "e", 1, 0), epoch: "x", outputLimit: -1 })).toBe(
      'malformed-event: field "outputLimit" is not a safe integer ≥ 0',
    );
    expect(messageOf({ ...settled("o", "e", "ok", 0), class: "x", response: { stop: "x" } })).toBe(
      `malformed-event: field "response.stop" is not ${EXPECTED_TEXT(STOPS)}`,
    );
  });

  it("an own field only: an inherited one counts as absent", () => {
    const inherited = Object.create({ op: "o", at: 0 }) as JsonRecord;
    inherited.kind = "cancel-requested";
    expect(messageOf(inherited)).toBe('malformed-event: field "op" is missing');
  });
});

describe("the fold stops at the first integrity fault", () => {
  const ACCEPT = accepted("run-1", "chat-A");

  it("judges the rules and counts the summary on the prefix before it; counts every entry", () => {
    const report = audit(
      [
        ACCEPT,
        accepted("run-1", "chat-B"),
        { kind: "settled", op: "run-1" },
        intent("ghost", "k", "e", 1, 0),
        "junk",
      ],
      { lines: [2, 3, 5, 6, 8], tornTail: { line: 9, offset: 400 } },
    );
    expect(report.integrity).toEqual({
      index: 2,
      line: 5,
      reason: "malformed-event",
      message: 'field "effect" is missing',
    });
    expect(report.events).toBe(5);
    expect(report.tornTail).toEqual({ line: 9, offset: 400 });
    expect(report.legality).toEqual({
      illegal: 1,
      first: [{ index: 1, line: 3, kind: "accepted", op: "run-1", reason: "duplicate-operation" }],
    });
    expect(report.invariants.lifecycle).toEqual({ holds: false, index: 1, line: 3, op: "run-1" });
    expect(report.final.operations.running).toBe(1);
    expect(report.final.strands).toBe(1);
    expect(report.conformant).toBe(false);
    expect(report.strictlyConformant).toBe(false);
  });

  it("an integrity fault alone makes a journal non-conformant, with every rule holding", () => {
    const report = audit([ACCEPT, new UnparseableLine("invalid-utf8")]);
    expect(report.integrity).toEqual({
      index: 1,
      reason: "malformed-event",
      message: "the line is not valid UTF-8",
    });
    expect(Object.values(report.invariants).every((verdict) => verdict.holds)).toBe(true);
    expect(report.conformant).toBe(false);
  });

  it("a hole in a sparse array is an entry, and malformed", () => {
    const sparse: unknown[] = [ACCEPT];
    sparse[2] = ACCEPT;
    const report = audit(sparse);
    expect(report.events).toBe(3);
    expect(report.integrity?.index).toBe(1);
    expect(report.integrity?.message).toBe("the record is not a JSON object");
  });
});
