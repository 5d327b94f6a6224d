/**
 * The operations kernel's memory (over ../memory.ts, which reports exhaustion as 0): two kinds
 * of block.
 *
 * - **Kept** blocks hold what the model keeps for the whole journal — op, strand and effect
 *   entries and their id bytes — bumped out of 64 KiB runs, never freed.
 * - **Live** blocks hold what lives only while its op runs — steps, live effects, step keys,
 *   requests — in power-of-two size classes with a free list each, so a finished op's blocks are
 *   reused by the ops after it and memory follows the live steps, not the journal's length.
 *
 * Every allocation answers 0 when memory cannot grow; the caller stops at Limit.MEMORY.
 */

import { reserve } from "../memory";

const RUN_BYTES: usize = 64 << 10;
/** Blocks from here up get a reservation of their own. */
const LARGE_BYTES: usize = 16 << 10;
const SMALLEST_CLASS: i32 = 4; // 16 bytes
const CLASS_COUNT: i32 = 32;

let runAt: usize = 0;
let runEnd: usize = 0;
/** Free list heads by size class (the first word of a free block links the next). */
const freeLists = memory.data(CLASS_COUNT * 4, 4);

export function resetAllocation(): void {
  runAt = 0;
  runEnd = 0;
  memory.fill(freeLists, 0, <usize>CLASS_COUNT * 4);
}

/** A kept block of `bytes`, 8-aligned; 0 when memory is exhausted. */
export function keep(bytes: usize): usize {
  bytes = bytes == 0 ? 8 : (bytes + 7) & ~7; // a block of its own even for nothing: 0 means failure
  if (bytes >= LARGE_BYTES) return reserve(bytes);
  if (runAt + bytes > runEnd) {
    const run = reserve(RUN_BYTES);
    if (run == 0) return 0;
    runAt = run;
    runEnd = run + RUN_BYTES;
  }
  const at = runAt;
  runAt += bytes;
  return at;
}

// @ts-expect-error: decorator
@inline
function sizeClass(bytes: usize): i32 {
  const c = bytes <= 16 ? SMALLEST_CLASS : 64 - <i32>clz<u64>(<u64>(bytes - 1));
  return c;
}

/** A live block of at least `bytes`; 0 when memory is exhausted. */
export function allocate(bytes: usize): usize {
  const c = sizeClass(bytes);
  const head = freeLists + <usize>c * 4;
  const free = <usize>load<u32>(head);
  if (free != 0) {
    store<u32>(head, load<u32>(free));
    return free;
  }
  return keep(<usize>1 << <usize>c);
}

/** Returns a live block of `bytes` (as allocated) to its class. */
export function release(block: usize, bytes: usize): void {
  if (block == 0) return;
  const head = freeLists + <usize>sizeClass(bytes) * 4;
  store<u32>(block, load<u32>(head));
  store<u32>(head, <u32>block);
}

/**
 * Zeroes a block of `bytes` (a multiple of 8), a word at a time: the blocks here are a few words,
 * and `memory.fill` is a call out of the module that costs more than the stores.
 */
// @ts-expect-error: decorator
@inline
export function zeroBlock(block: usize, bytes: usize): void {
  for (let at: usize = 0; at < bytes; at += 8) store<u64>(block + at, 0);
}

/**
 * Copies `length` bytes into a block as whole words (as `zeroBlock`, instead of `memory.copy`).
 * A block's size is a multiple of 8 (`keep` and `allocate` round up), so the last word stays in
 * it; its bytes past `length` are not part of the copy. The source may be read up to 7 bytes past
 * its end: it lies in a reserved region, which has overread room after it.
 */
// @ts-expect-error: decorator
@inline
export function copyIntoBlock(block: usize, from: usize, length: usize): void {
  for (let at: usize = 0; at < length; at += 8) store<u64>(block + at, load<u64>(from + at));
}
