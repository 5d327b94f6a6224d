/**
 * The kernel's only allocator: a bump pointer over linear memory, with no managed objects.
 *
 * Memory is two stacked regions. The model region — what every journal of a run shares: a dag's
 * node tables and id hash table (`loadDag`), an executive spec and its working state — is laid
 * down first; the journal region above it (line buffer, path table, surfaces, findings) is
 * dropped by `resetJournalRegion` before every journal, so auditing many journals over one DAG
 * or spec reuses the same pages.
 *
 * A block that outgrows itself is re-reserved and its owner `abandon`s the old one: abandoned
 * blocks of 4 KiB and more are kept (adjacent ones joined) and the next reservation they fit is
 * cut from the smallest that fits, before the top moves. A journal's tables double as they grow,
 * and without this every copy they left behind would stay resident — as much again as the live
 * tables; with it, the steady reservations after a doubling (runs of entries, arenas, the next
 * table) fill the pages the last one left.
 *
 * Unlike the runtime's allocator, `reserve` answers 0 when memory cannot grow, and the caller
 * reports a limit error instead of trapping.
 */

const PAGE_BYTES: usize = 65536;
/** Extra readable bytes after every block, so a 16-byte vector load at a block's end stays in bounds. */
const OVERREAD_BYTES: usize = 16;

/** The most pages `reserve` grows memory to (the module's maximum unless a host lowers it). */
let ceilingPages: i32 = 65536;

export function setMemoryCeiling(pages: i32): void {
  ceilingPages = pages;
}

let top: usize = (__heap_base + 15) & ~15;
let journalRegionStart: usize = top;

/** Abandoned blocks smaller than this are left where they lie. */
const REUSE_BYTES_MIN: usize = 4096;
/** The abandoned blocks kept, by address (u32 start and size each); the smallest goes when full. */
const FREED_MAX: usize = 128;
const freedStarts = memory.data(<i32>FREED_MAX * 4, 4);
const freedSizes = memory.data(<i32>FREED_MAX * 4, 4);
let freedCount: usize = 0;

/** The bytes a block of `bytes` takes: aligned to 16, with its overread room. */
// @ts-expect-error: decorator
@inline
function spanOf(bytes: usize): usize {
  return (bytes + OVERREAD_BYTES + 15) & ~15;
}

export function reserve(bytes: usize): usize {
  const span = spanOf(bytes);
  if (freedCount > 0 && span > bytes) {
    const reused = takeFreed(span);
    if (reused != 0) return reused;
  }
  const start = (top + 15) & ~15;
  const end = start + bytes + OVERREAD_BYTES;
  if (end < start) return 0;
  const available = <usize>memory.size() * PAGE_BYTES;
  if (end > available && !grow(<i32>((end - available + PAGE_BYTES - 1) / PAGE_BYTES))) return 0;
  top = end;
  return start;
}

/**
 * Hands back a block `reserve(bytes)` gave, which its owner no longer uses (it moved to a bigger
 * one): a later reservation may be cut from it.
 */
export function abandon(block: usize, bytes: usize): void {
  let start = block;
  let size = spanOf(bytes);
  if (size < REUSE_BYTES_MIN) return;
  let at: usize = 0;
  while (at < freedCount && freedStart(at) < start) at++;
  if (at > 0 && freedStart(at - 1) + freedSize(at - 1) == start) {
    at--;
    start = freedStart(at);
    size += freedSize(at);
    removeFreed(at);
  }
  if (at < freedCount && start + size == freedStart(at)) {
    size += freedSize(at);
    removeFreed(at);
  }
  if (start + size >= top) {
    top = start; // the topmost block: the bump pointer takes it back
    return;
  }
  if (freedCount == FREED_MAX) {
    const smallest = smallestFreed();
    if (freedSize(smallest) >= size) return;
    removeFreed(smallest);
    if (smallest < at) at--;
  }
  memory.copy(freedStarts + ((at + 1) << 2), freedStarts + (at << 2), (freedCount - at) << 2);
  memory.copy(freedSizes + ((at + 1) << 2), freedSizes + (at << 2), (freedCount - at) << 2);
  store<u32>(freedStarts + (at << 2), <u32>start);
  store<u32>(freedSizes + (at << 2), <u32>size);
  freedCount++;
}

