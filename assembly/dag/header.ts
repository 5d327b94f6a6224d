/**
 * A journal's header line read in the kernel (the reference reads it in src/journal/jsonl.ts and
 * src/journal/dag-file.ts): the model it names, and a `dag` header's DAG built straight into the
 * kernel's columns (dag.ts) — a 10⁵-node header is megabytes of JSON that the host would
 * otherwise parse into objects, check and pack.
 *
 * Only the plain case is read here: a valid UTF-8 JSON object whose `statefold`, `version`,
 * `model` and `dag` keys, and in the DAG the `nodes`, `id` and `deps` keys, are written without
 * escapes and each at most once; `"statefold":"journal"` and `"version":1` as written; ids and
 * deps strings without escapes; and a DAG `makeDag` accepts (no duplicate id, no dangling
 * dependency, no cycle). Anything else answers ASK_HOST and the host reads the line with the
 * reference reader, which gives the exact verdict or error. Members the reference ignores are
 * skipped here too.
 */

import { CharCode, isName, LineShape, NO_FIELD, scanLine, scanString, scannedEscape, skipWhitespace, useContainerStack } from "../json";
import { reserve, resetAll, setTop } from "../memory";
import { isValidUtf8 } from "../utf8";
import { adoptDag, buildIdTable, dependents, dependentsStart, depCounts, idTableCapacity, lookupId } from "./dag";

/** The model a header names, as `headerModel` answers; ASK_HOST when the host must read it. */
export namespace HeaderModel {
  export const ASK_HOST: i32 = -1;
  export const DAG: i32 = 0;
  export const OPERATIONS: i32 = 1;
  export const EXECUTIVE: i32 = 2;
}

namespace Member {
  export const STATEFOLD: i32 = 0;
  export const VERSION: i32 = 1;
  export const MODEL: i32 = 2;
  export const DAG: i32 = 3;
  export const COUNT: i32 = 4;
}

/** Per top-level member: how often it was found, and its value's [start, end). */
const memberCounts = memory.data(Member.COUNT * 4, 4);
const memberStart = memory.data(Member.COUNT * 4, 4);
const memberEnd = memory.data(Member.COUNT * 4, 4);
let escapedKey = false;

let input: usize = 0;
let inputLength: usize = 0;

/** Whether the line at `input` was scanned and found a plain header (its members recorded). */
let scanned = false;

/** Drops all state and reserves room for a header line of `length` bytes; 0 when memory is exhausted. */
export function prepareHeader(length: usize): usize {
  resetAll();
  input = reserve(length);
  inputLength = length;
  scanned = false;
  return input;
}

/**
 * The model the header line written at `prepareHeader`'s pointer names (a HeaderModel code). A
 * `loadHeaderDag` of the same line after it does not scan the line again.
 */
export function headerModel(): i32 {
  scanned = scanned || scanHeader();
  return scanned ? modelOfHeader() : HeaderModel.ASK_HOST;
}

/**
 * Builds the DAG of the `dag` header written at `prepareHeader`'s pointer as the loaded DAG;
 * false (and the kernel holds no DAG) when the host must read the header.
 */
export function loadHeaderDag(): bool {
  scanned = scanned || scanHeader();
  const loaded = scanned && modelOfHeader() == HeaderModel.DAG && memberSeen(Member.DAG) == 1 && buildDag();
  scanned = false;
  if (!loaded) resetAll();
  return loaded;
}

/** Validates the line and records its top-level members; false when the host must read it. */
function scanHeader(): bool {
  const stack = reserve((inputLength >> 3) + 1);
  if (stack == 0) return false;
  useContainerStack(stack);
  // The host gives the bytes up to the first non-blank line's line feed: blank lines (spaces,
  // tabs, carriage returns), then the line. Blanks before it are JSON whitespace, as its own are.
  let start = input;
  let end = input + inputLength;
  if (end > start && load<u8>(end - 1) == CharCode.LF) end--;
  if (end > start && load<u8>(end - 1) == CharCode.CR) end--;
  start = skipWhitespace(start, end);
  if (start == end) return false;
  memory.fill(memberCounts, 0, Member.COUNT * 4);
  escapedKey = false;
  if (hasHighBytes(start, end) && !isValidUtf8(start, end)) return false;
  if (scanLine<HeaderMembers>(start, end) != LineShape.OBJECT || escapedKey) return false;
  for (let member = 0; member < Member.COUNT; member++) {
    if (memberSeen(member) > 1) return false;
  }
  return (
    memberSeen(Member.STATEFOLD) == 1 &&
    isValue(Member.STATEFOLD, '"journal"') &&
    memberSeen(Member.VERSION) == 1 &&
    isValue(Member.VERSION, "1")
  );
}

