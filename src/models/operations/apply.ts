/**
 * What a record does to the state when it is applied (docs/models/operations.md, "What a
 * record changes"): a legal record, or a breaking one whose act the model can still place
 * (fold.ts decides which). A settlement or readback moves its effect, and moves the step only
 * when the effect is the step's current attempt.
 */

import type {
  AcceptedRecord,
  CancelRequestedRecord,
  FinishedRecord,
  IntentRecord,
  LeaseRecord,
  OperationsRecord,
  Policy,
  ReadbackRecord,
  SettledRecord,
} from "./records.js";
import { attemptsRemain, retryNotBefore } from "./retry-wait.js";
import {
  type Effect,
  emptyTable,
  NEW_STRAND,
  type Operation,
  type OperationsState,
  operationOf,
  type RetryWait,
  type Step,
  withEntry,
  withMember,
} from "./state.js";

/** A record applied as its kind says, whatever rule it broke. */
export function apply(state: OperationsState, record: OperationsRecord): OperationsState {
  switch (record.kind) {
    case "accepted":
      return applyAccepted(state, record);
    case "intent":
      return applyIntent(state, record);
    case "settled":
      return applySettled(state, record);
    case "readback":
      return applyReadback(state, record);
    case "cancel-requested":
      return applyCancel(state, record);
    case "finished":
      return applyFinished(state, record);
    case "lease":
      return applyLease(state, record);
    default: {
      const unreachable: never = record;
      return unreachable;
    }
  }
}

function applyAccepted(state: OperationsState, record: AcceptedRecord): OperationsState {
  const op: Operation = Object.freeze({
    strand: record.strand,
    policy: record.policy,
    control: "running",
    finished: null,
    steps: emptyTable<Step>(),
    effects: emptyTable<Effect>(),
  });
  const strand = state.strands.get(record.strand) ?? NEW_STRAND;
  return Object.freeze({
    ...state,
    operations: withEntry(state.operations, record.op, op),
    strands: withEntry(
      state.strands,
      record.strand,
      Object.freeze({ ...strand, current: record.op }),
    ),
  });
}

function applyIntent(state: OperationsState, record: IntentRecord): OperationsState {
  const op = operationOf(state, record);
  const effect: Effect = Object.freeze({
    key: record.key,
    attempt: record.attempt,
    intentAt: record.at,
    request: record.request,
    outputLimit: record.outputLimit,
    settledAt: null,
    status: "pending",
  });
  const step: Step = Object.freeze({
    attempt: record.attempt,
    effect: record.effect,
    status: "pending",
    notBefore: null,
  });
  return Object.freeze({
    ...withOperation(state, record.op, {
      ...op,
      effects: withEntry(op.effects, record.effect, effect),
      steps: withEntry(op.steps, record.key, step),
    }),
    reserved: withMember(state.reserved, record.effect),
  });
}

/** The effect takes its outcome; its step moves only when the effect is the step's current one. */
function applySettled(state: OperationsState, record: SettledRecord): OperationsState {
  const op = operationOf(state, record);
  const effect = op.effects.get(record.effect) as Effect;
  const settled = Object.freeze({
    ...effect,
    status: record.outcome === "unknown" ? ("unknown" as const) : ("settled" as const),
    settledAt: record.at,
  });
  const step = currentStep(op, effect.key, record.effect);
  const steps =
    step === null
      ? op.steps
      : withEntry(
          op.steps,
          effect.key,
          stepAfterSettlement(op.policy, step, record, state.semantics?.retryWait),
        );
  return withOperation(state, record.op, {
    ...op,
    effects: withEntry(op.effects, record.effect, settled),
    steps,
  });
}

function stepAfterSettlement(
  policy: Policy,
  step: Step,
  record: SettledRecord,
  wait?: RetryWait,
): Step {
  switch (record.outcome) {
    case "ok":
      return Object.freeze({ ...step, status: "ok" });
    case "unknown":
      return Object.freeze({ ...step, status: "unknown" });
    case "error":
      return record.retryable
        ? afterRetryableFailure(policy, step, record.at, record.retryAfterMs, wait)
        : Object.freeze({ ...step, status: "failed" });
    default: {
      const unreachable: never = record.outcome;
      return unreachable;
    }
  }
}

function applyReadback(state: OperationsState, record: ReadbackRecord): OperationsState {
  const op = operationOf(state, record);
  const effect = op.effects.get(record.effect) as Effect;
  const step = currentStep(op, effect.key, record.effect);
  const steps =
    step === null
      ? op.steps
      : withEntry(
          op.steps,
          effect.key,
          stepAfterReadback(op.policy, step, record, state.semantics?.retryWait),
        );
  return withOperation(state, record.op, {
    ...op,
    effects: withEntry(
      op.effects,
      record.effect,
      Object.freeze({ ...effect, status: "resolved" as const }),
    ),
    steps,
  });
}

/** An absent effect never happened: a retryable failure at the readback's time, with no hint. */
function stepAfterReadback(
  policy: Policy,
  step: Step,
  record: ReadbackRecord,
  wait?: RetryWait,
): Step {
  switch (record.found) {
    case "committed":
      return Object.freeze({ ...step, status: "ok" });
    case "absent":
      return afterRetryableFailure(policy, step, record.at, undefined, wait);
    default: {
      const unreachable: never = record.found;
      return unreachable;
    }
  }
}

/** retry-wait on the ladder while attempts remain, else failed. */
function afterRetryableFailure(
  policy: Policy,
  step: Step,
  at: number,
  hint: unknown,
  wait?: RetryWait,
): Step {
  if (!attemptsRemain(policy, step.attempt)) return Object.freeze({ ...step, status: "failed" });
  const notBefore = retryNotBefore(policy, at, step.attempt, step.effect, hint, wait);
  return Object.freeze({ ...step, status: "retry-wait", notBefore });
}

/** The step `key` when `effect` is its current attempt's effect, else null. */
function currentStep(op: Operation, key: string, effect: string): Step | null {
  const step = op.steps.get(key);
  return step !== undefined && step.effect === effect ? step : null;
}

function applyCancel(state: OperationsState, record: CancelRequestedRecord): OperationsState {
  return withOperation(state, record.op, { ...operationOf(state, record), control: "cancelled" });
}

/** The op ends with the outcome it records; its steps and effects go, their ids stay reserved. */
function applyFinished(state: OperationsState, record: FinishedRecord): OperationsState {
  const op = operationOf(state, record);
  const finished = withOperation(state, record.op, {
    ...op,
    finished: record.outcome,
    steps: emptyTable<Step>(),
    effects: emptyTable<Effect>(),
  });
  const strand = state.strands.get(op.strand) ?? NEW_STRAND;
  if (strand.current !== record.op) return finished;
  return Object.freeze({
    ...finished,
    strands: withEntry(state.strands, op.strand, Object.freeze({ ...strand, current: null })),
  });
}

function applyLease(state: OperationsState, record: LeaseRecord): OperationsState {
  return withStrandEpoch(state, record.strand, record.epoch);
}

/** The strand, created if it is new, at `epoch`. */
export function withStrandEpoch(
  state: OperationsState,
  strandId: string,
  epoch: number,
): OperationsState {
  const strand = state.strands.get(strandId) ?? NEW_STRAND;
  return Object.freeze({
    ...state,
    strands: withEntry(state.strands, strandId, Object.freeze({ ...strand, epoch })),
  });
}

function withOperation(state: OperationsState, opId: string, op: Operation): OperationsState {
  return Object.freeze({
    ...state,
    operations: withEntry(state.operations, opId, Object.freeze(op)),
  });
}
