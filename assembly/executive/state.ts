/**
 * The state of the `executive` model in the kernel (docs/models/executive.md, "State"; mirrors
 * src/models/executive/state.ts): one working state, changed in place by `step`, laid out in one
 * region so that the host can save it as bytes and load it back (bindings/executive/machine.ts
 * keeps the states it hands out that way).
 *
 * Region layout (i64 counters hold the reference's safe integers exactly):
 *   0    i32 status (Status)          4  i32 failure reason (FailReason), -1 when none
 *   8    i32 failure budget (Budget)  12 i32 frames on the stack
 *   16   i32 outstanding (Outstanding) 20 i32 its effect step (global index)
 *   24   i32 whether `now` is set      28 i32 lastDetail's length, -1 for null
 *   32   i64 seq   40 i64 now   48 i64 sinceCheckpoint   56 i64 outstanding seq   64 i64 attempt
 *   72   FRAMES_MAX frames of FRAME_BYTES (see Frame)
 *   then DETAIL_BYTES_MAX bytes of lastDetail (WTF-8), then the frames' arrays, stacked: for a
 *   frame of a plan of n steps, four i32 arrays of n indexed by local step — `pending` (deps not
 *   yet done, -1 once the step is done), `doneOrder` (local steps in the order they were done),
 *   `heap` (the ready steps, a binary heap by code-point rank of id) and `heapPosition`.
 *
 * Charging reaches every frame and fails, changing nothing, when any would pass its limit; an
 * entered frame holds at most what its parent has left.
 */

import { reserve } from "../memory";
import {
  childBudget,
  childBudgetGives,
  COUNTERS,
  dependentAt,
  dependentCount,
  depCount,
  deepestChainSteps,
  Limit,
  planFirstStep,
  planStepCount,
  rootLimit,
  stepOfRank,
  stepRank,
} from "./spec";

export namespace Status {
  export const READY: i32 = 0;
  export const RUNNING: i32 = 1;
  export const COMPLETED: i32 = 2;
  export const FAILED: i32 = 3;
}

export namespace FailReason {
  export const NONE: i32 = -1;
  export const CANCELLED: i32 = 0;
  export const DEADLINE: i32 = 1;
  export const EFFECT_FAILED: i32 = 2;
  export const BUDGET_EXHAUSTED: i32 = 3;
}

/** What ran out: a counter (its Limit index), or the depth. */
export namespace Budget {
  export const NONE: i32 = -1;
  export const DEPTH: i32 = 6;
}

export namespace Outstanding {
  export const NONE: i32 = 0;
  export const EXECUTE: i32 = 1;
  export const CHECKPOINT: i32 = 2;
}

export namespace Field {
  export const STATUS: usize = 0;
  export const FAILURE_REASON: usize = 4;
  export const FAILURE_BUDGET: usize = 8;
  export const FRAME_COUNT: usize = 12;
  export const OUTSTANDING: usize = 16;
  export const OUTSTANDING_STEP: usize = 20;
  export const HAS_NOW: usize = 24;
  export const DETAIL_LENGTH: usize = 28;
  export const SEQ: usize = 32;
  export const NOW: usize = 40;
  export const SINCE_CHECKPOINT: usize = 48;
  export const OUTSTANDING_SEQ: usize = 56;
  export const ATTEMPT: usize = 64;
  export const FRAMES: usize = 72;
}

export namespace Frame {
  export const PLAN: usize = 0;
  /** The sub-plan step this frame runs (global index); -1 for the root plan. */
  export const SUB_STEP: usize = 4;
  /** Where its arrays start, from the start of the arrays area. */
  export const ARRAYS: usize = 8;
  export const DONE_COUNT: usize = 12;
  export const HEAP_SIZE: usize = 16;
  export const LIMITS: usize = 24;
  export const USED: usize = LIMITS + 8 * <usize>Limit.COUNT;
}
export const FRAME_BYTES: usize = Frame.USED + 8 * <usize>COUNTERS;
/** Plans nest at most 64 deep, so a stack holds at most 64 frames. */
export const FRAMES_MAX: i32 = 64;
export const DETAIL_BYTES_MAX: usize = 4096;

const DETAIL: usize = Field.FRAMES + <usize>FRAMES_MAX * FRAME_BYTES;
const ARRAYS: usize = (DETAIL + DETAIL_BYTES_MAX + 15) & ~15;

