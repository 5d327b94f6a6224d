/**
 * The data kernel's blocks (over ../memory.ts, which answers 0 when memory cannot grow): instances,
 * kept strings (slot and register values, keys of findings) and hash tables come in power-of-two
 * size classes, each with a free list, so what an instance forgotten by `reuse` or an overwritten
 * slot frees is taken by the next of its size, and memory follows what is kept, not the
 * journal's length. Blocks are cut from 64 KiB runs; large ones are reservations of their own.
 */

import { abandon, reserve } from "../memory";

const RUN_BYTES: usize = 64 << 10;
const LARGE_BYTES: usize = 16 << 10;
const SMALLEST_CLASS: i32 = 4; // 16 bytes
const CLASS_COUNT: i32 = 33;

/** Set when an allocation found no memory (a restore tells exhaustion from a bad snapshot by it). */
export let allocationFailed = false;
let runAt: usize = 0;
let runEnd: usize = 0;
/** Free list heads by size class (the first word of a free block links the next). */
const freeLists = memory.data(CLASS_COUNT * 4, 4);

export function resetAllocation(): void {
  runAt = 0;
  runEnd = 0;
  allocationFailed = false;
  memory.fill(freeLists, 0, <usize>CLASS_COUNT * 4);
}

// @ts-expect-error: decorator
@inline
function sizeClass(bytes: usize): i32 {
  return bytes <= 16 ? SMALLEST_CLASS : 64 - <i32>clz<u64>(<u64>(bytes - 1));
}

/** A block of at least `bytes` (8-aligned); 0 when memory is exhausted. */
export function allocate(bytes: usize): usize {
  const c = sizeClass(bytes);
  const head = freeLists + <usize>c * 4;
  const free = <usize>load<u32>(head);
  if (free != 0) {
    store<u32>(head, load<u32>(free));
    return free;
  }
  const size = <usize>1 << <usize>c;
  if (size >= LARGE_BYTES) return reserveOrFail(size);
  if (runAt + size > runEnd) {
    const run = reserveOrFail(RUN_BYTES);
    if (run == 0) return 0;
    runAt = run;
    runEnd = run + RUN_BYTES;
  }
  const at = runAt;
  runAt += size;
  return at;
}

function reserveOrFail(bytes: usize): usize {
  const block = reserve(bytes);
  if (block == 0) allocationFailed = true;
  return block;
}

/** Returns a block of `bytes` (as allocated) to its class; a large one to ../memory.ts. */
export function release(block: usize, bytes: usize): void {
  if (block == 0) return;
  const c = sizeClass(bytes);
  if ((<usize>1 << <usize>c) >= LARGE_BYTES) {
    abandon(block, <usize>1 << <usize>c);
    return;
  }
  const head = freeLists + <usize>c * 4;
  store<u32>(block, load<u32>(head));
  store<u32>(head, <u32>block);
}
