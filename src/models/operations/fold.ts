/**
 * The fold (docs/models/operations.md, "What a record changes"): `foldRecord` is the single
 * primitive that moves the state. It judges the record against the state before it (rules.ts)
 * and then applies what the runtime demonstrably did — a legal record, and a breaking one whose
 * act the model can still place — while a record that repeats, contradicts or cannot be placed
 * changes nothing. So one fault is one finding, not a cascade.
 */

import { apply, withStrandEpoch } from "./apply.js";
import type { OperationsRecord, OpRecord } from "./records.js";
import type { Reason } from "./report.js";
import { judge } from "./rules.js";
import { fencingStrand, type OperationsState } from "./state.js";

export interface Judged {
  readonly state: OperationsState;
  /** The record's one reason, or null when it is legal. */
  readonly reason: Reason | null;
}

export function foldRecord(state: OperationsState, record: OperationsRecord): Judged {
  const reason = judgeOf(state)(state, record);
  return {
    state: reason === null ? applyOf(state)(state, record) : afterBreach(state, record, reason),
    reason,
  };
}

/** The rules and the changes of the state's own semantics (a mutant's, in explore), else the reference's. */
function judgeOf(state: OperationsState): typeof judge {
  return state.semantics?.judge ?? judge;
}

function applyOf(state: OperationsState): typeof apply {
  return state.semantics?.apply ?? apply;
}

/** What a record that broke a rule for `reason` still changes. */
function afterBreach(
  state: OperationsState,
  record: OperationsRecord,
  reason: Reason,
): OperationsState {
  switch (reason) {
    case "unknown-operation":
    case "operation-finished":
    case "duplicate-operation":
    case "stale-epoch":
    case "epoch-regressed":
    case "effect-reused":
    case "no-intent":
    case "already-settled":
    case "awaiting-readback":
    case "not-unknown":
    case "already-cancelled":
      return state;
    // Missing, the epoch proves nothing; present, it is higher than the strand's (a lower one
    // is stale-epoch). A lease is never epoch-mismatch: the check is for its type.
    case "epoch-mismatch":
      return record.kind === "lease" || record.epoch === null
        ? state
        : asTakeover(state, record, record.epoch);
    case "strand-busy":
    case "cancelled":
    case "outcome-unknown":
    case "step-in-flight":
    case "step-completed":
    case "retry-not-allowed":
    case "attempt-mismatch":
    case "retry-too-early":
    case "out-of-order":
    case "no-retry":
    case "ladder-mismatch":
    case "misclassified":
    case "effects-outstanding":
    case "outcome-mismatch":
      return applyOf(state)(state, record);
    default: {
      const unreachable: never = reason;
      return unreachable;
    }
  }
}

/**
 * A record with a higher epoch than its strand's is evidence of a takeover the journal lost:
 * the strand adopts the epoch, and the record is then judged and applied under it (its reported
 * reason stays epoch-mismatch).
 */
function asTakeover(state: OperationsState, record: OpRecord, epoch: number): OperationsState {
  const adopted = withStrandEpoch(state, fencingStrand(state, record), epoch);
  const reason = judgeOf(adopted)(adopted, record);
  return reason === null ? applyOf(adopted)(adopted, record) : afterBreach(adopted, record, reason);
}
