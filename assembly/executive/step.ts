/**
 * One step of the `executive` machine (docs/models/executive.md, "The step"; mirrors
 * src/models/executive/step.ts), on the working state (state.ts) and the observation read
 * (observation.ts), in the reference's order: the state's own refusal, the observation's, cancel,
 * the refusals of a stale or early observation, acceptance (the clock, the `steps` charge, the
 * deadline), what the observation means, then *next*. Every reject returns before the state is
 * touched, so a rejected observation leaves it as it was. The decision lands in the `decision*`
 * globals the host and the audit read.
 */

import {
  ObservationTag,
  Observed,
  observed,
  observedBytes,
  observedDetail,
  observedDetailLength,
  observedNow,
  observedOk,
  observedRetryable,
  observedSeq,
  observedTag,
} from "./observation";
import { checkpointEvery, Kind, Limit, planFirstStep, planStepCount, rootDepth, stepKind, stepSubPlan } from "./spec";
import {
  affordsStep,
  Budget,
  charge,
  detailPointer,
  enterLimits,
  FailReason,
  Field,
  frameCount,
  frameDoneCount,
  frameLimit,
  framePlan,
  frameSubStep,
  i32At,
  i64At,
  leastReady,
  markDone,
  Outstanding,
  popFrame,
  pushFrame,
  setI32,
  setI64,
  Status,
  topFrame,
} from "./state";

export namespace DecisionTag {
  export const EXECUTE: i32 = 0;
  export const CHECKPOINT: i32 = 1;
  export const WAIT: i32 = 2;
  export const COMPLETE: i32 = 3;
  export const FAIL: i32 = 4;
  export const REJECT: i32 = 5;
}

/** The reference's reject reasons, in its order. */
export namespace RejectReason {
  export const INVALID_STATE: i32 = 0;
  export const TERMINAL: i32 = 1;
  export const MALFORMED_OBSERVATION: i32 = 2;
  export const UNKNOWN_TAG: i32 = 3;
  export const OVERSIZED: i32 = 4;
  export const ALREADY_STARTED: i32 = 5;
  export const NOT_STARTED: i32 = 6;
  export const STALE_DECISION: i32 = 7;
  export const CLOCK_REGRESSED: i32 = 8;
}

export let decisionTag: i32 = 0;
export let decisionSeq: i64 = 0;
/** A reject's RejectReason or a fail's FailReason. */
export let decisionReason: i32 = 0;
/** A budget-exhausted fail's Budget. */
export let decisionBudget: i32 = Budget.NONE;
/** An execute's effect step (global index); its path is the frames' sub-plan steps, then it. */
export let decisionStep: i32 = -1;
export let decisionAttempt: i64 = 0;

function reject(reason: i32): void {
  decisionTag = DecisionTag.REJECT;
  decisionReason = reason;
}

/** Steps the working state by the observation read. */
export function stepState(): void {
  const status = i32At(Field.STATUS);
  if (status == Status.COMPLETED || status == Status.FAILED) return reject(RejectReason.TERMINAL);
  if (observed != Observed.OK) return reject(observed);
  const tag = observedTag;
  if (tag == ObservationTag.CANCEL) {
    if (i32At(Field.HAS_NOW) == 0 || observedNow >= i64At(Field.NOW)) setNow(observedNow);
    return fail(FailReason.CANCELLED, Budget.NONE);
  }
  const refusal = refusalOf(status, tag);
  if (refusal >= 0) return reject(refusal);
  setNow(observedNow);
  if (tag == ObservationTag.RESULT) {
    const length = observedDetailLength;
    setI32(Field.DETAIL_LENGTH, length);
    if (length > 0) memory.copy(detailPointer(), observedDetail, <usize>length);
  }
  if (!charge(Limit.STEPS, 1)) return fail(FailReason.BUDGET_EXHAUSTED, Limit.STEPS);
  if (observedNow >= frameLimit(topFrame(), Limit.DEADLINE)) return fail(FailReason.DEADLINE, Budget.NONE);
  if (tag == ObservationTag.TICK) {
    decisionTag = DecisionTag.WAIT;
    decisionSeq = i32At(Field.OUTSTANDING) == Outstanding.NONE ? i64At(Field.SEQ) : i64At(Field.OUTSTANDING_SEQ);
    return;
  }
  if (tag == ObservationTag.CHECKPOINTED) {
    setI64(Field.SINCE_CHECKPOINT, 0);
    setI32(Field.OUTSTANDING, Outstanding.NONE);
    return next();
  }
  if (tag == ObservationTag.START) {
    setI32(Field.STATUS, Status.RUNNING);
    return next();
  }
  result();
}

function setNow(now: i64): void {
  setI32(Field.HAS_NOW, 1);
  setI64(Field.NOW, now);
}

