/**
 * A `dag` journal's header read in the kernel (the reference reads it in src/journal/jsonl.ts and
 * src/journal/dag-file.ts): the DAG built straight into the kernel's columns (dag.ts) from the
 * header line ../header.ts validated — a 10⁵-node header is megabytes of JSON that the host would
 * otherwise parse into objects, check and pack.
 *
 * Only the plain case is read here (../header.ts says what a plain header is): in the DAG the
 * `nodes`, `id` and `deps` keys written without escapes and each at most once, ids and deps
 * strings without escapes, and a DAG `makeDag` accepts (no duplicate id, no dangling dependency,
 * no cycle). Anything else answers false and the host reads the line with the reference reader,
 * which gives the exact verdict or error. Members the reference ignores are skipped here too.
 */

import { CharCode, isName, scanString, scannedEscape, skipWhitespace } from "../json";
import { headerInput, headerLength, HeaderModel, headerRead, isPlainHeaderWith, Member, memberValueEnd, memberValueStart, moveHeader, skipValue } from "../header";
import { reserve, resetAll, setTop } from "../memory";
import { adoptDag, buildIdTable, dependents, dependentsStart, depCounts, idTableCapacity, lookupId } from "./dag";

/**
 * Builds the DAG of the `dag` header written at `prepareHeader`'s pointer as the loaded DAG;
 * false (and the kernel holds no DAG) when the host must read the header.
 */
export function loadHeaderDag(): bool {
  const loaded = isPlainHeaderWith(HeaderModel.DAG, Member.DAG) && buildDag();
  headerRead();
  if (!loaded) resetAll();
  return loaded;
}

// The DAG: two walks over the (valid) JSON of the `dag` value, one to count, one to fill.

let nodes: u32 = 0;
let depNames: u32 = 0;
let idByteCount: usize = 0;
/** Set by a filling walk: where the next node's id and dep names go. */
let filling = false;
let idOffsets: usize = 0;
let idBytes: usize = 0;
let depsStart: usize = 0;
/** Per dep name: where it lies in the header, and its length (u32 pairs). */
let depRefs: usize = 0;

function buildDag(): bool {
  const dagStart = memberValueStart(Member.DAG);
  const dagEnd = memberValueEnd(Member.DAG);
  filling = false;
  nodes = 0;
  depNames = 0;
  idByteCount = 0;
  if (!walkDag(dagStart, dagEnd)) return false;

  // The columns the kernel keeps, carved from the bottom of the model region; the header and the
  // scratch above them are dropped once the DAG is built. The header moves up out of their way.
  const n = <usize>nodes;
  const capacity = idTableCapacity(nodes);
  const columnsBytes =
    blockBytes(4 * (n + 1)) * 2 + blockBytes(4 * n) + blockBytes(4 * <usize>depNames) + blockBytes(idByteCount) +
    blockBytes(4 * <usize>capacity) * 2;
  const base = headerInput;
  setTop(base);
  if (reserve(columnsBytes) != base) return false;
  const movedInput = reserve(headerLength);
  if (movedInput == 0) return false;
  const shift = moveHeader(movedInput);

  idOffsets = base;
  const counts = idOffsets + blockBytes(4 * (n + 1));
  const starts = counts + blockBytes(4 * n);
  const edges = starts + blockBytes(4 * (n + 1));
  idBytes = edges + blockBytes(4 * <usize>depNames);
  const slots = idBytes + blockBytes(idByteCount);
  const tags = slots + blockBytes(4 * <usize>capacity);
  const columnsEnd = tags + blockBytes(4 * <usize>capacity);

  depsStart = reserve(4 * (n + 1));
  depRefs = reserve(8 * <usize>depNames);
  const depPositions = reserve(4 * <usize>depNames);
  const unmet = reserve(4 * n);
  const queue = reserve(4 * n);
  if (depsStart == 0 || depRefs == 0 || depPositions == 0 || unmet == 0 || queue == 0) return false;

  filling = true;
  nodes = 0;
  depNames = 0;
  idByteCount = 0;
  store<u32>(idOffsets, 0);
  store<u32>(depsStart, 0);
  if (!walkDag(dagStart + shift, dagEnd + shift)) return false;

  adoptDag(<i32>n, idOffsets, counts, starts, edges, idBytes);
  if (!buildIdTable(slots, tags, capacity)) return false; // a duplicate id
  for (let k: usize = 0; k < <usize>depNames; k++) {
    const node = lookupId(headerInput + <usize>load<u32>(depRefs + (k << 3)), <usize>load<u32>(depRefs + (k << 3), 4));
    if (node < 0) return false; // a dangling dependency
    store<u32>(depPositions + (k << 2), <u32>node);
  }
  reverseEdges(n, depPositions, unmet, queue); // the Kahn pass's two arrays are free until it runs
  if (!isAcyclic(n, unmet, queue)) return false;
  setTop(columnsEnd);
  return true;
}

