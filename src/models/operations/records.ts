/**
 * The record vocabulary of the `operations` model (docs/models/operations.md, "Records"): seven
 * kinds and their enumerations, and the typed records the integrity checks (integrity.ts) let
 * through — absent optional fields made explicit (null, or their documented default).
 */

export const RECORD_KINDS = [
  "accepted",
  "intent",
  "settled",
  "readback",
  "cancel-requested",
  "finished",
  "lease",
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export const SETTLED_OUTCOMES = ["ok", "error", "unknown"] as const;
export type SettledOutcome = (typeof SETTLED_OUTCOMES)[number];

export const READBACK_FINDINGS = ["committed", "absent"] as const;
export type ReadbackFinding = (typeof READBACK_FINDINGS)[number];

export const FINISHED_OUTCOMES = ["completed", "failed", "aborted"] as const;
export type FinishedOutcome = (typeof FINISHED_OUTCOMES)[number];

export const STOP_REASONS = [
  "stop",
  "length",
  "tool-use",
  "error",
  "aborted",
  "deferred",
  "pending",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export const RESPONSE_CLASSES = [
  "corrupt",
  "cancelled",
  "overflow",
  "deferred-valid",
  "deferred-invalid",
  "error",
  "tool-use",
  "tool-use-truncated",
  "finished",
] as const;
export type ResponseClass = (typeof RESPONSE_CLASSES)[number];

/** An op's retry policy, frozen at acceptance. `maxAttempts` null is an unbounded budget. */
export interface Policy {
  readonly maxAttempts: number | null;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** The policy of an op accepted without one: a single attempt, no retries. */
export const NO_RETRY_POLICY: Policy = Object.freeze({
  maxAttempts: 1,
  baseDelayMs: 0,
  maxDelayMs: 0,
});

/** The identity an intent captured for its request. */
export interface Request {
  readonly provider: string;
  readonly model: string;
  readonly api: string;
}

/** A deferred response's handle, as the response claims it. */
export interface Handle {
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  readonly api: string;
}

/** A settled provider response, as classification reads it. Absent counts are 0. */
export interface Response {
  readonly stop: StopReason;
  readonly errorMessage: string | null;
  readonly outputTokens: number;
  readonly toolCalls: number;
  readonly handle: Handle | null;
}

/** Every kind but `lease` may carry the writer's lease epoch; null when absent. */
interface OpFields {
  readonly op: string;
  readonly epoch: number | null;
}

export interface AcceptedRecord extends OpFields {
  readonly kind: "accepted";
  readonly strand: string;
  readonly policy: Policy;
}

export interface IntentRecord extends OpFields {
  readonly kind: "intent";
  readonly key: string;
  readonly effect: string;
  readonly attempt: number;
  readonly at: number;
  readonly request: Request | null;
  readonly outputLimit: number;
}

export interface SettledRecord extends OpFields {
  readonly kind: "settled";
  readonly effect: string;
  readonly outcome: SettledOutcome;
  readonly at: number;
  readonly retryable: boolean;
  /** Kept as recorded: the retry wait ignores any value that is not a safe integer ≥ 0. */
  readonly retryAfterMs: unknown;
  readonly notBefore: number | null;
  readonly response: Response | null;
  readonly class: ResponseClass | null;
}

export interface ReadbackRecord extends OpFields {
  readonly kind: "readback";
  readonly effect: string;
  readonly found: ReadbackFinding;
  readonly at: number;
}

export interface CancelRequestedRecord extends OpFields {
  readonly kind: "cancel-requested";
  readonly at: number;
}

export interface FinishedRecord extends OpFields {
  readonly kind: "finished";
  readonly outcome: FinishedOutcome;
  readonly at: number;
}

export interface LeaseRecord {
  readonly kind: "lease";
  readonly strand: string;
  readonly epoch: number;
  readonly owner: string | null;
}

/** The records that name an op: every kind but `lease`, which names a strand. */
export type OpRecord =
  | AcceptedRecord
  | IntentRecord
  | SettledRecord
  | ReadbackRecord
  | CancelRequestedRecord
  | FinishedRecord;

/** A record that passed the integrity checks. */
export type OperationsRecord = OpRecord | LeaseRecord;

/** A safe integer ≥ 0. */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
