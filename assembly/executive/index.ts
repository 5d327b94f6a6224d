/**
 * The `executive` kernel's exports (docs/models/executive.md): numbers and pointers only, so the
 * host needs no loader glue. A spec is `specRoom` / (the host writes the packed spec) /
 * `loadSpec`, or `prepareHeader` / (the host writes the journal's header line) / `loadHeader`. Then the machine: `resetRun`, (`observe` | `observeUnreadable`) / `step`, the
 * decision and state read back field by field, states saved and loaded as bytes; or a journal:
 * `beginJsonl` / (`writePointer`, `writeCapacity`, `consume`)* / `finishJsonl`, then the report
 * block (audit.ts).
 */

import { Limit } from "../jsonl";
import { resetAll, sealModelRegion, setMemoryCeiling } from "../memory";
import { report } from "./audit";
import { packHeaderSpec } from "./header";

export { recordedRoom, restoreReport } from "./audit";
import { decisionAttempt, decisionBudget, decisionReason, decisionSeq, decisionStep, decisionTag, stepState } from "./step";
import { readSpecTables, reserveSpec, stepSubPlan } from "./spec";
import {
  detailPointer,
  doneAt,
  Field,
  frameAt,
  frameDoneCount,
  frameLimit,
  frameSubStep,
  frameUsed,
  i32At,
  i64At,
  layoutState,
  markDone,
  planFirstStepOfFrame,
  pushFrame,
  resetState,
  setI32,
  setI64,
  setLimit,
  setUsed,
} from "./state";
import { hostDetail } from "./observation";

export {
  MISMATCH_BYTES,
  REPORT_BYTES,
  REPORT_DECISIONS_MATCH,
  REPORT_EVENTS,
  REPORT_INTEGRITY_INDEX,
  REPORT_INTEGRITY_LINE,
  REPORT_INTEGRITY_PROBLEM,
  REPORT_LIMIT,
  REPORT_LIMIT_LINE,
  REPORT_MISMATCH_LIST,
  REPORT_MISMATCHES,
  REPORT_MISMATCHES_LISTED,
  REPORT_TERMINAL_RESPECTED,
  REPORT_TORN_TAIL_LINE,
  REPORT_TORN_TAIL_OFFSET,
} from "./audit";
export {
  isHeaderPending,
  LINE_BYTES_MAX,
  prefixBytes,
  prefixLineNumber,
  resumeJsonlAt,
  writeCapacity,
  writePointer,
} from "../jsonl";
export { beginJsonl, consume, finishJsonl } from "./lines";
export { observe, observeUnreadable } from "./observation";
export { loadRoom, loadState, saveState, savedLength } from "./state";

/** Caps the module's memory below its 4 GiB maximum (for tests of the memory limit). */
export function limitMemory(pages: i32): void {
  setMemoryCeiling(pages);
}

export function reportPointer(): usize {
  return report;
}

/** Drops everything and reserves room for a packed spec of `bytes`; 0 when memory cannot grow. */
export function specRoom(bytes: usize): usize {
  resetAll();
  return reserveSpec(bytes);
}

/** Reads the packed spec the host wrote and lays out the working state. Returns a Limit code. */
export function loadSpec(): i32 {
  if (!readSpecTables() || !layoutState()) return Limit.MEMORY;
  sealModelRegion();
  resetState();
  return Limit.NONE;
}

export { headerModel, prepareHeader } from "../header";
export { packedSpecLength, packedSpecPointer } from "./spec";

/**
 * Checks and packs the spec and budget of the header line the host wrote at `prepareHeader`'s
 * pointer, and loads them as `loadSpec` loads a packed spec the host wrote; false, and no spec is
 * loaded, when the host must read the header itself (header.ts says when).
 */
export function loadHeader(): bool {
  return packHeaderSpec() && loadSpec() == Limit.NONE;
}

/** The working state becomes the ready state. */
export function resetRun(): void {
  resetState();
}