/** Bytes a block of `bytes` takes in the region: aligned to 16, with the allocator's overread room. */
// @ts-expect-error: decorator
@inline
function blockBytes(bytes: usize): usize {
  return (bytes + 16 + 15) & ~15;
}

/**
 * The edges turned around and deduplicated, as src/models/dag/reverse-edges.ts's
 * `computeReverseEdges` does it, into the adopted columns: per node its distinct deps, and per
 * dependency its dependents in node order. `lastNamedBy` and `nextSlot` are scratch of n words.
 */
function reverseEdges(n: usize, depPositions: usize, lastNamedBy: usize, nextSlot: usize): void {
  memory.fill(lastNamedBy, 0xff, 4 * n);
  memory.fill(depCounts, 0, 4 * n);
  memory.fill(dependentsStart, 0, 4 * (n + 1));
  for (let node: usize = 0; node < n; node++) {
    for (let k = <usize>load<u32>(depsStart + (node << 2)); k < <usize>load<u32>(depsStart + (node << 2), 4); k++) {
      const dep = <usize>load<u32>(depPositions + (k << 2));
      if (<usize>load<u32>(lastNamedBy + (dep << 2)) == node) {
        store<u32>(depPositions + (k << 2), 0xffffffff); // named before in this list
        continue;
      }
      store<u32>(lastNamedBy + (dep << 2), <u32>node);
      store<u32>(depCounts + (node << 2), load<u32>(depCounts + (node << 2)) + 1);
      store<u32>(dependentsStart + ((dep + 1) << 2), load<u32>(dependentsStart + ((dep + 1) << 2)) + 1);
    }
  }
  for (let node: usize = 0; node < n; node++) {
    store<u32>(dependentsStart + ((node + 1) << 2), load<u32>(dependentsStart + ((node + 1) << 2)) + load<u32>(dependentsStart + (node << 2)));
  }
  memory.copy(nextSlot, dependentsStart, 4 * n);
  for (let node: usize = 0; node < n; node++) {
    for (let k = <usize>load<u32>(depsStart + (node << 2)); k < <usize>load<u32>(depsStart + (node << 2), 4); k++) {
      const dep = load<u32>(depPositions + (k << 2));
      if (dep == 0xffffffff) continue;
      const slot = load<u32>(nextSlot + (<usize>dep << 2));
      store<u32>(dependents + (<usize>slot << 2), <u32>node);
      store<u32>(nextSlot + (<usize>dep << 2), slot + 1);
    }
  }
}

/** Kahn's algorithm: whether every node is freed (none sits on or behind a cycle). */
function isAcyclic(n: usize, unmet: usize, queue: usize): bool {
  memory.copy(unmet, depCounts, 4 * n);
  let queued: usize = 0;
  for (let node: usize = 0; node < n; node++) {
    if (load<u32>(unmet + (node << 2)) == 0) store<u32>(queue + (queued++ << 2), <u32>node);
  }
  for (let next: usize = 0; next < queued; next++) {
    const node = <usize>load<u32>(queue + (next << 2));
    for (let edge = <usize>load<u32>(dependentsStart + (node << 2)); edge < <usize>load<u32>(dependentsStart + (node << 2), 4); edge++) {
      const dependent = <usize>load<u32>(dependents + (edge << 2));
      const left = load<u32>(unmet + (dependent << 2)) - 1;
      store<u32>(unmet + (dependent << 2), left);
      if (left == 0) store<u32>(queue + (queued++ << 2), <u32>dependent);
    }
  }
  return queued == n;
}

