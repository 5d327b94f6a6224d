/**
 * The rules (docs/models/operations.md, "The rules"): every record is judged against the state
 * before it, the checks run in a fixed order, and the first that fails is the record's one
 * reason. For every record but `lease`: lifecycle, then fencing, then the checks of its kind.
 * A `lease` is only fenced: its epoch must rise.
 */

import { classify } from "./classify.js";
import type {
  AcceptedRecord,
  FinishedRecord,
  IntentRecord,
  LeaseRecord,
  OperationsRecord,
  OpRecord,
  ReadbackRecord,
  SettledRecord,
} from "./records.js";
import type { Reason } from "./report.js";
import { attemptsRemain, retryNotBefore } from "./retry-wait.js";
import {
  type Effect,
  fencingStrand,
  hasEffectIn,
  type Operation,
  type OperationsState,
  operationOf,
  type RetryWait,
} from "./state.js";

/** The record's one reason, or null when it breaks no rule. */
export function judge(state: OperationsState, record: OperationsRecord): Reason | null {
  if (record.kind === "lease") return leaseBreach(state, record);
  return (
    lifecycleBreach(state, record) ?? fencingBreach(state, record) ?? kindBreach(state, record)
  );
}

function leaseBreach(state: OperationsState, record: LeaseRecord): Reason | null {
  const last = state.strands.get(record.strand)?.epoch ?? null;
  return last === null || record.epoch > last ? null : "epoch-regressed";
}

function lifecycleBreach(state: OperationsState, record: OpRecord): Reason | null {
  const op = state.operations.get(record.op);
  if (record.kind === "accepted") return op === undefined ? null : "duplicate-operation";
  if (op === undefined) return "unknown-operation";
  return op.finished === null ? null : "operation-finished";
}

/** A leased strand admits only its current epoch; an unleased one does not look at epochs. */
function fencingBreach(state: OperationsState, record: OpRecord): Reason | null {
  const epoch = state.strands.get(fencingStrand(state, record))?.epoch ?? null;
  if (epoch === null) return null;
  if (record.epoch === null || record.epoch > epoch) return "epoch-mismatch";
  return record.epoch < epoch ? "stale-epoch" : null;
}

function kindBreach(state: OperationsState, record: OpRecord): Reason | null {
  switch (record.kind) {
    case "accepted":
      return acceptedBreach(state, record);
    case "intent":
      return intentBreach(state, record);
    case "settled":
      return settledBreach(operationOf(state, record), record, state.semantics?.retryWait);
    case "readback":
      return readbackBreach(operationOf(state, record), record);
    case "cancel-requested":
      return operationOf(state, record).control === "cancelled" ? "already-cancelled" : null;
    case "finished":
      return finishedBreach(operationOf(state, record), record);
    default: {
      const unreachable: never = record;
      return unreachable;
    }
  }
}

function acceptedBreach(state: OperationsState, record: AcceptedRecord): Reason | null {
  const current = state.strands.get(record.strand)?.current ?? null;
  return current === null ? null : "strand-busy";
}

function intentBreach(state: OperationsState, record: IntentRecord): Reason | null {
  const op = operationOf(state, record);
  if (state.reserved.has(record.effect)) return "effect-reused";
  if (op.control === "cancelled") return "cancelled";
  if (hasEffectIn(op, ["unknown"])) return "outcome-unknown";
  return attemptBreach(op, record);
}

/** exactlyOnce, then retryLadder: what the step's status allows as its next attempt. */
function attemptBreach(op: Operation, record: IntentRecord): Reason | null {
  const step = op.steps.get(record.key);
  if (step === undefined) return record.attempt === 1 ? null : "attempt-mismatch";
  switch (step.status) {
    case "pending":
      return "step-in-flight";
    // Unreachable here: an unknown step's current effect is unknown, which the check before
    // (outcome-unknown) already reports. Its attempt is still out, as a pending one is.
    case "unknown":
      return "step-in-flight";
    case "ok":
      return "step-completed";
    case "failed":
      return "retry-not-allowed";
    case "retry-wait":
      if (record.attempt !== step.attempt + 1) return "attempt-mismatch";
      return BigInt(record.at) >= (step.notBefore as bigint) ? null : "retry-too-early";
    default: {
      const unreachable: never = step.status;
      return unreachable;
    }
  }
}

function settledBreach(op: Operation, record: SettledRecord, wait?: RetryWait): Reason | null {
  const effect = op.effects.get(record.effect);
  if (effect === undefined) return "no-intent";
  if (effect.status === "settled" || effect.status === "resolved") return "already-settled";
  if (effect.status === "unknown") return "awaiting-readback";
  if (record.notBefore !== null) {
    if (!schedulesRetry(op, effect, record)) return "no-retry";
    const due = retryNotBefore(
      op.policy,
      record.at,
      effect.attempt,
      record.effect,
      record.retryAfterMs,
      wait,
    );
    if (BigInt(record.notBefore) !== due) return "ladder-mismatch";
  }
  if (
    record.class !== null &&
    record.response !== null &&
    record.class !== classify(op.control, record.response, effect.request, effect.outputLimit)
  ) {
    return "misclassified";
  }
  return record.at >= effect.intentAt ? null : "out-of-order";
}

/** A settlement schedules a retry when it fails its step's current attempt retryably, with attempts left. */
export function schedulesRetry(op: Operation, effect: Effect, record: SettledRecord): boolean {
  return (
    op.steps.get(effect.key)?.effect === record.effect &&
    record.outcome === "error" &&
    record.retryable &&
    attemptsRemain(op.policy, effect.attempt)
  );
}

function readbackBreach(op: Operation, record: ReadbackRecord): Reason | null {
  const effect = op.effects.get(record.effect);
  if (effect === undefined) return "no-intent";
  if (effect.status !== "unknown") return "not-unknown";
  return record.at >= (effect.settledAt as number) ? null : "out-of-order";
}

function finishedBreach(op: Operation, record: FinishedRecord): Reason | null {
  if (hasEffectIn(op, ["pending", "unknown"])) return "effects-outstanding";
  const aborted = record.outcome === "aborted";
  return aborted === (op.control === "cancelled") ? null : "outcome-mismatch";
}
