/**
 * The rules (docs/models/operations.md, "The rules"; mirrors src/models/operations/rules.ts):
 * every record is judged against the state before it, the checks run in a fixed order, and the
 * first that fails is the record's one reason. For every record but `lease`: lifecycle, then
 * fencing, then the checks of its kind. A `lease` is only fenced: its epoch must rise.
 *
 * The record is the one in the slots of records.ts; fold.ts has looked up its op and its effect.
 */

import { classify, setHandle, setResponse } from "./classify";
import { retryHint } from "./integrity";
import { ENTRY_ID, ENTRY_ID_LENGTH } from "./ids";
import { isPresent, Kind, Path, SettledOutcome, text, textHash, textLength, value } from "./records";
import { Reason } from "./report";
import { retryWait } from "./retry-wait";
import {
  attemptsRemain,
  Control,
  EffectStatus,
  findStep,
  findStrand,
  LIVE_ATTEMPT,
  LIVE_HAS_REQUEST,
  LIVE_INTENT_AT,
  LIVE_OUTPUT_LIMIT,
  LIVE_REQUEST,
  LIVE_SETTLED_AT,
  LIVE_STATUS,
  LIVE_STEP,
  liveEffectOf,
  OP_BASE_DELAY,
  OP_CONTROL,
  OP_FINISHED,
  OP_MAX_DELAY,
  OP_PENDING,
  OP_STRAND,
  OP_UNKNOWN,
  STEP_ATTEMPT,
  STEP_EFFECT,
  STEP_NOT_BEFORE,
  STEP_STATUS,
  StepStatus,
  STRAND_CURRENT,
  STRAND_EPOCH,
  STRAND_HAS_EPOCH,
} from "./state";

/** The record's kind, its op's entry (0: none) and its effect id's entry (0: never reserved). */
export let recordKind: i32 = 0;
export let recordOp: usize = 0;
export let recordEffect: usize = 0;

export function useRecord(kind: i32, op: usize, effect: usize): void {
  recordKind = kind;
  recordOp = op;
  recordEffect = effect;
}

/** The record's one reason, or Reason.NONE when it breaks no rule. */
export function judge(): i32 {
  if (recordKind == Kind.LEASE) return leaseBreach();
  let reason = lifecycleBreach();
  if (reason == Reason.NONE) reason = fencingBreach();
  if (reason == Reason.NONE) reason = kindBreach();
  return reason;
}

function leaseBreach(): i32 {
  const strand = findStrand(text(Path.STRAND), textLength(Path.STRAND), textHash(Path.STRAND));
  if (strand == 0 || load<u32>(strand, STRAND_HAS_EPOCH) == 0) return Reason.NONE;
  return value(Path.EPOCH) > load<i64>(strand, STRAND_EPOCH) ? Reason.NONE : Reason.EPOCH_REGRESSED;
}

function lifecycleBreach(): i32 {
  if (recordKind == Kind.ACCEPTED) return recordOp == 0 ? Reason.NONE : Reason.DUPLICATE_OPERATION;
  if (recordOp == 0) return Reason.UNKNOWN_OPERATION;
  return load<u8>(recordOp, OP_FINISHED) == 0 ? Reason.NONE : Reason.OPERATION_FINISHED;
}

/** The strand whose lease fences the record: the one an `accepted` names, else its op's (0: none yet). */
export function fencingStrand(): usize {
  if (recordKind == Kind.ACCEPTED) return findStrand(text(Path.STRAND), textLength(Path.STRAND), textHash(Path.STRAND));
  return <usize>load<u32>(recordOp, OP_STRAND);
}

/** A leased strand admits only its current epoch; an unleased one does not look at epochs. */
function fencingBreach(): i32 {
  const strand = fencingStrand();
  if (strand == 0 || load<u32>(strand, STRAND_HAS_EPOCH) == 0) return Reason.NONE;
  const epoch = load<i64>(strand, STRAND_EPOCH);
  if (!isPresent(Path.EPOCH) || value(Path.EPOCH) > epoch) return Reason.EPOCH_MISMATCH;
  return value(Path.EPOCH) < epoch ? Reason.STALE_EPOCH : Reason.NONE;
}

function kindBreach(): i32 {
  switch (recordKind) {
    case Kind.ACCEPTED: {
      const strand = findStrand(text(Path.STRAND), textLength(Path.STRAND), textHash(Path.STRAND));
      return strand == 0 || load<u32>(strand, STRAND_CURRENT) == 0 ? Reason.NONE : Reason.STRAND_BUSY;
    }
    case Kind.INTENT:
      return intentBreach();
    case Kind.SETTLED:
      return settledBreach();
    case Kind.READBACK:
      return readbackBreach();
    case Kind.CANCEL_REQUESTED:
      return load<u8>(recordOp, OP_CONTROL) == Control.CANCELLED ? Reason.ALREADY_CANCELLED : Reason.NONE;
    default:
      return finishedBreach();
  }
}

function intentBreach(): i32 {
  if (recordEffect != 0) return Reason.EFFECT_REUSED;
  if (load<u8>(recordOp, OP_CONTROL) == Control.CANCELLED) return Reason.CANCELLED;
  if (load<u32>(recordOp, OP_UNKNOWN) != 0) return Reason.OUTCOME_UNKNOWN;
  return attemptBreach();
}

