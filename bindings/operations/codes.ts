/**
 * The `operations` kernel's codes (assembly/operations/records.ts, integrity.ts, report.ts) as
 * the reference names them: every list in the reference's order.
 */
import {
  type FieldType,
  type IntegrityFault,
  type MalformedProblem,
  REASONS,
  RECORD_KINDS,
  RULE_NAMES,
} from "../../src/models/operations/index.js";

export { REASONS, RECORD_KINDS, RULE_NAMES };

/** Mirrors Limit in assembly/jsonl.ts. */
export const Limit = { NONE: 0, MEMORY: 1, LINE_LENGTH: 2 } as const;

/** Mirrors Integrity in assembly/operations/integrity.ts. */
export const INTEGRITY_REASONS = ["malformed-event", "unknown-kind"] as const;

/** Mirrors Problem. */
export const PROBLEMS: readonly MalformedProblem["problem"][] = [
  "invalid-utf8",
  "invalid-json",
  "not-an-object",
  "kind-not-a-string",
  "missing-field",
  "wrong-type",
  "without-companion",
];

/** Mirrors FieldType. */
export const FIELD_TYPES: readonly FieldType[] = [
  "string",
  "integer",
  "count",
  "attempt-budget",
  "boolean",
  "settled-outcome",
  "readback-finding",
  "finished-outcome",
  "stop-reason",
  "response-class",
  "policy",
  "request",
  "response",
  "handle",
];

/** Mirrors Path: the field each path code names, as the integrity messages write it. */
export const FIELD_PATHS: readonly string[] = [
  "kind",
  "op",
  "strand",
  "policy",
  "key",
  "effect",
  "attempt",
  "at",
  "request",
  "outputLimit",
  "outcome",
  "retryable",
  "retryAfterMs",
  "notBefore",
  "response",
  "class",
  "found",
  "epoch",
  "owner",
  "policy.maxAttempts",
  "policy.baseDelayMs",
  "policy.maxDelayMs",
  "request.provider",
  "request.model",
  "request.api",
  "response.stop",
  "response.errorMessage",
  "response.outputTokens",
  "response.toolCalls",
  "response.handle",
  "response.handle.id",
  "response.handle.provider",
  "response.handle.model",
  "response.handle.api",
];

/** The fault the kernel's codes describe. */
export function faultOf(
  reason: number,
  problem: number,
  field: number,
  expected: number,
  companion: number,
  kind: string,
): IntegrityFault {
  if (INTEGRITY_REASONS[reason] === "unknown-kind") return { reason: "unknown-kind", kind };
  const name = PROBLEMS[problem] as MalformedProblem["problem"];
  switch (name) {
    case "missing-field":
      return { reason: "malformed-event", problem: name, field: FIELD_PATHS[field] as string };
    case "wrong-type":
      return {
        reason: "malformed-event",
        problem: name,
        field: FIELD_PATHS[field] as string,
        expected: FIELD_TYPES[expected] as FieldType,
      };
    case "without-companion":
      return {
        reason: "malformed-event",
        problem: name,
        field: FIELD_PATHS[field] as string,
        companion: FIELD_PATHS[companion] as string,
      };
    default:
      return { reason: "malformed-event", problem: name };
  }
}
