/**
 * What a record does to the state when it is applied (docs/models/operations.md, "What a record
 * changes"; mirrors src/models/operations/apply.ts): a legal record, or a breaking one whose act
 * the model can still place (fold.ts decides which). A settlement or readback moves its effect,
 * and moves the step only when the effect is the step's current attempt. Allocation failures
 * leave `outOfMemory` set (state.ts); the audit then stops.
 */

import { ENTRY_ID, ENTRY_ID_LENGTH } from "./ids";
import { retryHint } from "./integrity";
import { Found, isPresent, Kind, Path, SettledOutcome, text, textHash, textLength, value } from "./records";
import { recordEffect, recordKind, recordOp } from "./rules";
import { retryWait } from "./retry-wait";
import {
  attemptsRemain,
  cancel,
  EffectStatus,
  finishOp,
  LIVE_ATTEMPT,
  LIVE_INTENT_AT,
  LIVE_OUTPUT_LIMIT,
  LIVE_SETTLED_AT,
  LIVE_STEP,
  liveEffectOf,
  newOp,
  OP_BASE_DELAY,
  OP_MAX_DELAY,
  reserveEffect,
  setEffectStatus,
  setStepStatus,
  setStrandEpoch,
  STEP_ATTEMPT,
  STEP_EFFECT,
  STEP_NOT_BEFORE,
  stepNamed,
  StepStatus,
  STRAND_CURRENT,
  strandNamed,
} from "./state";

/** The policy of an op accepted without one: a single attempt, no retries. */
const NO_RETRY_MAX_ATTEMPTS: i64 = 1;

/** A record applied as its kind says, whatever rule it broke. */
export function apply(): void {
  switch (recordKind) {
    case Kind.ACCEPTED:
      return applyAccepted();
    case Kind.INTENT:
      return applyIntent();
    case Kind.SETTLED:
      return applySettled();
    case Kind.READBACK:
      return applyReadback();
    case Kind.CANCEL_REQUESTED:
      return cancel(recordOp);
    case Kind.FINISHED:
      return finishOp(recordOp, <i32>value(Path.OUTCOME));
    default: {
      const strand = strandNamed(text(Path.STRAND), textLength(Path.STRAND), textHash(Path.STRAND));
      if (strand != 0) setStrandEpoch(strand, value(Path.EPOCH));
    }
  }
}

function applyAccepted(): void {
  const strand = strandNamed(text(Path.STRAND), textLength(Path.STRAND), textHash(Path.STRAND));
  if (strand == 0) return;
  const hasPolicy = isPresent(Path.POLICY);
  const op = newOp(
    text(Path.OP),
    textLength(Path.OP),
    textHash(Path.OP),
    strand,
    hasPolicy ? value(Path.POLICY_MAX_ATTEMPTS) : NO_RETRY_MAX_ATTEMPTS,
    hasPolicy ? value(Path.POLICY_BASE_DELAY_MS) : 0,
    hasPolicy ? value(Path.POLICY_MAX_DELAY_MS) : 0,
  );
  if (op == 0) return;
  store<u32>(strand, <u32>op, STRAND_CURRENT);
}

function applyIntent(): void {
  const step = stepNamed(recordOp, text(Path.KEY), textLength(Path.KEY), textHash(Path.KEY));
  if (step == 0) return;
  const hasRequest = isPresent(Path.REQUEST);
  const live = reserveEffect(
    recordOp,
    text(Path.EFFECT),
    textLength(Path.EFFECT),
    textHash(Path.EFFECT),
    hasRequest,
    hasRequest ? text(Path.REQUEST_PROVIDER) : 0,
    hasRequest ? textLength(Path.REQUEST_PROVIDER) : 0,
    hasRequest ? text(Path.REQUEST_MODEL) : 0,
    hasRequest ? textLength(Path.REQUEST_MODEL) : 0,
    hasRequest ? text(Path.REQUEST_API) : 0,
    hasRequest ? textLength(Path.REQUEST_API) : 0,
  );
  if (live == 0) return;
  const attempt = value(Path.ATTEMPT);
  store<u32>(live, <u32>step, LIVE_STEP);
  store<i64>(live, attempt, LIVE_ATTEMPT);
  store<i64>(live, value(Path.AT), LIVE_INTENT_AT);
  store<i64>(live, isPresent(Path.OUTPUT_LIMIT) ? value(Path.OUTPUT_LIMIT) : 0, LIVE_OUTPUT_LIMIT);
  store<i64>(step, attempt, STEP_ATTEMPT);
  store<u32>(step, load<u32>(live), STEP_EFFECT); // the effect entry
  setStepStatus(step, StepStatus.PENDING);
}

/** The step of a live effect when the effect is its current attempt, else 0. */
function currentStep(live: usize): usize {
  const step = <usize>load<u32>(live, LIVE_STEP);
  return <usize>load<u32>(step, STEP_EFFECT) == recordEffect ? step : 0;
}

/** The effect takes its outcome; its step moves only when the effect is the step's current one. */
function applySettled(): void {
  const live = liveEffectOf(recordOp, recordEffect);
  const outcome = <i32>value(Path.OUTCOME);
  const at = value(Path.AT);
  setEffectStatus(live, outcome == SettledOutcome.UNKNOWN ? EffectStatus.UNKNOWN : EffectStatus.SETTLED);
  store<i64>(live, at, LIVE_SETTLED_AT);
  const step = currentStep(live);
  if (step == 0) return;
  if (outcome == SettledOutcome.OK) {
    setStepStatus(step, StepStatus.OK);
  } else if (outcome == SettledOutcome.UNKNOWN) {
    setStepStatus(step, StepStatus.UNKNOWN);
  } else if (isPresent(Path.RETRYABLE) && value(Path.RETRYABLE) == 1) {
    afterRetryableFailure(step, at, retryHint());
  } else {
    setStepStatus(step, StepStatus.FAILED);
  }
}

function applyReadback(): void {
  const live = liveEffectOf(recordOp, recordEffect);
  setEffectStatus(live, EffectStatus.RESOLVED);
  const step = currentStep(live);
  if (step == 0) return;
  if (<i32>value(Path.FOUND) == Found.COMMITTED) setStepStatus(step, StepStatus.OK);
  else afterRetryableFailure(step, value(Path.AT), -1); // absent: never happened, no hint
}

/** retry-wait on the ladder while attempts remain, else failed. */
function afterRetryableFailure(step: usize, at: i64, hint: i64): void {
  const attempt = load<i64>(step, STEP_ATTEMPT);
  if (!attemptsRemain(recordOp, attempt)) {
    setStepStatus(step, StepStatus.FAILED);
    return;
  }
  const effect = <usize>load<u32>(step, STEP_EFFECT);
  const wait = retryWait(
    load<i64>(recordOp, OP_BASE_DELAY),
    load<i64>(recordOp, OP_MAX_DELAY),
    attempt,
    <usize>load<u32>(effect, ENTRY_ID),
    <usize>load<u32>(effect, ENTRY_ID_LENGTH),
    hint,
  );
  store<i64>(step, at + wait, STEP_NOT_BEFORE);
  setStepStatus(step, StepStatus.RETRY_WAIT);
}