/** A block of `span` bytes cut from the smallest abandoned block that holds it; 0 when none does. */
function takeFreed(span: usize): usize {
  let best = freedCount;
  for (let at: usize = 0; at < freedCount; at++) {
    if (freedSize(at) >= span && (best == freedCount || freedSize(at) < freedSize(best))) best = at;
  }
  if (best == freedCount) return 0;
  const start = freedStart(best);
  const left = freedSize(best) - span;
  if (left >= REUSE_BYTES_MIN) {
    store<u32>(freedStarts + (best << 2), <u32>(start + span));
    store<u32>(freedSizes + (best << 2), <u32>left);
  } else {
    removeFreed(best);
  }
  return start;
}

// @ts-expect-error: decorator
@inline
function freedStart(at: usize): usize {
  return <usize>load<u32>(freedStarts + (at << 2));
}

// @ts-expect-error: decorator
@inline
function freedSize(at: usize): usize {
  return <usize>load<u32>(freedSizes + (at << 2));
}

function smallestFreed(): usize {
  let smallest: usize = 0;
  for (let at: usize = 1; at < freedCount; at++) {
    if (freedSize(at) < freedSize(smallest)) smallest = at;
  }
  return smallest;
}

function removeFreed(at: usize): void {
  freedCount--;
  memory.copy(freedStarts + (at << 2), freedStarts + ((at + 1) << 2), (freedCount - at) << 2);
  memory.copy(freedSizes + (at << 2), freedSizes + ((at + 1) << 2), (freedCount - at) << 2);
}

/** Forgets the abandoned blocks at and above `mark`: the top moves down to it. */
function forgetFreedFrom(mark: usize): void {
  while (freedCount > 0 && freedStart(freedCount - 1) >= mark) freedCount--;
  if (freedCount > 0 && freedStart(freedCount - 1) + freedSize(freedCount - 1) > mark) {
    const size = mark - freedStart(freedCount - 1);
    if (size >= REUSE_BYTES_MIN) store<u32>(freedSizes + ((freedCount - 1) << 2), <u32>size);
    else freedCount--;
  }
}

/**
 * Grows memory by at least `pagesNeeded`, and by an eighth of its size when that fits under the
 * ceiling: growing a page at a time makes the host re-map the memory and recount it against its
 * heap thousands of times (in V8, each growth can start a garbage collection). Pages grown but
 * not yet written cost no resident memory.
 */
function grow(pagesNeeded: i32): bool {
  const pages = memory.size();
  if (pages + pagesNeeded > ceilingPages) return false;
  const ahead = max(pagesNeeded, pages >> 3);
  if (pages + ahead <= ceilingPages && memory.grow(ahead) >= 0) return true;
  return memory.grow(pagesNeeded) >= 0;
}

/** Reserves a zero-filled block. */
export function reserveZeroed(bytes: usize): usize {
  const start = reserve(bytes);
  if (start != 0) memory.fill(start, 0, bytes);
  return start;
}

/** Moves the top back to `mark`, a block `reserve` gave: it and what lies above it are dropped. */
export function setTop(mark: usize): void {
  top = mark;
  forgetFreedFrom(mark);
}

/** Drops everything: a new DAG or spec is about to be loaded. */
export function resetAll(): void {
  top = (__heap_base + 15) & ~15;
  journalRegionStart = top;
  freedCount = 0;
}

/** Marks the end of the model region: what is reserved from here on belongs to one journal. */
export function sealModelRegion(): void {
  journalRegionStart = top;
}

export function resetJournalRegion(): void {
  top = journalRegionStart;
  forgetFreedFrom(top);
}