function refusalOf(status: i32, tag: i32): i32 {
  if (tag == ObservationTag.START) {
    if (status != Status.READY) return RejectReason.ALREADY_STARTED;
  } else if (status == Status.READY) {
    return RejectReason.NOT_STARTED;
  }
  const outstanding = i32At(Field.OUTSTANDING);
  const outstandingSeq = i64At(Field.OUTSTANDING_SEQ);
  if (tag == ObservationTag.RESULT && (outstanding != Outstanding.EXECUTE || outstandingSeq != observedSeq)) {
    return RejectReason.STALE_DECISION;
  }
  if (tag == ObservationTag.CHECKPOINTED && (outstanding != Outstanding.CHECKPOINT || outstandingSeq != observedSeq)) {
    return RejectReason.STALE_DECISION;
  }
  if (i32At(Field.HAS_NOW) != 0 && observedNow < i64At(Field.NOW)) return RejectReason.CLOCK_REGRESSED;
  return -1;
}

function result(): void {
  if (!charge(Limit.OUTPUT_BYTES, observedBytes)) return fail(FailReason.BUDGET_EXHAUSTED, Limit.OUTPUT_BYTES);
  const step = i32At(Field.OUTSTANDING_STEP);
  if (observedOk) {
    const frame = topFrame();
    markDone(frame, step - planFirstStep(framePlan(frame)));
    setI64(Field.SINCE_CHECKPOINT, i64At(Field.SINCE_CHECKPOINT) + 1);
    setI32(Field.OUTSTANDING, Outstanding.NONE);
    return next();
  }
  if (!observedRetryable) return fail(FailReason.EFFECT_FAILED, Budget.NONE);
  if (!charge(Limit.RETRIES, 1)) return fail(FailReason.BUDGET_EXHAUSTED, Limit.RETRIES);
  decideExecute(step, i64At(Field.ATTEMPT) + 1);
}

/** Pops finished frames, checkpoints when due, else decides the top frame's least ready step. */
function next(): void {
  const every = checkpointEvery();
  while (true) {
    const frame = topFrame();
    const plan = framePlan(frame);
    if (frameDoneCount(frame) == planStepCount(plan)) {
      if (frameCount() == 1) return complete();
      const subStep = frameSubStep(frame);
      popFrame();
      const parent = topFrame();
      markDone(parent, subStep - planFirstStep(framePlan(parent)));
      continue;
    }
    if (every >= 0 && i64At(Field.SINCE_CHECKPOINT) >= every) return decideCheckpoint();
    // A plan is a DAG: some step is ready until all are done.
    const step = planFirstStep(plan) + leastReady(frame);
    if (stepKind(step) != Kind.SUB_PLAN) return decideExecute(step, 1);
    if (<i64>frameCount() + 1 > rootDepth() + 1) return fail(FailReason.BUDGET_EXHAUSTED, Budget.DEPTH);
    const entered = pushFrame(stepSubPlan(step), step);
    enterLimits(frame, entered, step);
    if (frameLimit(entered, Limit.DEADLINE) <= i64At(Field.NOW)) {
      popFrame();
      return fail(FailReason.DEADLINE, Budget.NONE);
    }
  }
}

function decideExecute(step: i32, attempt: i64): void {
  if (!affordsStep()) return fail(FailReason.BUDGET_EXHAUSTED, Limit.STEPS);
  const calls = Limit.MODEL_CALLS + stepKind(step); // model, tool, context in Kind's order
  if (!charge(calls, 1)) return fail(FailReason.BUDGET_EXHAUSTED, calls);
  const seq = i64At(Field.SEQ) + 1;
  setI64(Field.SEQ, seq);
  setI32(Field.OUTSTANDING, Outstanding.EXECUTE);
  setI32(Field.OUTSTANDING_STEP, step);
  setI64(Field.OUTSTANDING_SEQ, seq);
  setI64(Field.ATTEMPT, attempt);
  decisionTag = DecisionTag.EXECUTE;
  decisionSeq = seq;
  decisionStep = step;
  decisionAttempt = attempt;
}

function decideCheckpoint(): void {
  if (!affordsStep()) return fail(FailReason.BUDGET_EXHAUSTED, Limit.STEPS);
  const seq = i64At(Field.SEQ) + 1;
  setI64(Field.SEQ, seq);
  setI32(Field.OUTSTANDING, Outstanding.CHECKPOINT);
  setI64(Field.OUTSTANDING_SEQ, seq);
  decisionTag = DecisionTag.CHECKPOINT;
  decisionSeq = seq;
}

function complete(): void {
  const seq = i64At(Field.SEQ) + 1;
  setI64(Field.SEQ, seq);
  setI32(Field.STATUS, Status.COMPLETED);
  setI32(Field.OUTSTANDING, Outstanding.NONE);
  decisionTag = DecisionTag.COMPLETE;
  decisionSeq = seq;
}

function fail(reason: i32, budget: i32): void {
  const seq = i64At(Field.SEQ) + 1;
  setI64(Field.SEQ, seq);
  setI32(Field.STATUS, Status.FAILED);
  setI32(Field.FAILURE_REASON, reason);
  setI32(Field.FAILURE_BUDGET, budget);
  setI32(Field.OUTSTANDING, Outstanding.NONE);
  decisionTag = DecisionTag.FAIL;
  decisionSeq = seq;
  decisionReason = reason;
  decisionBudget = budget;
}
