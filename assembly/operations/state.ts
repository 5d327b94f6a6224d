/**
 * The state of the `operations` model (docs/models/operations.md, "State"; mirrors
 * src/models/operations/state.ts), on raw linear memory: four id tables (ids.ts) and the
 * records they lead to. Every op id and effect id ever seen is kept (alloc.ts `keep`); a
 * running op's steps and live effects are live blocks (alloc.ts `allocate`), released when the
 * op finishes — so memory is O(ops + effects + live steps).
 *
 * Op entry (kept; one per op id), OP_BYTES:
 *   0  u64 hash        8  u32 id pointer   12 u32 id length
 *   16 u32 strand entry
 *   20 u8  control (Control)
 *   21 u8  finished: 0 while it runs, else FinishedOutcome + 1
 *   24 i64 maxAttempts (0: no limit)
 *   32 i64 baseDelayMs
 *   40 i64 maxDelayMs
 *   48 u32 pending effects   52 u32 unknown effects
 *   56 u32 first live step   60 u32 first live effect
 * Strand entry (kept), STRAND_BYTES:
 *   0  u64 hash   8 u32 id pointer   12 u32 id length
 *   16 u32 current op entry (0: none)
 *   20 u32 has an epoch (0/1)
 *   24 i64 epoch
 * Effect entry (kept; one per effect id ever reserved), EFFECT_BYTES:
 *   0  u64 hash   8 u32 id pointer   12 u32 id length
 *   16 u32 live effect (0 once its op has finished)
 * Live effect (live, while its op runs), LIVE_EFFECT_BYTES:
 *   0  u32 effect entry   4 u32 op entry   8 u32 step   12 u32 next live effect of the op
 *   16 i64 attempt        24 i64 intent's at   32 i64 settlement's at   40 i64 outputLimit
 *   48 u8  status (EffectStatus)   49 u8 has a request
 *   52 u32 request block (live)    56 u32 request block bytes
 * Request block: u32 provider length, u32 model length, u32 api length, then the three ids' bytes.
 * Step (live, while its op runs; in the steps table by op and key), STEP_BYTES:
 *   0  u64 hash   8 u32 key pointer (a live block)   12 u32 key length
 *   16 u32 op entry   20 u32 next step of the op
 *   24 i64 attempt (the current one's)   32 u32 current attempt's effect entry
 *   36 u8  status (StepStatus)   40 i64 notBefore (retry-wait only)
 */

import { allocate, copyIntoBlock, keep, release, resetAllocation, zeroBlock } from "./alloc";
import {
  createTable,
  ENTRY_HASH,
  ENTRY_ID,
  ENTRY_ID_LENGTH,
  entryCount,
  find,
  insert,
  remove,
  stepHash,
  TABLE_BYTES,
} from "./ids";
import { FinishedOutcome } from "./records";

export namespace Control {
  export const RUNNING: u8 = 0;
  export const CANCELLED: u8 = 1;
}

/** The reference's STEP_STATUSES, in order (the report's `steps` counts follow it). */
export namespace StepStatus {
  export const PENDING: u8 = 0;
  export const OK: u8 = 1;
  export const FAILED: u8 = 2;
  export const RETRY_WAIT: u8 = 3;
  export const UNKNOWN: u8 = 4;
  export const COUNT: i32 = 5;
}

export namespace EffectStatus {
  export const PENDING: u8 = 0;
  export const SETTLED: u8 = 1;
  export const UNKNOWN: u8 = 2;
  export const RESOLVED: u8 = 3;
}

export const OP_BYTES: usize = 64;
export const OP_STRAND: usize = 16;
export const OP_CONTROL: usize = 20;
export const OP_FINISHED: usize = 21;
export const OP_MAX_ATTEMPTS: usize = 24;
export const OP_BASE_DELAY: usize = 32;
export const OP_MAX_DELAY: usize = 40;
export const OP_PENDING: usize = 48;
export const OP_UNKNOWN: usize = 52;
export const OP_STEPS: usize = 56;
export const OP_EFFECTS: usize = 60;

export const STRAND_BYTES: usize = 32;
export const STRAND_CURRENT: usize = 16;
export const STRAND_HAS_EPOCH: usize = 20;
export const STRAND_EPOCH: usize = 24;

export const EFFECT_BYTES: usize = 24;
export const EFFECT_LIVE: usize = 16;