/** Walks the `dag` object [start, end): its `nodes` member, once, an array. */
function walkDag(start: usize, end: usize): bool {
  if (load<u8>(start) != CharCode.OPEN_BRACE) return false;
  let nodesSeen = 0;
  let at = skipWhitespace(start + 1, end);
  if (load<u8>(at) == CharCode.CLOSE_BRACE) return false;
  while (true) {
    const keyEnd = scanString(at, end);
    if (scannedEscape) return false;
    const isNodes = isName(at + 1, keyEnd - 1 - (at + 1), "nodes");
    at = skipWhitespace(skipWhitespace(keyEnd, end) + 1, end);
    if (isNodes) {
      if (++nodesSeen > 1 || load<u8>(at) != CharCode.OPEN_BRACKET) return false;
      at = walkNodes(at, end);
      if (at == 0) return false;
    } else {
      at = skipValue(at, end);
    }
    at = skipWhitespace(at, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACE) return nodesSeen == 1;
    at = skipWhitespace(at + 1, end);
  }
  return false;
}

/** Walks the `nodes` array at `at`; one past it, or 0 when the host must read the header. */
function walkNodes(at: usize, end: usize): usize {
  at = skipWhitespace(at + 1, end);
  if (load<u8>(at) == CharCode.CLOSE_BRACKET) return at + 1;
  while (true) {
    at = walkNode(at, end);
    if (at == 0) return 0;
    at = skipWhitespace(at, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACKET) return at + 1;
    at = skipWhitespace(at + 1, end);
  }
  return 0;
}

/** Walks one node object at `at`: its `id` and `deps`, each once, in either order. */
function walkNode(at: usize, end: usize): usize {
  if (load<u8>(at) != CharCode.OPEN_BRACE) return 0;
  let idStart: usize = 0;
  let idEnd: usize = 0;
  let depsAt: usize = 0;
  at = skipWhitespace(at + 1, end);
  if (load<u8>(at) == CharCode.CLOSE_BRACE) return 0;
  while (true) {
    const keyEnd = scanString(at, end);
    if (scannedEscape) return 0;
    const keyLength = keyEnd - 1 - (at + 1);
    const isId = isName(at + 1, keyLength, "id");
    const isDeps = !isId && isName(at + 1, keyLength, "deps");
    at = skipWhitespace(skipWhitespace(keyEnd, end) + 1, end);
    if (isId) {
      if (idEnd != 0 || load<u8>(at) != CharCode.QUOTE) return 0;
      idEnd = scanString(at, end);
      if (scannedEscape) return 0;
      idStart = at + 1;
      at = idEnd;
      idEnd -= 1;
    } else if (isDeps) {
      if (depsAt != 0 || load<u8>(at) != CharCode.OPEN_BRACKET) return 0;
      depsAt = at;
      at = skipValue(at, end);
    } else {
      at = skipValue(at, end);
    }
    at = skipWhitespace(at, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACE) break;
    at = skipWhitespace(at + 1, end);
  }
  if (idEnd == 0 || depsAt == 0) return 0;
  if (!walkDeps(depsAt, end)) return 0;
  const idLength = idEnd - idStart;
  if (filling) {
    memory.copy(idBytes + idByteCount, idStart, idLength);
    store<u32>(idOffsets + ((<usize>nodes + 1) << 2), <u32>(idByteCount + idLength));
    store<u32>(depsStart + ((<usize>nodes + 1) << 2), depNames);
  }
  idByteCount += idLength;
  nodes++;
  return at + 1;
}

/** Walks a deps array of plain strings, noting each name; false when the host must read it. */
function walkDeps(at: usize, end: usize): bool {
  at = skipWhitespace(at + 1, end);
  if (load<u8>(at) == CharCode.CLOSE_BRACKET) return true;
  while (true) {
    if (load<u8>(at) != CharCode.QUOTE) return false;
    const nameEnd = scanString(at, end);
    if (scannedEscape) return false;
    if (filling) {
      store<u32>(depRefs + (<usize>depNames << 3), <u32>(at + 1 - headerInput));
      store<u32>(depRefs + (<usize>depNames << 3), <u32>(nameEnd - 1 - (at + 1)), 4);
    }
    depNames++;
    at = skipWhitespace(nameEnd, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACKET) return true;
    at = skipWhitespace(at + 1, end);
  }
  return false;
}