/** The working state. */
export let state: usize = 0;
/** Room for the working state saved as bytes (`saveState`). */
let saved: usize = 0;
let regionBytes: usize = 0;

/** Lays out the working state for the loaded spec; false when memory cannot grow. */
export function layoutState(): bool {
  const slots = deepestChainSteps();
  if (slots < 0) return false;
  regionBytes = ARRAYS + (<usize>slots << 4);
  state = reserve(regionBytes);
  saved = state == 0 ? 0 : reserve(regionBytes);
  return saved != 0;
}

// @ts-expect-error: decorator
@inline
export function i32At(field: usize): i32 {
  return load<i32>(state + field);
}

// @ts-expect-error: decorator
@inline
export function setI32(field: usize, value: i32): void {
  store<i32>(state + field, value);
}

// @ts-expect-error: decorator
@inline
export function i64At(field: usize): i64 {
  return load<i64>(state + field);
}

// @ts-expect-error: decorator
@inline
export function setI64(field: usize, value: i64): void {
  store<i64>(state + field, value);
}

export function frameCount(): i32 {
  return i32At(Field.FRAME_COUNT);
}

export function frameAt(index: i32): usize {
  return state + Field.FRAMES + <usize>index * FRAME_BYTES;
}

export function topFrame(): usize {
  return frameAt(frameCount() - 1);
}

export function detailPointer(): usize {
  return state + DETAIL;
}

export function framePlan(frame: usize): i32 {
  return load<i32>(frame + Frame.PLAN);
}

export function frameSubStep(frame: usize): i32 {
  return load<i32>(frame + Frame.SUB_STEP);
}

export function planFirstStepOfFrame(frame: usize): i32 {
  return planFirstStep(framePlan(frame));
}

export function frameDoneCount(frame: usize): i32 {
  return load<i32>(frame + Frame.DONE_COUNT);
}

export function frameLimit(frame: usize, limit: i32): i64 {
  return load<i64>(frame + Frame.LIMITS + (<usize>limit << 3));
}

export function frameUsed(frame: usize, counter: i32): i64 {
  return load<i64>(frame + Frame.USED + (<usize>counter << 3));
}

/** The frame's array `which` (0 pending, 1 doneOrder, 2 heap, 3 heapPosition). */
// @ts-expect-error: decorator
@inline
function frameArray(frame: usize, which: usize): usize {
  const n = <usize>planStepCount(framePlan(frame));
  return state + ARRAYS + <usize>load<u32>(frame + Frame.ARRAYS) + which * (n << 2);
}

export function doneAt(frame: usize, i: i32): i32 {
  return load<i32>(frameArray(frame, 1) + (<usize>i << 2));
}

export function isDone(frame: usize, local: i32): bool {
  return load<i32>(frameArray(frame, 0) + (<usize>local << 2)) < 0;
}

/** The ready step (not done, every dep done) whose id is least by code point; -1 when none. */
export function leastReady(frame: usize): i32 {
  return load<i32>(frame + Frame.HEAP_SIZE) == 0 ? -1 : load<i32>(frameArray(frame, 2));
}

/** The ready state: the root frame under the root budget, nothing done. */
export function resetState(): void {
  memory.fill(state, 0, Field.FRAMES);
  setI32(Field.FAILURE_REASON, FailReason.NONE);
  setI32(Field.FAILURE_BUDGET, Budget.NONE);
  setI32(Field.DETAIL_LENGTH, -1);
  const root = pushFrame(0, -1);
  for (let limit = 0; limit < Limit.COUNT; limit++) setLimit(root, limit, rootLimit(limit));
}

/** Pushes a frame for `plan` with nothing used and its roots ready; its limits are the caller's. */
export function pushFrame(plan: i32, subStep: i32): usize {
  const index = frameCount();
  const arrays = index == 0 ? 0 : frameEnd(frameAt(index - 1));
  const frame = frameAt(index);
  setI32(Field.FRAME_COUNT, index + 1);
  store<i32>(frame + Frame.PLAN, plan);
  store<i32>(frame + Frame.SUB_STEP, subStep);
  store<u32>(frame + Frame.ARRAYS, arrays);
  store<i32>(frame + Frame.DONE_COUNT, 0);
  store<i32>(frame + Frame.HEAP_SIZE, 0);
  for (let counter = 0; counter < COUNTERS; counter++) setUsed(frame, counter, 0);
  const first = planFirstStep(plan);
  const n = planStepCount(plan);
  const pending = frameArray(frame, 0);
  for (let local = 0; local < n; local++) store<i32>(pending + (<usize>local << 2), depCount(first + local));
  // Roots in rank order are already a heap.
  for (let rank = 0; rank < n; rank++) {
    const local = stepOfRank(plan, rank);
    if (depCount(first + local) == 0) heapAppend(frame, local);
  }
  return frame;
}

