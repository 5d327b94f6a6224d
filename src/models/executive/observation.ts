/**
 * Observations and decisions of the `executive` model (docs/models/executive.md,
 * "Observations and decisions"): closed vocabularies. An observation is read once, first, as
 * plain data (plain-data.ts): an accessor anywhere, or a read that throws, makes it malformed
 * before its tag is even judged, and nothing of it is read again.
 */

import {
  integerValue,
  isRecord,
  isSafeInteger,
  ownField,
  ownKeys,
  UNREADABLE,
  wtf8Length,
} from "./plain-data.js";
import type { Counter, Effect } from "./spec.js";

export const FAIL_REASONS = ["cancelled", "deadline", "effect-failed", "budget-exhausted"] as const;
export type FailReason = (typeof FAIL_REASONS)[number];
/** What ran out: a counter, or `depth`. */
export type ExhaustedBudget = Counter | "depth";

export const OBSERVATION_TAGS = ["start", "result", "checkpointed", "tick", "cancel"] as const;
export type ObservationTag = (typeof OBSERVATION_TAGS)[number];

export type Observation =
  | { readonly tag: "start"; readonly now: number }
  | {
      readonly tag: "result";
      readonly seq: number;
      readonly outcome: "ok" | "error";
      readonly retryable: boolean;
      readonly bytes: number;
      readonly detail: string | null;
      readonly now: number;
    }
  | { readonly tag: "checkpointed"; readonly seq: number; readonly now: number }
  | { readonly tag: "tick"; readonly now: number }
  | { readonly tag: "cancel"; readonly now: number };

export const REJECT_REASONS = [
  "invalid-state",
  "terminal",
  "malformed-observation",
  "unknown-tag",
  "oversized",
  "already-started",
  "not-started",
  "stale-decision",
  "clock-regressed",
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export type Decision =
  | {
      readonly tag: "execute";
      readonly seq: number;
      readonly path: readonly string[];
      readonly effect: Effect;
      readonly attempt: number;
    }
  | { readonly tag: "checkpoint"; readonly seq: number }
  | { readonly tag: "wait"; readonly seq: number }
  | { readonly tag: "complete"; readonly seq: number }
  | {
      readonly tag: "fail";
      readonly seq: number;
      readonly reason: FailReason;
      readonly budget?: ExhaustedBudget;
    }
  | { readonly tag: "reject"; readonly reason: RejectReason };

export const DETAIL_BYTES_MAX = 4096;

/** Each tag's fields: required, then optional. */
const FIELDS: Readonly<Record<ObservationTag, { required: string[]; optional: string[] }>> = {
  start: { required: ["now"], optional: [] },
  result: { required: ["seq", "outcome", "bytes", "now"], optional: ["retryable", "detail"] },
  checkpointed: { required: ["seq", "now"], optional: [] },
  tick: { required: ["now"], optional: [] },
  cancel: { required: ["now"], optional: [] },
};

/** What each field must be. */
const FIELD_TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  now: (value) => isSafeInteger(value) && value >= 0,
  seq: isSafeInteger,
  bytes: (value) => isSafeInteger(value) && value >= 0,
  outcome: (value) => value === "ok" || value === "error",
  retryable: (value) => typeof value === "boolean",
  detail: (value) => typeof value === "string",
};

export type ReadObservation =
  | { readonly ok: true; readonly observation: Observation }
  | { readonly ok: false; readonly reason: RejectReason };

export function readObservation(value: unknown): ReadObservation {
  const malformed = { ok: false, reason: "malformed-observation" } as const;
  if (!isRecord(value)) return malformed;
  const keys = ownKeys(value);
  if (keys === UNREADABLE) return malformed;
  const fields = new Map<PropertyKey, unknown>();
  for (const key of keys) {
    const field = ownField(value, key);
    if (field === UNREADABLE) return malformed;
    fields.set(key, field);
  }
  const tag = fields.get("tag");
  if (typeof tag !== "string") return malformed;
  if (!(OBSERVATION_TAGS as readonly string[]).includes(tag)) {
    return { ok: false, reason: "unknown-tag" };
  }
  const { required, optional } = FIELDS[tag as ObservationTag];
  for (const name of required) if (!fields.has(name)) return malformed;
  for (const [key, field] of fields) {
    if (key === "tag") continue;
    if (typeof key !== "string" || !(required.includes(key) || optional.includes(key))) {
      return malformed;
    }
    if (!(FIELD_TYPES[key] as (value: unknown) => boolean)(field)) return malformed;
  }
  const detail = fields.has("detail") ? (fields.get("detail") as string) : null;
  if (detail !== null && wtf8Length(detail) > DETAIL_BYTES_MAX) {
    return { ok: false, reason: "oversized" };
  }
  const integer = (name: string) => integerValue(fields.get(name) as number);
  const now = integer("now");
  switch (tag as ObservationTag) {
    case "result":
      return {
        ok: true,
        observation: {
          tag: "result",
          seq: integer("seq"),
          outcome: fields.get("outcome") as "ok" | "error",
          retryable: fields.get("retryable") === true,
          bytes: integer("bytes"),
          detail,
          now,
        },
      };
    case "checkpointed":
      return { ok: true, observation: { tag: "checkpointed", seq: integer("seq"), now } };
    default:
      return { ok: true, observation: { tag: tag as "start" | "tick" | "cancel", now } };
  }
}