/** Steps the working state by the observation handed over; returns the decision's tag. */
export function step(): i32 {
  stepState();
  return decisionTag;
}

export function decisionSeqValue(): f64 {
  return <f64>decisionSeq;
}

export function decisionReasonCode(): i32 {
  return decisionReason;
}

export function decisionBudgetCode(): i32 {
  return decisionBudget;
}

export function decisionStepIndex(): i32 {
  return decisionStep;
}

export function decisionAttemptValue(): f64 {
  return <f64>decisionAttempt;
}

// The working state, read field by field (the host builds the reference's state from it).

export function stateI32(field: usize): i32 {
  return i32At(field);
}

export function stateI64(field: usize): f64 {
  return <f64>i64At(field);
}

export function lastDetailPointer(): usize {
  return detailPointer();
}

export function frameSubStepOf(frame: i32): i32 {
  return frameSubStep(frameAt(frame));
}

export function frameLimitOf(frame: i32, limit: i32): f64 {
  return <f64>frameLimit(frameAt(frame), limit);
}

export function frameUsedOf(frame: i32, counter: i32): f64 {
  return <f64>frameUsed(frameAt(frame), counter);
}

export function frameDoneCountOf(frame: i32): i32 {
  return frameDoneCount(frameAt(frame));
}

/** The global index of the `i`th step done in the frame. */
export function frameDoneStep(frame: i32, i: i32): i32 {
  const at = frameAt(frame);
  return planFirstStepOfFrame(at) + doneAt(at, i);
}

// The working state, written field by field from a state the reference checked (a restored
// snapshot): frames pushed root first, each frame's steps done in the order they were done.

export function setStateI32(field: usize, value: i32): void {
  setI32(field, value);
}

export function setStateI64(field: usize, value: f64): void {
  setI64(field, <i64>value);
}

/** Sets the last detail to the `length` bytes at `hostDetail` (-1: null). */
export function setLastDetail(length: i32): void {
  setI32(Field.DETAIL_LENGTH, length);
  if (length > 0) memory.copy(detailPointer(), hostDetail, <usize>length);
}

export function hostDetailPointer(): usize {
  return hostDetail;
}

/** Enters the sub-plan of `subStep` (a ready step of the top frame): a frame with nothing done. */
export function restoreFrame(subStep: i32): void {
  pushFrame(stepSubPlan(subStep), subStep);
}

export function restoreLimit(frame: i32, limit: i32, value: f64): void {
  setLimit(frameAt(frame), limit, <i64>value);
}

export function restoreUsed(frame: i32, counter: i32, value: f64): void {
  setUsed(frameAt(frame), counter, <i64>value);
}

/** Marks `step` (global index, a ready step of the frame's plan) done in the frame. */
export function restoreDone(frame: i32, step: i32): void {
  const at = frameAt(frame);
  markDone(at, step - planFirstStepOfFrame(at));
}

// Where the state's fields lie (state.ts), for the host's field-by-field reads and writes.
export const STATE_STATUS: usize = Field.STATUS;
export const STATE_FAILURE_REASON: usize = Field.FAILURE_REASON;
export const STATE_FAILURE_BUDGET: usize = Field.FAILURE_BUDGET;
export const STATE_FRAME_COUNT: usize = Field.FRAME_COUNT;
export const STATE_OUTSTANDING: usize = Field.OUTSTANDING;
export const STATE_OUTSTANDING_STEP: usize = Field.OUTSTANDING_STEP;
export const STATE_HAS_NOW: usize = Field.HAS_NOW;
export const STATE_DETAIL_LENGTH: usize = Field.DETAIL_LENGTH;
export const STATE_SEQ: usize = Field.SEQ;
export const STATE_NOW: usize = Field.NOW;
export const STATE_SINCE_CHECKPOINT: usize = Field.SINCE_CHECKPOINT;
export const STATE_OUTSTANDING_SEQ: usize = Field.OUTSTANDING_SEQ;
export const STATE_ATTEMPT: usize = Field.ATTEMPT;
