/**
 * The report of the `operations` model (docs/models/operations.md, "The report"): the shared
 * outer shape, its twelve rules in their order, every reason and the rule it belongs to, and
 * the `final` summary. `line` is present beside every `index` when the records came from a
 * journal file.
 */

import { FINDINGS_LISTED_MAX, type ReportFrame } from "../report-frame.js";
import type { IntegrityReason } from "./integrity.js";

/** The report's `invariants` keys, in report order. */
export const RULE_NAMES = [
  "lifecycle",
  "fencing",
  "oneOperationPerStrand",
  "freshIdentity",
  "effectSandwich",
  "settleOnce",
  "uncertaintyHeld",
  "exactlyOnce",
  "retryLadder",
  "cancellation",
  "finality",
  "classification",
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** Each reason a record can break a rule for, and that rule. */
export const RULE_OF_REASON = {
  "unknown-operation": "lifecycle",
  "operation-finished": "lifecycle",
  "duplicate-operation": "lifecycle",
  "stale-epoch": "fencing",
  "epoch-mismatch": "fencing",
  "epoch-regressed": "fencing",
  "strand-busy": "oneOperationPerStrand",
  "effect-reused": "freshIdentity",
  cancelled: "cancellation",
  "outcome-unknown": "uncertaintyHeld",
  "attempt-mismatch": "exactlyOnce",
  "step-in-flight": "exactlyOnce",
  "step-completed": "exactlyOnce",
  "retry-not-allowed": "exactlyOnce",
  "retry-too-early": "retryLadder",
  "no-intent": "effectSandwich",
  "already-settled": "settleOnce",
  "awaiting-readback": "settleOnce",
  "no-retry": "retryLadder",
  "ladder-mismatch": "retryLadder",
  misclassified: "classification",
  "out-of-order": "effectSandwich",
  "not-unknown": "uncertaintyHeld",
  "already-cancelled": "cancellation",
  "effects-outstanding": "finality",
  "outcome-mismatch": "finality",
} as const satisfies Record<string, RuleName>;
export type Reason = keyof typeof RULE_OF_REASON;

export const REASONS = Object.keys(RULE_OF_REASON) as readonly Reason[];

/** How many illegal records a report lists; it counts all of them. */
export const ILLEGAL_RECORDS_LISTED_MAX = FINDINGS_LISTED_MAX;

/** Whom a finding is about: the op, or for a `lease` record its strand; and the effect, if any. */
export type FindingSubject = ({ readonly op: string } | { readonly strand: string }) & {
  readonly effect?: string;
};

export type RuleVerdict =
  | { readonly holds: true }
  | ({ readonly holds: false; readonly index: number; readonly line?: number } & FindingSubject);

export type InvariantsReport = { readonly [rule in RuleName]: RuleVerdict };

export type IllegalRecord = {
  readonly index: number;
  readonly line?: number;
  readonly kind: string;
} & FindingSubject & { readonly reason: Reason };

export interface IntegrityReport {
  readonly index: number;
  readonly line?: number;
  readonly reason: IntegrityReason;
  readonly message: string;
}

export interface OperationCounts {
  readonly running: number;
  readonly cancelled: number;
  readonly completed: number;
  readonly failed: number;
  readonly aborted: number;
}

export interface StepCounts {
  readonly pending: number;
  readonly ok: number;
  readonly failed: number;
  readonly retryWait: number;
  readonly unknown: number;
}

export interface FinalSummary {
  /** A partition: unfinished ops by control, finished ones by their recorded outcome. */
  readonly operations: OperationCounts;
  /** The steps of unfinished ops, by status. */
  readonly steps: StepCounts;
  /** Effect ids ever reserved. */
  readonly effects: number;
  /** Strands named by an applied `accepted` or `lease`. */
  readonly strands: number;
}

/** Every rule is a legality rule, so `strictlyConformant` always equals `conformant`. */
export type OperationsReport = ReportFrame<
  "operations",
  IntegrityReport,
  InvariantsReport,
  IllegalRecord,
  FinalSummary
>;
