/**
 * The integrity checks of the `operations` model (docs/models/operations.md, "Integrity"), in
 * their order: malformed-event (not a record at all), unknown-kind, then malformed-event again
 * for the first field — the kind's own in the records table's order, then `epoch` — that is
 * missing or of the wrong type. Only these stop the fold. Unknown extra fields are ignored,
 * inside policy, request, response and handle too.
 */

import { UnparseableLine } from "../journal-source.js";
import {
  FINISHED_OUTCOMES,
  isCount,
  READBACK_FINDINGS,
  RECORD_KINDS,
  RESPONSE_CLASSES,
  type RecordKind,
  SETTLED_OUTCOMES,
  STOP_REASONS,
} from "./records.js";

/** What a field must be. A present `null` fits none of them but `attempt-budget`. */
export type FieldType =
  | "string"
  | "integer"
  | "count"
  | "attempt-budget"
  | "boolean"
  | "settled-outcome"
  | "readback-finding"
  | "finished-outcome"
  | "stop-reason"
  | "response-class"
  | "policy"
  | "request"
  | "response"
  | "handle";

export type MalformedProblem =
  | { readonly problem: "invalid-utf8" | "invalid-json" | "not-an-object" | "kind-not-a-string" }
  | { readonly problem: "missing-field"; readonly field: string }
  | { readonly problem: "wrong-type"; readonly field: string; readonly expected: FieldType }
  | { readonly problem: "without-companion"; readonly field: string; readonly companion: string };

export type IntegrityFault =
  | ({ readonly reason: "malformed-event" } & MalformedProblem)
  | { readonly reason: "unknown-kind"; readonly kind: string };

export type IntegrityReason = IntegrityFault["reason"];

interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  /** A field that must be present beside this one, when this one is. */
  readonly companion?: string;
}

const required = (name: string, type: FieldType): FieldSpec => ({ name, type, required: true });
const optional = (name: string, type: FieldType, companion?: string): FieldSpec => ({
  name,
  type,
  required: false,
  ...(companion === undefined ? {} : { companion }),
});
const EPOCH = optional("epoch", "integer");

/**
 * The fields checked for each kind, in the order they are checked: the kind's own, as the
 * records table lists them, then `epoch`. `retryAfterMs` is absent on purpose: no value of it
 * is malformed. A `class` must come with the `response` it classifies.
 */
const RECORD_FIELDS: Readonly<Record<RecordKind, readonly FieldSpec[]>> = {
  accepted: [required("op", "string"), required("strand", "string"), optional("policy", "policy")],
  intent: [
    required("op", "string"),
    required("key", "string"),
    required("effect", "string"),
    required("attempt", "integer"),
    required("at", "integer"),
    optional("request", "request"),
    optional("outputLimit", "count"),
  ],
  settled: [
    required("op", "string"),
    required("effect", "string"),
    required("outcome", "settled-outcome"),
    required("at", "integer"),
    optional("retryable", "boolean"),
    optional("notBefore", "integer"),
    optional("response", "response"),
    optional("class", "response-class", "response"),
  ],
  readback: [
    required("op", "string"),
    required("effect", "string"),
    required("found", "readback-finding"),
    required("at", "integer"),
  ],
  "cancel-requested": [required("op", "string"), required("at", "integer")],
  finished: [
    required("op", "string"),
    required("outcome", "finished-outcome"),
    required("at", "integer"),
  ],
  lease: [required("strand", "string"), required("epoch", "integer"), optional("owner", "string")],
};

/** The fields inside the object-valued types; every one is checked when the object is present. */
const OBJECT_FIELDS: Partial<Readonly<Record<FieldType, readonly FieldSpec[]>>> = {
  policy: [
    required("maxAttempts", "attempt-budget"),
    required("baseDelayMs", "count"),
    required("maxDelayMs", "count"),
  ],
  request: [required("provider", "string"), required("model", "string"), required("api", "string")],
  response: [
    required("stop", "stop-reason"),
    optional("errorMessage", "string"),
    optional("outputTokens", "count"),
    optional("toolCalls", "count"),
    optional("handle", "handle"),
  ],
  handle: [
    required("id", "string"),
    required("provider", "string"),
    required("model", "string"),
    required("api", "string"),
  ],
};

const ENUMERATIONS: Partial<Readonly<Record<FieldType, readonly string[]>>> = {
  "settled-outcome": SETTLED_OUTCOMES,
  "readback-finding": READBACK_FINDINGS,
  "finished-outcome": FINISHED_OUTCOMES,
  "stop-reason": STOP_REASONS,
  "response-class": RESPONSE_CLASSES,
};

