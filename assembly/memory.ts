/**
 * The kernel's only allocator: a bump pointer over linear memory, with no managed objects.
 *
 * Memory is two stacked regions. The model region — what every journal of a run shares: a dag's
 * node tables and id hash table (`loadDag`), an executive spec and its working state — is laid
 * down first; the journal region above it (line buffer, path table, surfaces, findings) is
 * dropped by `resetJournalRegion` before every journal, so auditing many journals over one DAG
 * or spec reuses the same pages. A block that outgrows itself is re-reserved at the top; the abandoned copy is at
 * most half of its successor, so waste stays below the live size.
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

export function reserve(bytes: usize): usize {
  const start = (top + 15) & ~15;
  const end = start + bytes + OVERREAD_BYTES;
  if (end < start) return 0;
  const available = <usize>memory.size() * PAGE_BYTES;
  if (end > available && !grow(<i32>((end - available + PAGE_BYTES - 1) / PAGE_BYTES))) return 0;
  top = end;
  return start;
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
}

/** Drops everything: a new DAG or spec is about to be loaded. */
export function resetAll(): void {
  top = (__heap_base + 15) & ~15;
  journalRegionStart = top;
}

/** Marks the end of the model region: what is reserved from here on belongs to one journal. */
export function sealModelRegion(): void {
  journalRegionStart = top;
}

export function resetJournalRegion(): void {
  top = journalRegionStart;
}