/** Where a frame's arrays end, from the start of the arrays area. */
function frameEnd(frame: usize): u32 {
  return load<u32>(frame + Frame.ARRAYS) + (<u32>planStepCount(framePlan(frame)) << 4);
}

export function popFrame(): void {
  setI32(Field.FRAME_COUNT, frameCount() - 1);
}

export function setLimit(frame: usize, limit: i32, value: i64): void {
  store<i64>(frame + Frame.LIMITS + (<usize>limit << 3), value);
}

export function setUsed(frame: usize, counter: i32, value: i64): void {
  store<i64>(frame + Frame.USED + (<usize>counter << 3), value);
}

/** Charges `counter` by `amount` in every frame, or — when a frame would pass its limit — nothing. */
export function charge(counter: i32, amount: i64): bool {
  const count = frameCount();
  for (let i = 0; i < count; i++) {
    const frame = frameAt(i);
    if (frameUsed(frame, counter) + amount > frameLimit(frame, counter)) return false;
  }
  for (let i = 0; i < count; i++) {
    const frame = frameAt(i);
    setUsed(frame, counter, frameUsed(frame, counter) + amount);
  }
  return true;
}

/** Whether every frame can still charge one more executive step. */
export function affordsStep(): bool {
  const count = frameCount();
  for (let i = 0; i < count; i++) {
    const frame = frameAt(i);
    if (frameUsed(frame, Limit.STEPS) + 1 > frameLimit(frame, Limit.STEPS)) return false;
  }
  return true;
}

/** The limits of a frame entered from `parent` for sub-plan `step`: no more than the parent has left. */
export function enterLimits(parent: usize, entered: usize, step: i32): void {
  for (let counter = 0; counter < COUNTERS; counter++) {
    const left = frameLimit(parent, counter) - frameUsed(parent, counter);
    const given = childBudgetGives(step, counter) ? childBudget(step, counter) : left;
    setLimit(entered, counter, min(given, left));
  }
  const deadline = frameLimit(parent, Limit.DEADLINE);
  const given = childBudgetGives(step, Limit.DEADLINE) ? childBudget(step, Limit.DEADLINE) : deadline;
  setLimit(entered, Limit.DEADLINE, min(given, deadline));
}

/** Marks the ready step `local` done in `frame`; its dependents whose deps are now all done become ready. */
export function markDone(frame: usize, local: i32): void {
  const first = planFirstStep(framePlan(frame));
  const pending = frameArray(frame, 0);
  store<i32>(pending + (<usize>local << 2), -1);
  const doneCount = frameDoneCount(frame);
  store<i32>(frameArray(frame, 1) + (<usize>doneCount << 2), local);
  store<i32>(frame + Frame.DONE_COUNT, doneCount + 1);
  heapRemove(frame, local);
  const step = first + local;
  const count = dependentCount(step);
  for (let i = 0; i < count; i++) {
    const dependent = dependentAt(step, i);
    const at = pending + (<usize>dependent << 2);
    const left = load<i32>(at) - 1;
    store<i32>(at, left);
    if (left == 0) heapPush(frame, dependent);
  }
}

// The ready heap: local steps, least code-point rank of id on top.

// @ts-expect-error: decorator
@inline
function rankOf(first: i32, local: i32): i32 {
  return stepRank(first + local);
}

function heapAppend(frame: usize, local: i32): void {
  const size = load<i32>(frame + Frame.HEAP_SIZE);
  store<i32>(frameArray(frame, 2) + (<usize>size << 2), local);
  store<i32>(frameArray(frame, 3) + (<usize>local << 2), size);
  store<i32>(frame + Frame.HEAP_SIZE, size + 1);
}