export type JsonObject = Readonly<Record<string, unknown>>;

/** The first integrity fault of a journal entry, in the checks' order; null when it has none. */
export function integrityFault(entry: unknown): IntegrityFault | null {
  if (entry instanceof UnparseableLine)
    return { reason: "malformed-event", problem: entry.problem };
  if (!isObject(entry)) return { reason: "malformed-event", problem: "not-an-object" };
  const kind = fieldOf(entry, "kind");
  if (typeof kind !== "string") return { reason: "malformed-event", problem: "kind-not-a-string" };
  if (!isRecordKind(kind)) return { reason: "unknown-kind", kind };
  const problem = fieldsProblem(entry, [
    ...RECORD_FIELDS[kind],
    ...(kind === "lease" ? [] : [EPOCH]),
  ]);
  return problem === null ? null : { reason: "malformed-event", ...problem };
}

/** The first problem among `fields` of `object`; nested objects are named `outer.inner`. */
function fieldsProblem(
  object: JsonObject,
  fields: readonly FieldSpec[],
  prefix = "",
): MalformedProblem | null {
  for (const { name, type, required: isRequired, companion } of fields) {
    const value = fieldOf(object, name);
    const field = prefix + name;
    if (value === undefined) {
      if (isRequired) return { problem: "missing-field", field };
      continue;
    }
    if (!fitsType(value, type)) return { problem: "wrong-type", field, expected: type };
    const inner = OBJECT_FIELDS[type];
    if (inner !== undefined) {
      const problem = fieldsProblem(value as JsonObject, inner, `${field}.`);
      if (problem !== null) return problem;
    }
    if (companion !== undefined && fieldOf(object, companion) === undefined) {
      return { problem: "without-companion", field, companion: prefix + companion };
    }
  }
  return null;
}

function fitsType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isSafeInteger(value);
    case "count":
      return isCount(value);
    case "attempt-budget":
      return value === null || (Number.isSafeInteger(value) && (value as number) >= 1);
    case "boolean":
      return typeof value === "boolean";
    case "settled-outcome":
    case "readback-finding":
    case "finished-outcome":
    case "stop-reason":
    case "response-class":
      return (ENUMERATIONS[type] as readonly unknown[]).includes(value);
    case "policy":
    case "request":
    case "response":
    case "handle":
      return isObject(value);
    default: {
      const unreachable: never = type;
      return unreachable;
    }
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRecordKind(kind: string): kind is RecordKind {
  return (RECORD_KINDS as readonly string[]).includes(kind);
}

/** An own field's value; an inherited one (never in parsed JSON) counts as absent. */
export function fieldOf(object: JsonObject, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Messages

const EXPECTED: Readonly<Record<FieldType, string>> = {
  string: "a string",
  integer: "a safe integer",
  count: "a safe integer ≥ 0",
  "attempt-budget": "a safe integer ≥ 1 or null",
  boolean: "a boolean",
  "settled-outcome": oneOf(SETTLED_OUTCOMES),
  "readback-finding": oneOf(READBACK_FINDINGS),
  "finished-outcome": oneOf(FINISHED_OUTCOMES),
  "stop-reason": oneOf(STOP_REASONS),
  "response-class": oneOf(RESPONSE_CLASSES),
  policy: "an object",
  request: "an object",
  response: "an object",
  handle: "an object",
};

function oneOf(values: readonly string[]): string {
  return `one of ${values.map((value) => JSON.stringify(value)).join(", ")}`;
}

/** The report's `integrity.message`: what was expected, naming the field. */
export function integrityMessage(fault: IntegrityFault): string {
  if (fault.reason === "unknown-kind") return `unknown record kind ${JSON.stringify(fault.kind)}`;
  switch (fault.problem) {
    case "invalid-utf8":
      return "the line is not valid UTF-8";
    case "invalid-json":
      return "the line is not valid JSON";
    case "not-an-object":
      return "the record is not a JSON object";
    case "kind-not-a-string":
      return 'the record has no string "kind"';
    case "missing-field":
      return `field ${JSON.stringify(fault.field)} is missing`;
    case "wrong-type":
      return `field ${JSON.stringify(fault.field)} is not ${EXPECTED[fault.expected]}`;
    case "without-companion":
      return `field ${JSON.stringify(fault.field)} is present without ${JSON.stringify(fault.companion)}`;
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
}
