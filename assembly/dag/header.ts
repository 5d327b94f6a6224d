/**
 * A `dag` journal's header read in the kernel (the reference reads it in src/journal/jsonl.ts and
 * src/journal/dag/dag-file.ts): the DAG built straight into the kernel's columns (dag.ts) from the
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
import { headerInput, HeaderModel, headerRead, isPlainHeaderWith, Member, memberValueEnd, memberValueStart, skipValue } from "../header";
import { reserve, resetAll, setTop } from "../memory";
import { adoptDag, adoptIdTable, buildIdTable, dependents, dependentsStart, depCounts, idTableCapacity, lookupId } from "./dag";

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

// The DAG: one walk over the (valid) JSON of the `dag` value, noting ids and dep names in
// scratch sized by what the value's length allows, then the columns built beside them and moved
// down over the header, which is no longer needed.

let nodes: u32 = 0;
let depNames: u32 = 0;
let idByteCount: usize = 0;
/** Where the walk notes each node's id and dep names. */
let idOffsets: usize = 0;
let idBytes: usize = 0;
let depsStart: usize = 0;
/** Per dep name: where it lies in the header, and its length (u32 pairs). */
let depRefs: usize = 0;
/** The room the walk has: no valid DAG of the span's length needs more (checked all the same). */
let nodesMax: usize = 0;
let depNamesMax: usize = 0;

/** The fewest bytes a node takes: `{"id":"","deps":[]}`. */
const NODE_BYTES_MIN: usize = 19;
/** The fewest bytes a dep name takes with the comma or bracket after it: `"",`. */
const DEP_NAME_BYTES_MIN: usize = 3;

function buildDag(): bool {
  const dagStart = memberValueStart(Member.DAG);
  const dagEnd = memberValueEnd(Member.DAG);
  const span = dagEnd - dagStart;
  nodesMax = span / NODE_BYTES_MIN + 1;
  depNamesMax = span / DEP_NAME_BYTES_MIN + 1;
  // Only the pages the walk writes are touched: reserving for the most the span could hold costs
  // address space, not memory.
  idOffsets = reserve(4 * (nodesMax + 1));
  idBytes = reserve(span);
  depsStart = reserve(4 * (nodesMax + 1));
  depRefs = reserve(8 * depNamesMax);
  if (idOffsets == 0 || idBytes == 0 || depsStart == 0 || depRefs == 0) return false;
  nodes = 0;
  depNames = 0;
  idByteCount = 0;
  store<u32>(idOffsets, 0);
  store<u32>(depsStart, 0);
  if (!walkDag(dagStart, dagEnd)) return false;

  const n = <usize>nodes;
  const capacity = idTableCapacity(nodes);
  const counts = reserve(4 * n);
  const starts = reserve(4 * (n + 1));
  const edges = reserve(4 * <usize>depNames);
  const slots = reserve(4 * <usize>capacity);
  const tags = reserve(4 * <usize>capacity);
  const depPositions = reserve(4 * <usize>depNames);
  const unmet = reserve(4 * n);
  const queue = reserve(4 * n);
  if (counts == 0 || starts == 0 || edges == 0 || slots == 0 || tags == 0 || depPositions == 0 || unmet == 0 || queue == 0) {
    return false;
  }
  adoptDag(<i32>n, idOffsets, counts, starts, edges, idBytes);
  if (!buildIdTable(slots, tags, capacity)) return false; // a duplicate id
  for (let k: usize = 0; k < <usize>depNames; k++) {
    const node = lookupId(<usize>load<u32>(depRefs + (k << 3)), <usize>load<u32>(depRefs + (k << 3), 4));
    if (node < 0) return false; // a dangling dependency
    store<u32>(depPositions + (k << 2), <u32>node);
  }
  reverseEdges(n, depPositions, unmet, queue); // the Kahn pass's two arrays are free until it runs
  if (!isAcyclic(n, unmet, queue)) return false;
  const edgeCount = <usize>load<u32>(dependentsStart + 4 * n);

  // Down over the header, in the order they lie, so no column is overwritten before it moves.
  let to = headerInput;
  const movedIdOffsets = to;
  to = moveDown(to, idOffsets, 4 * (n + 1));
  const movedIdBytes = to;
  to = moveDown(to, idBytes, idByteCount);
  const movedCounts = to;
  to = moveDown(to, counts, 4 * n);
  const movedStarts = to;
  to = moveDown(to, starts, 4 * (n + 1));
  const movedEdges = to;
  to = moveDown(to, edges, 4 * edgeCount);
  const movedSlots = to;
  to = moveDown(to, slots, 4 * <usize>capacity);
  const movedTags = to;
  to = moveDown(to, tags, 4 * <usize>capacity);
  adoptDag(<i32>n, movedIdOffsets, movedCounts, movedStarts, movedEdges, movedIdBytes);
  adoptIdTable(movedSlots, movedTags, capacity);
  setTop(to);
  return true;
}

/** Moves a column to `to` (at or below it); where the next one goes, as `reserve` would lay it. */
function moveDown(to: usize, from: usize, bytes: usize): usize {
  memory.copy(to, from, bytes);
  return to + blockBytes(bytes);
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
  let depsSeen = false;
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
      if (depsSeen || load<u8>(at) != CharCode.OPEN_BRACKET) return 0;
      depsSeen = true;
      at = walkDeps(at, end);
      if (at == 0) return 0;
    } else {
      at = skipValue(at, end);
    }
    at = skipWhitespace(at, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACE) break;
    at = skipWhitespace(at + 1, end);
  }
  if (idEnd == 0 || !depsSeen || <usize>nodes == nodesMax) return 0;
  const idLength = idEnd - idStart;
  memory.copy(idBytes + idByteCount, idStart, idLength);
  idByteCount += idLength;
  nodes++;
  store<u32>(idOffsets + (<usize>nodes << 2), <u32>idByteCount);
  store<u32>(depsStart + (<usize>nodes << 2), depNames);
  return at + 1;
}

/**
 * Walks a deps array of plain strings, noting each name; one past it, or 0 when the host must
 * read the header.
 */
function walkDeps(at: usize, end: usize): usize {
  at = skipWhitespace(at + 1, end);
  if (load<u8>(at) == CharCode.CLOSE_BRACKET) return at + 1;
  while (true) {
    if (load<u8>(at) != CharCode.QUOTE) return 0;
    const nameEnd = scanString(at, end);
    if (scannedEscape || <usize>depNames == depNamesMax) return 0;
    store<u32>(depRefs + (<usize>depNames << 3), <u32>(at + 1));
    store<u32>(depRefs + (<usize>depNames << 3), <u32>(nameEnd - 1 - (at + 1)), 4);
    depNames++;
    at = skipWhitespace(nameEnd, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACKET) return at + 1;
    at = skipWhitespace(at + 1, end);
  }
  return 0;
}