/** exactlyOnce, then retryLadder: what the step's status allows as its next attempt. */
function attemptBreach(): i32 {
  const step = findStep(recordOp, text(Path.KEY), textLength(Path.KEY), textHash(Path.KEY));
  const attempt = value(Path.ATTEMPT);
  if (step == 0) return attempt == 1 ? Reason.NONE : Reason.ATTEMPT_MISMATCH;
  switch (load<u8>(step, STEP_STATUS)) {
    case StepStatus.PENDING:
    case StepStatus.UNKNOWN:
      return Reason.STEP_IN_FLIGHT;
    case StepStatus.OK:
      return Reason.STEP_COMPLETED;
    case StepStatus.FAILED:
      return Reason.RETRY_NOT_ALLOWED;
    default: // RETRY_WAIT
      if (attempt != load<i64>(step, STEP_ATTEMPT) + 1) return Reason.ATTEMPT_MISMATCH;
      return value(Path.AT) >= load<i64>(step, STEP_NOT_BEFORE) ? Reason.NONE : Reason.RETRY_TOO_EARLY;
  }
}

function settledBreach(): i32 {
  const live = liveEffectOf(recordOp, recordEffect);
  if (live == 0) return Reason.NO_INTENT;
  const status = load<u8>(live, LIVE_STATUS);
  if (status == EffectStatus.SETTLED || status == EffectStatus.RESOLVED) return Reason.ALREADY_SETTLED;
  if (status == EffectStatus.UNKNOWN) return Reason.AWAITING_READBACK;
  const at = value(Path.AT);
  if (isPresent(Path.NOT_BEFORE)) {
    if (!schedulesRetry(live)) return Reason.NO_RETRY;
    const due = at + retryWait(
      load<i64>(recordOp, OP_BASE_DELAY),
      load<i64>(recordOp, OP_MAX_DELAY),
      load<i64>(live, LIVE_ATTEMPT),
      <usize>load<u32>(recordEffect, ENTRY_ID),
      <usize>load<u32>(recordEffect, ENTRY_ID_LENGTH),
      retryHint(),
    );
    if (value(Path.NOT_BEFORE) != due) return Reason.LADDER_MISMATCH;
  }
  if (isPresent(Path.CLASS) && isPresent(Path.RESPONSE)) {
    readResponse();
    const request = load<u8>(live, LIVE_HAS_REQUEST) != 0 ? <usize>load<u32>(live, LIVE_REQUEST) : 0;
    const given = classify(load<u8>(recordOp, OP_CONTROL), request, load<i64>(live, LIVE_OUTPUT_LIMIT));
    if (<i32>value(Path.CLASS) != given) return Reason.MISCLASSIFIED;
  }
  return at >= load<i64>(live, LIVE_INTENT_AT) ? Reason.NONE : Reason.OUT_OF_ORDER;
}

/** The settlement's response, for classify (absent counts are 0). */
function readResponse(): void {
  const hasMessage = isPresent(Path.RESPONSE_ERROR_MESSAGE);
  setResponse(
    <i32>value(Path.RESPONSE_STOP),
    hasMessage ? text(Path.RESPONSE_ERROR_MESSAGE) : 0,
    hasMessage ? textLength(Path.RESPONSE_ERROR_MESSAGE) : 0,
    isPresent(Path.RESPONSE_OUTPUT_TOKENS) ? value(Path.RESPONSE_OUTPUT_TOKENS) : 0,
    isPresent(Path.RESPONSE_TOOL_CALLS) ? value(Path.RESPONSE_TOOL_CALLS) : 0,
  );
  if (isPresent(Path.RESPONSE_HANDLE)) {
    setHandle(
      text(Path.HANDLE_ID), textLength(Path.HANDLE_ID),
      text(Path.HANDLE_PROVIDER), textLength(Path.HANDLE_PROVIDER),
      text(Path.HANDLE_MODEL), textLength(Path.HANDLE_MODEL),
      text(Path.HANDLE_API), textLength(Path.HANDLE_API),
    );
  }
}

/** A settlement schedules a retry when it fails its step's current attempt retryably, with attempts left. */
function schedulesRetry(live: usize): bool {
  const step = <usize>load<u32>(live, LIVE_STEP);
  return (
    <usize>load<u32>(step, STEP_EFFECT) == recordEffect &&
    <i32>value(Path.OUTCOME) == SettledOutcome.ERROR &&
    isPresent(Path.RETRYABLE) && value(Path.RETRYABLE) == 1 &&
    attemptsRemain(recordOp, load<i64>(live, LIVE_ATTEMPT))
  );
}

function readbackBreach(): i32 {
  const live = liveEffectOf(recordOp, recordEffect);
  if (live == 0) return Reason.NO_INTENT;
  if (load<u8>(live, LIVE_STATUS) != EffectStatus.UNKNOWN) return Reason.NOT_UNKNOWN;
  return value(Path.AT) >= load<i64>(live, LIVE_SETTLED_AT) ? Reason.NONE : Reason.OUT_OF_ORDER;
}

function finishedBreach(): i32 {
  if (load<u32>(recordOp, OP_PENDING) != 0 || load<u32>(recordOp, OP_UNKNOWN) != 0) return Reason.EFFECTS_OUTSTANDING;
  const aborted = <i32>value(Path.OUTCOME) == 2; // FinishedOutcome.ABORTED
  return aborted == (load<u8>(recordOp, OP_CONTROL) == Control.CANCELLED) ? Reason.NONE : Reason.OUTCOME_MISMATCH;
}