export const LIVE_EFFECT_BYTES: usize = 64;
export const LIVE_ENTRY: usize = 0;
export const LIVE_OP: usize = 4;
export const LIVE_STEP: usize = 8;
export const LIVE_NEXT: usize = 12;
export const LIVE_ATTEMPT: usize = 16;
export const LIVE_INTENT_AT: usize = 24;
export const LIVE_SETTLED_AT: usize = 32;
export const LIVE_OUTPUT_LIMIT: usize = 40;
export const LIVE_STATUS: usize = 48;
export const LIVE_HAS_REQUEST: usize = 49;
export const LIVE_REQUEST: usize = 52;
export const LIVE_REQUEST_BYTES: usize = 56;

export const STEP_BYTES: usize = 48;
export const STEP_OP: usize = 16;
export const STEP_NEXT: usize = 20;
export const STEP_ATTEMPT: usize = 24;
export const STEP_EFFECT: usize = 32;
export const STEP_STATUS: usize = 36;
export const STEP_NOT_BEFORE: usize = 40;

export const opsTable = memory.data(<i32>TABLE_BYTES, 8);
export const strandsTable = memory.data(<i32>TABLE_BYTES, 8);
export const effectsTable = memory.data(<i32>TABLE_BYTES, 8);
export const stepsTable = memory.data(<i32>TABLE_BYTES, 8);

/** Ops by control (running, cancelled) then by outcome (completed, failed, aborted). */
export namespace OpCount {
  export const RUNNING: i32 = 0;
  export const CANCELLED: i32 = 1;
  export const COMPLETED: i32 = 2;
  export const COUNT: i32 = 5;
}
const opCounts = memory.data(OpCount.COUNT * 8, 8);
const stepCounts = memory.data(StepStatus.COUNT * 8, 8);

/** Set when an allocation failed: the audit stops at Limit.MEMORY after the record. */
export let outOfMemory = false;

export function resetState(): bool {
  resetAllocation();
  outOfMemory = false;
  memory.fill(opCounts, 0, <usize>OpCount.COUNT * 8);
  memory.fill(stepCounts, 0, <usize>StepStatus.COUNT * 8);
  return createTable(opsTable) && createTable(strandsTable) && createTable(effectsTable) && createTable(stepsTable);
}

export function operationCount(bucket: i32): i64 {
  return load<i64>(opCounts + <usize>bucket * 8);
}
export function stepCount(status: i32): i64 {
  return load<i64>(stepCounts + <usize>status * 8);
}
export function effectsReserved(): u32 {
  return entryCount(effectsTable);
}
export function strandsNamed(): u32 {
  return entryCount(strandsTable);
}

function countOp(bucket: i32, by: i64): void {
  const at = opCounts + <usize>bucket * 8;
  store<i64>(at, load<i64>(at) + by);
}
function countStep(status: u8, by: i64): void {
  const at = stepCounts + <usize>status * 8;
  store<i64>(at, load<i64>(at) + by);
}

