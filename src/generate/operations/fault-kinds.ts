/**
 * The faults `statefold gen --model operations` can inject (docs/models/operations.md, "The
 * rules"), each with the one finding an audit gives at its line. Each is a record the simulated
 * runtime writes in place of a well-behaved one, chosen so that what the model then does with it
 * ("What a breaking record still changes") is what the runtime goes on from: one fault, one
 * finding.
 */
import type { Reason, RuleName } from "../../models/operations/report.js";

export const OPERATIONS_FAULT_KINDS = [
  "stale-epoch",
  "duplicate-settlement",
  "blind-retry",
  "early-retry",
  "wrong-not-before",
  "reused-effect",
  "intent-after-cancel",
  "finish-outstanding",
  "misclassified",
  "busy-strand",
] as const;

export type OperationsFaultKind = (typeof OPERATIONS_FAULT_KINDS)[number];

/** The finding each kind is: its rule and reason. */
export const OPERATIONS_FAULT_FINDINGS: Readonly<
  Record<OperationsFaultKind, { readonly rule: RuleName; readonly reason: Reason }>
> = {
  "stale-epoch": { rule: "fencing", reason: "stale-epoch" },
  "duplicate-settlement": { rule: "settleOnce", reason: "already-settled" },
  "blind-retry": { rule: "uncertaintyHeld", reason: "outcome-unknown" },
  "early-retry": { rule: "retryLadder", reason: "retry-too-early" },
  "wrong-not-before": { rule: "retryLadder", reason: "ladder-mismatch" },
  "reused-effect": { rule: "freshIdentity", reason: "effect-reused" },
  "intent-after-cancel": { rule: "cancellation", reason: "cancelled" },
  "finish-outstanding": { rule: "finality", reason: "effects-outstanding" },
  misclassified: { rule: "classification", reason: "misclassified" },
  "busy-strand": { rule: "oneOperationPerStrand", reason: "strand-busy" },
};

/** One line each, for `statefold gen --help`. */
export const OPERATIONS_FAULT_DESCRIPTIONS: Readonly<Record<OperationsFaultKind, string>> = {
  "stale-epoch": "a write under the strand's previous epoch after a new lease: stale-epoch",
  "duplicate-settlement": "a settlement written again: already-settled",
  "blind-retry": "a retry after an unknown outcome, without a readback: outcome-unknown",
  "early-retry": "a retry before its notBefore: retry-too-early",
  "wrong-not-before": "a settlement whose notBefore is off by one: ladder-mismatch",
  "reused-effect": "an intent under an effect id reserved before: effect-reused",
  "intent-after-cancel": "an intent of a cancelled op: cancelled",
  "finish-outstanding": "an op finished with an effect pending or unknown: effects-outstanding",
  misclassified: "a response with a class that is not classify's: misclassified",
  "busy-strand": "a second op accepted on a busy strand: strand-busy",
};

/** Where each kind can go, for the message refusing a plan the journal cannot hold. */
export const OPERATIONS_FAULT_PLACES: Readonly<Record<OperationsFaultKind, string>> = {
  "stale-epoch": "a strand leased twice",
  "duplicate-settlement": "a running op with a settled effect",
  "blind-retry": "a running op whose step's outcome is unknown",
  "early-retry": "a step waiting to be retried",
  "wrong-not-before": "a pending effect whose step may be retried",
  "reused-effect": "a running op, once an effect id is reserved",
  "intent-after-cancel": "a cancelled op with no effect outstanding",
  "finish-outstanding": "a running op with an effect pending or unknown",
  misclassified: "a pending effect",
  "busy-strand": "a busy strand",
};
