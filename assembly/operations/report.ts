/**
 * The reasons and rules of the `operations` report (docs/models/operations.md, "The rules" and
 * "The report"; mirrors src/models/operations/report.ts): codes in the reference's orders —
 * RULE_NAMES, and the reasons as RULE_OF_REASON lists them.
 */

export namespace Rule {
  export const LIFECYCLE: i32 = 0;
  export const FENCING: i32 = 1;
  export const ONE_OPERATION_PER_STRAND: i32 = 2;
  export const FRESH_IDENTITY: i32 = 3;
  export const EFFECT_SANDWICH: i32 = 4;
  export const SETTLE_ONCE: i32 = 5;
  export const UNCERTAINTY_HELD: i32 = 6;
  export const EXACTLY_ONCE: i32 = 7;
  export const RETRY_LADDER: i32 = 8;
  export const CANCELLATION: i32 = 9;
  export const FINALITY: i32 = 10;
  export const CLASSIFICATION: i32 = 11;
  export const COUNT: i32 = 12;
}

export namespace Reason {
  export const NONE: i32 = -1;
  export const UNKNOWN_OPERATION: i32 = 0;
  export const OPERATION_FINISHED: i32 = 1;
  export const DUPLICATE_OPERATION: i32 = 2;
  export const STALE_EPOCH: i32 = 3;
  export const EPOCH_MISMATCH: i32 = 4;
  export const EPOCH_REGRESSED: i32 = 5;
  export const STRAND_BUSY: i32 = 6;
  export const EFFECT_REUSED: i32 = 7;
  export const CANCELLED: i32 = 8;
  export const OUTCOME_UNKNOWN: i32 = 9;
  export const ATTEMPT_MISMATCH: i32 = 10;
  export const STEP_IN_FLIGHT: i32 = 11;
  export const STEP_COMPLETED: i32 = 12;
  export const RETRY_NOT_ALLOWED: i32 = 13;
  export const RETRY_TOO_EARLY: i32 = 14;
  export const NO_INTENT: i32 = 15;
  export const ALREADY_SETTLED: i32 = 16;
  export const AWAITING_READBACK: i32 = 17;
  export const NO_RETRY: i32 = 18;
  export const LADDER_MISMATCH: i32 = 19;
  export const MISCLASSIFIED: i32 = 20;
  export const OUT_OF_ORDER: i32 = 21;
  export const NOT_UNKNOWN: i32 = 22;
  export const ALREADY_CANCELLED: i32 = 23;
  export const EFFECTS_OUTSTANDING: i32 = 24;
  export const OUTCOME_MISMATCH: i32 = 25;
}

/** The rule each reason belongs to. */
export function ruleOf(reason: i32): i32 {
  switch (reason) {
    case Reason.UNKNOWN_OPERATION:
    case Reason.OPERATION_FINISHED:
    case Reason.DUPLICATE_OPERATION:
      return Rule.LIFECYCLE;
    case Reason.STALE_EPOCH:
    case Reason.EPOCH_MISMATCH:
    case Reason.EPOCH_REGRESSED:
      return Rule.FENCING;
    case Reason.STRAND_BUSY:
      return Rule.ONE_OPERATION_PER_STRAND;
    case Reason.EFFECT_REUSED:
      return Rule.FRESH_IDENTITY;
    case Reason.CANCELLED:
    case Reason.ALREADY_CANCELLED:
      return Rule.CANCELLATION;
    case Reason.OUTCOME_UNKNOWN:
    case Reason.NOT_UNKNOWN:
      return Rule.UNCERTAINTY_HELD;
    case Reason.ATTEMPT_MISMATCH:
    case Reason.STEP_IN_FLIGHT:
    case Reason.STEP_COMPLETED:
    case Reason.RETRY_NOT_ALLOWED:
      return Rule.EXACTLY_ONCE;
    case Reason.RETRY_TOO_EARLY:
    case Reason.NO_RETRY:
    case Reason.LADDER_MISMATCH:
      return Rule.RETRY_LADDER;
    case Reason.NO_INTENT:
    case Reason.OUT_OF_ORDER:
      return Rule.EFFECT_SANDWICH;
    case Reason.ALREADY_SETTLED:
    case Reason.AWAITING_READBACK:
      return Rule.SETTLE_ONCE;
    case Reason.MISCLASSIFIED:
      return Rule.CLASSIFICATION;
    default: // EFFECTS_OUTSTANDING, OUTCOME_MISMATCH
      return Rule.FINALITY;
  }
}