function failed(): usize {
  outOfMemory = true;
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Lookups

// Each takes the id's hash (ids.ts `idHash`) beside its bytes: the record's slots keep it.

export function findOp(id: usize, length: usize, hash: u64): usize {
  return find(opsTable, hash, id, length, 0);
}
export function findStrand(id: usize, length: usize, hash: u64): usize {
  return find(strandsTable, hash, id, length, 0);
}
export function findEffect(id: usize, length: usize, hash: u64): usize {
  return find(effectsTable, hash, id, length, 0);
}
export function findStep(op: usize, key: usize, length: usize, keyHash: u64): usize {
  return find(stepsTable, stepHash(op, keyHash), key, length, op);
}

/** The live effect of an effect id when it belongs to `op`, else 0. */
export function liveEffectOf(op: usize, effect: usize): usize {
  if (effect == 0) return 0;
  const live = <usize>load<u32>(effect, EFFECT_LIVE);
  return live != 0 && <usize>load<u32>(live, LIVE_OP) == op ? live : 0;
}

/** An entry of `bytes` keeping a copy of the id, in `table`; 0 when memory is exhausted. */
function keptEntry(table: usize, bytes: usize, id: usize, length: usize, hash: u64): usize {
  const entry = keep(bytes);
  const copy = keep(length);
  if (entry == 0 || copy == 0) return failed();
  zeroBlock(entry, bytes);
  copyIntoBlock(copy, id, length);
  store<u64>(entry, hash, ENTRY_HASH);
  store<u32>(entry, <u32>copy, ENTRY_ID);
  store<u32>(entry, <u32>length, ENTRY_ID_LENGTH);
  if (!insert(table, entry)) return failed();
  return entry;
}

// ---------------------------------------------------------------------------------------------
// Changes

/** A new running op on `strand` with this policy (the id is new). */
export function newOp(
  id: usize,
  length: usize,
  hash: u64,
  strand: usize,
  maxAttempts: i64,
  base: i64,
  maxDelay: i64,
): usize {
  const op = keptEntry(opsTable, OP_BYTES, id, length, hash);
  if (op == 0) return 0;
  store<u32>(op, <u32>strand, OP_STRAND);
  store<i64>(op, maxAttempts, OP_MAX_ATTEMPTS);
  store<i64>(op, base, OP_BASE_DELAY);
  store<i64>(op, maxDelay, OP_MAX_DELAY);
  countOp(OpCount.RUNNING, 1);
  return op;
}

/** The strand, named (created) if it is new. */
export function strandNamed(id: usize, length: usize, hash: u64): usize {
  const strand = find(strandsTable, hash, id, length, 0);
  return strand != 0 ? strand : keptEntry(strandsTable, STRAND_BYTES, id, length, hash);
}

export function cancel(op: usize): void {
  store<u8>(op, Control.CANCELLED, OP_CONTROL);
  countOp(OpCount.RUNNING, -1);
  countOp(OpCount.CANCELLED, 1);
}

/** The step of `op` under `key`, created (with no attempt yet) if it is new. */
export function stepNamed(op: usize, key: usize, length: usize, keyHash: u64): usize {
  const hash = stepHash(op, keyHash);
  const existing = find(stepsTable, hash, key, length, op);
  if (existing != 0) return existing;
  const step = allocate(STEP_BYTES);
  const copy = allocate(length);
  if (step == 0 || copy == 0) return failed();
  zeroBlock(step, STEP_BYTES);
  copyIntoBlock(copy, key, length);
  store<u64>(step, hash, ENTRY_HASH);
  store<u32>(step, <u32>copy, ENTRY_ID);
  store<u32>(step, <u32>length, ENTRY_ID_LENGTH);
  store<u32>(step, <u32>op, STEP_OP);
  store<u32>(step, load<u32>(op, OP_STEPS), STEP_NEXT);
  store<u32>(op, <u32>step, OP_STEPS);
  store<u8>(step, 0xff, STEP_STATUS); // no attempt yet: counted once its first status is set
  if (!insert(stepsTable, step)) return failed();
  return step;
}

export function setStepStatus(step: usize, status: u8): void {
  const old = load<u8>(step, STEP_STATUS);
  if (old != 0xff) countStep(old, -1);
  countStep(status, 1);
  store<u8>(step, status, STEP_STATUS);
}

/**
 * Reserves a fresh effect id for `op`: its kept entry and its live effect, pending, at the head
 * of the op's list. The request's three ids are copied when `hasRequest`.
 */
export function reserveEffect(
  op: usize,
  id: usize,
  length: usize,
  hash: u64,
  hasRequest: bool,
  provider: usize,
  providerLength: usize,
  model: usize,
  modelLength: usize,
  api: usize,
  apiLength: usize,
): usize {
  const entry = keptEntry(effectsTable, EFFECT_BYTES, id, length, hash);
  if (entry == 0) return 0;
  const live = allocate(LIVE_EFFECT_BYTES);
  if (live == 0) return failed();
  zeroBlock(live, LIVE_EFFECT_BYTES);
  store<u32>(live, <u32>entry, LIVE_ENTRY);
  store<u32>(live, <u32>op, LIVE_OP);
  store<u32>(live, load<u32>(op, OP_EFFECTS), LIVE_NEXT);
  store<u32>(op, <u32>live, OP_EFFECTS);
  store<u32>(entry, <u32>live, EFFECT_LIVE);
  store<u8>(live, EffectStatus.PENDING, LIVE_STATUS);
  store<u32>(op, load<u32>(op, OP_PENDING) + 1, OP_PENDING);
  if (hasRequest) {
    const bytes: usize = 12 + providerLength + modelLength + apiLength;
    const block = allocate(bytes);
    if (block == 0) return failed();
    store<u32>(block, <u32>providerLength);
    store<u32>(block, <u32>modelLength, 4);
    store<u32>(block, <u32>apiLength, 8);
    memory.copy(block + 12, provider, providerLength);
    memory.copy(block + 12 + providerLength, model, modelLength);
    memory.copy(block + 12 + providerLength + modelLength, api, apiLength);
    store<u8>(live, 1, LIVE_HAS_REQUEST);
    store<u32>(live, <u32>block, LIVE_REQUEST);
    store<u32>(live, <u32>bytes, LIVE_REQUEST_BYTES);
  }
  return live;
}

/** An effect id reserved by an op that has finished since (no live effect); 0 when memory is exhausted. */
export function reserveFinishedEffect(id: usize, length: usize, hash: u64): usize {
  return keptEntry(effectsTable, EFFECT_BYTES, id, length, hash);
}

/** Moves a live effect to `status`, keeping the op's pending and unknown counts. */
export function setEffectStatus(live: usize, status: u8): void {
  const op = <usize>load<u32>(live, LIVE_OP);
  const old = load<u8>(live, LIVE_STATUS);
  if (old == EffectStatus.PENDING) store<u32>(op, load<u32>(op, OP_PENDING) - 1, OP_PENDING);
  if (old == EffectStatus.UNKNOWN) store<u32>(op, load<u32>(op, OP_UNKNOWN) - 1, OP_UNKNOWN);
  if (status == EffectStatus.PENDING) store<u32>(op, load<u32>(op, OP_PENDING) + 1, OP_PENDING);
  if (status == EffectStatus.UNKNOWN) store<u32>(op, load<u32>(op, OP_UNKNOWN) + 1, OP_UNKNOWN);
  store<u8>(live, status, LIVE_STATUS);
}

/**
 * The op ends with `outcome`: its steps and live effects are released (their ids stay reserved),
 * and its strand is free if the op was its current one.
 */
export function finishOp(op: usize, outcome: i32): void {
  countOp(load<u8>(op, OP_CONTROL) == Control.CANCELLED ? OpCount.CANCELLED : OpCount.RUNNING, -1);
  countOp(OpCount.COMPLETED + outcome - FinishedOutcome.COMPLETED, 1);
  store<u8>(op, <u8>(outcome + 1), OP_FINISHED);
  let step = <usize>load<u32>(op, OP_STEPS);
  while (step != 0) {
    const next = <usize>load<u32>(step, STEP_NEXT);
    const status = load<u8>(step, STEP_STATUS);
    if (status != 0xff) countStep(status, -1);
    remove(stepsTable, step);
    release(<usize>load<u32>(step, ENTRY_ID), <usize>load<u32>(step, ENTRY_ID_LENGTH));
    release(step, STEP_BYTES);
    step = next;
  }
  let live = <usize>load<u32>(op, OP_EFFECTS);
  while (live != 0) {
    const next = <usize>load<u32>(live, LIVE_NEXT);
    store<u32>(<usize>load<u32>(live, LIVE_ENTRY), 0, EFFECT_LIVE);
    if (load<u8>(live, LIVE_HAS_REQUEST) != 0) {
      release(<usize>load<u32>(live, LIVE_REQUEST), <usize>load<u32>(live, LIVE_REQUEST_BYTES));
    }
    release(live, LIVE_EFFECT_BYTES);
    live = next;
  }
  store<u32>(op, 0, OP_STEPS);
  store<u32>(op, 0, OP_EFFECTS);
  store<u32>(op, 0, OP_PENDING);
  store<u32>(op, 0, OP_UNKNOWN);
  const strand = <usize>load<u32>(op, OP_STRAND);
  if (<usize>load<u32>(strand, STRAND_CURRENT) == op) store<u32>(strand, 0, STRAND_CURRENT);
}

export function setStrandEpoch(strand: usize, epoch: i64): void {
  store<u32>(strand, 1, STRAND_HAS_EPOCH);
  store<i64>(strand, epoch, STRAND_EPOCH);
}

/** After attempt `attempt` fails, whether the op's policy allows another. */
export function attemptsRemain(op: usize, attempt: i64): bool {
  const max = load<i64>(op, OP_MAX_ATTEMPTS);
  return max == 0 || attempt < max;
}