function heapPush(frame: usize, local: i32): void {
  heapAppend(frame, local);
  siftUp(frame, load<i32>(frame + Frame.HEAP_SIZE) - 1);
}

function heapRemove(frame: usize, local: i32): void {
  const heap = frameArray(frame, 2);
  const position = frameArray(frame, 3);
  const at = load<i32>(position + (<usize>local << 2));
  const last = load<i32>(frame + Frame.HEAP_SIZE) - 1;
  store<i32>(frame + Frame.HEAP_SIZE, last);
  if (at == last) return;
  const moved = load<i32>(heap + (<usize>last << 2));
  store<i32>(heap + (<usize>at << 2), moved);
  store<i32>(position + (<usize>moved << 2), at);
  siftDown(frame, at);
  siftUp(frame, load<i32>(position + (<usize>moved << 2)));
}

function siftUp(frame: usize, from: i32): void {
  const first = planFirstStep(framePlan(frame));
  const heap = frameArray(frame, 2);
  const position = frameArray(frame, 3);
  let at = from;
  const local = load<i32>(heap + (<usize>at << 2));
  const rank = rankOf(first, local);
  while (at > 0) {
    const parentAt = (at - 1) >> 1;
    const parent = load<i32>(heap + (<usize>parentAt << 2));
    if (rankOf(first, parent) <= rank) break;
    store<i32>(heap + (<usize>at << 2), parent);
    store<i32>(position + (<usize>parent << 2), at);
    at = parentAt;
  }
  store<i32>(heap + (<usize>at << 2), local);
  store<i32>(position + (<usize>local << 2), at);
}

function siftDown(frame: usize, from: i32): void {
  const first = planFirstStep(framePlan(frame));
  const heap = frameArray(frame, 2);
  const position = frameArray(frame, 3);
  const size = load<i32>(frame + Frame.HEAP_SIZE);
  let at = from;
  const local = load<i32>(heap + (<usize>at << 2));
  const rank = rankOf(first, local);
  while (true) {
    let child = 2 * at + 1;
    if (child >= size) break;
    let childRank = rankOf(first, load<i32>(heap + (<usize>child << 2)));
    if (child + 1 < size) {
      const rightRank = rankOf(first, load<i32>(heap + (<usize>(child + 1) << 2)));
      if (rightRank < childRank) {
        child += 1;
        childRank = rightRank;
      }
    }
    if (rank <= childRank) break;
    const moved = load<i32>(heap + (<usize>child << 2));
    store<i32>(heap + (<usize>at << 2), moved);
    store<i32>(position + (<usize>moved << 2), at);
    at = child;
  }
  store<i32>(heap + (<usize>at << 2), local);
  store<i32>(position + (<usize>local << 2), at);
}

// Saving and loading the working state as bytes: the scalars and the frames on the stack, the
// last detail, the frames' arrays — nothing else of the region.

function arraysEnd(): usize {
  return <usize>frameEnd(topFrame());
}

function detailLength(): usize {
  const length = i32At(Field.DETAIL_LENGTH);
  return length < 0 ? 0 : <usize>length;
}

/** Saves the working state; returns where its bytes are (`savedLength` of them). */
export function saveState(): usize {
  const head = Field.FRAMES + <usize>frameCount() * FRAME_BYTES;
  const detail = detailLength();
  memory.copy(saved, state, head);
  memory.copy(saved + head, state + DETAIL, detail);
  memory.copy(saved + head + detail, state + ARRAYS, arraysEnd());
  savedBytes = head + detail + arraysEnd();
  return saved;
}

let savedBytes: usize = 0;

export function savedLength(): usize {
  return savedBytes;
}

/** Where the host writes saved bytes to load (`loadState`). */
export function loadRoom(): usize {
  return saved;
}

/** Loads `length` bytes that `saveState` wrote (from a state of the same spec), from `loadRoom`. */
export function loadState(length: usize): void {
  const frames = <usize>load<i32>(saved + Field.FRAME_COUNT);
  const head = Field.FRAMES + frames * FRAME_BYTES;
  const detailBytes = load<i32>(saved + Field.DETAIL_LENGTH);
  const detail: usize = detailBytes < 0 ? 0 : <usize>detailBytes;
  memory.copy(state, saved, head);
  memory.copy(state + DETAIL, saved + head, detail);
  memory.copy(state + ARRAYS, saved + head + detail, length - head - detail);
}