/** Whether a byte of [start, end) is 0x80 or above (only then is UTF-8 checked). */
function hasHighBytes(start: usize, end: usize): bool {
  let at = start;
  if (ASC_FEATURE_SIMD) {
    let high = i8x16.splat(0);
    for (; at + 16 <= end; at += 16) high = v128.or(high, v128.load(at));
    if (i8x16.bitmask(high) != 0) return true;
  }
  for (; at < end; at++) {
    if (load<u8>(at) >= 0x80) return true;
  }
  return false;
}

function modelOfHeader(): i32 {
  if (memberSeen(Member.MODEL) == 0 || isValue(Member.MODEL, '"dag"')) return HeaderModel.DAG;
  if (isValue(Member.MODEL, '"operations"')) return HeaderModel.OPERATIONS;
  if (isValue(Member.MODEL, '"executive"')) return HeaderModel.EXECUTIVE;
  return HeaderModel.ASK_HOST;
}

// @ts-expect-error: decorator
@inline
function memberSeen(member: i32): u32 {
  return load<u32>(memberCounts + (<usize>member << 2));
}

function isValue(member: i32, text: string): bool {
  const start = <usize>load<u32>(memberStart + (<usize>member << 2));
  const end = <usize>load<u32>(memberEnd + (<usize>member << 2));
  return isName(start, end - start, text);
}

/** The reader of json.ts for a header: its four top-level members. */
@final
class HeaderMembers {
  // @ts-expect-error: decorator
  @inline
  fieldDepth(): usize {
    return 1;
  }

  // @ts-expect-error: decorator
  @inline
  clearFields(): void {}

  // @ts-expect-error: decorator
  @inline
  member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
    if (escaped) escapedKey = true;
    const length = keyEnd - keyStart;
    if (isName(keyStart, length, "statefold")) return Member.STATEFOLD;
    if (isName(keyStart, length, "version")) return Member.VERSION;
    if (isName(keyStart, length, "model")) return Member.MODEL;
    if (isName(keyStart, length, "dag")) return Member.DAG;
    return NO_FIELD;
  }

  // @ts-expect-error: decorator
  @inline
  field(field: i32, start: usize, end: usize, escaped: bool): void {
    const at = <usize>field << 2;
    store<u32>(memberCounts + at, load<u32>(memberCounts + at) + 1);
    store<u32>(memberStart + at, <u32>start);
    store<u32>(memberEnd + at, <u32>end);
  }
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
  const dagStart = <usize>load<u32>(memberStart + (<usize>Member.DAG << 2));
  const dagEnd = <usize>load<u32>(memberEnd + (<usize>Member.DAG << 2));
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
  const base = input;
  setTop(base);
  if (reserve(columnsBytes) != base) return false;
  const movedInput = reserve(inputLength);
  if (movedInput == 0) return false;
  memory.copy(movedInput, input, inputLength);
  const shift = movedInput - input;
  input = movedInput;

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
    const node = lookupId(input + <usize>load<u32>(depRefs + (k << 3)), <usize>load<u32>(depRefs + (k << 3), 4));
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
      store<u32>(depRefs + (<usize>depNames << 3), <u32>(at + 1 - input));
      store<u32>(depRefs + (<usize>depNames << 3), <u32>(nameEnd - 1 - (at + 1)), 4);
    }
    depNames++;
    at = skipWhitespace(nameEnd, end);
    if (load<u8>(at) == CharCode.CLOSE_BRACKET) return true;
    at = skipWhitespace(at + 1, end);
  }
  return false;
}

/** One past the JSON value at `at`, which the line's scan found valid. */
function skipValue(at: usize, end: usize): usize {
  const c = <u32>load<u8>(at);
  if (c == CharCode.QUOTE) return scanString(at, end);
  if (c != CharCode.OPEN_BRACE && c != CharCode.OPEN_BRACKET) {
    // A number or a literal: it ends where the punctuation or whitespace after it starts.
    while (at < end) {
      const b = <u32>load<u8>(at);
      if (b == CharCode.COMMA || b == CharCode.CLOSE_BRACE || b == CharCode.CLOSE_BRACKET || b <= CharCode.SPACE) break;
      at++;
    }
    return at;
  }
  let depth = 0;
  while (true) {
    const b = <u32>load<u8>(at);
    if (b == CharCode.QUOTE) {
      at = scanString(at, end);
      continue;
    }
    if (b == CharCode.OPEN_BRACE || b == CharCode.OPEN_BRACKET) depth++;
    else if (b == CharCode.CLOSE_BRACE || b == CharCode.CLOSE_BRACKET) {
      if (--depth == 0) return at + 1;
    }
    at++;
  }
  return at;
}
