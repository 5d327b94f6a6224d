/**
 * File surfaces: interned paths and, per node, the set of paths its current surface holds.
 *
 * A path is interned once per journal (keyed hash table, at most half full, doubled when it
 * fills), so every later comparison is between u32 path ids; a surface event's paths are first
 * guessed from the node's current surface (`internPathAt`). A node's surface is a block of
 * distinct path ids in one arena; a surface event collects its payload's distinct ids into the
 * payload list (marking each with the event's stamp), which makes "the payload keeps every current
 * path" one pass over the node's block, and storing the payload one copy.
 *
 * A payload that is no array of strings is stored as a mark that the node's surface is malformed
 * (its block empty): the model compares later payloads against the stored value, and no valid
 * payload keeps a malformed one (docs/models/dag.md, "Surfaces").
 *
 * Memory is O(distinct paths + Σ current surface sizes): blocks double when they grow, and a full
 * arena is compacted into a new one twice the live size.
 *
 * In the record format the host interns paths itself and sends dense ids; `usePathIdSpace` sizes
 * the marks for them and the path table stays unused.
 */
import { nodeCount } from "./dag";
import { hashBytes } from "../hash";
import { abandon, reserve, reserveZeroed } from "../memory";

let pathCount: u32 = 0;
let pathCapacity: u32 = 0; // paths the per-path columns can hold; slots are twice this
let pathSlots: usize = 0; // u32: path id + 1, 0 when empty
let pathTags: usize = 0; // u32: low half of the path's hash
let pathStarts: usize = 0; // u32 per path + 1: bytes of path p are pathBytes[start[p] .. start[p+1])
let pathBytes: usize = 0;
let pathBytesCapacity: usize = 0;
let marks: usize = 0; // u32 per path: the stamp of the last payload that named it
let stamp: u32 = 0;

let blockStart: usize = 0; // u32 per node: first word of the node's block in the arena
let blockLength: usize = 0; // u32 per node
let blockCapacity: usize = 0; // u32 per node
let malformed: usize = 0; // u8 per node: 1 while its surface is a malformed payload
let arena: usize = 0;
let arenaWords: u32 = 0;
let arenaUsed: u32 = 0;

let payload: usize = 0; // u32 path ids of the current surface event, distinct, in order
let payloadCapacity: u32 = 0;
let payloadLength: u32 = 0;

/** Starts a journal: no paths, every node's surface empty. False when memory is exhausted. */
export function resetSurfaces(): bool {
  pathCount = 0;
  pathCapacity = 0; // the last journal's tables went with its region
  stamp = 0;
  blockStart = reserveZeroed((<usize>nodeCount) << 2);
  blockLength = reserveZeroed((<usize>nodeCount) << 2);
  blockCapacity = reserveZeroed((<usize>nodeCount) << 2);
  malformed = reserveZeroed(<usize>nodeCount);
  arenaWords = 1024;
  arenaUsed = 0;
  arena = reserve((<usize>arenaWords) << 2);
  payloadCapacity = 256;
  payload = reserve((<usize>payloadCapacity) << 2);
  pathBytesCapacity = 16384;
  pathBytes = reserve(pathBytesCapacity);
  return (
    blockStart != 0 &&
    blockLength != 0 &&
    blockCapacity != 0 &&
    malformed != 0 &&
    arena != 0 &&
    payload != 0 &&
    pathBytes != 0 &&
    growPathTable(256)
  );
}

function growPathTable(capacity: u32): bool {
  const slotCount = capacity << 1;
  const slots = reserveZeroed((<usize>slotCount) << 2);
  const tags = reserve((<usize>slotCount) << 2);
  const starts = reserve((<usize>capacity + 1) << 2);
  const newMarks = reserveZeroed((<usize>capacity) << 2);
  if (slots == 0 || tags == 0 || starts == 0 || newMarks == 0) return false;
  if (pathCount > 0) {
    memory.copy(starts, pathStarts, (<usize>pathCount + 1) << 2);
    memory.copy(newMarks, marks, (<usize>pathCount) << 2);
  } else {
    store<u32>(starts, 0);
  }
  const mask = slotCount - 1;
  for (let path: u32 = 0; path < pathCount; path++) {
    const start = pathBytes + load<u32>(pathStarts + ((<usize>path) << 2));
    const end = pathBytes + load<u32>(pathStarts + ((<usize>path) << 2), 4);
    const tag = <u32>hashBytes(start, end - start);
    let slot = tag & mask;
    while (load<u32>(slots + ((<usize>slot) << 2)) != 0) slot = (slot + 1) & mask;
    store<u32>(slots + ((<usize>slot) << 2), path + 1);
    store<u32>(tags + ((<usize>slot) << 2), tag);
  }
  if (pathCapacity > 0) {
    abandon(pathSlots, (<usize>pathCapacity << 1) << 2);
    abandon(pathTags, (<usize>pathCapacity << 1) << 2);
    abandon(pathStarts, ((<usize>pathCapacity) + 1) << 2);
    abandon(marks, (<usize>pathCapacity) << 2);
  }
  pathSlots = slots;
  pathTags = tags;
  pathStarts = starts;
  marks = newMarks;
  pathCapacity = capacity;
  return true;
}

/**
 * Room for `count` paths of `bytes` bytes in all before they are interned (a snapshot's restore
 * knows them in advance). False when memory is exhausted.
 */
export function reservePathRoom(count: u32, bytes: usize): bool {
  if (!usePathIdSpace(count)) return false;
  const used = <usize>load<u32>(pathStarts + ((<usize>pathCount) << 2));
  return used + bytes <= pathBytesCapacity || growPathBytes(used, used + bytes);
}

/** Moves the paths' `used` bytes to an area of `capacity` bytes; false when memory is exhausted. */
function growPathBytes(used: usize, capacity: usize): bool {
  if (capacity > <usize>u32.MAX_VALUE) return false;
  const grown = reserve(capacity);
  if (grown == 0) return false;
  memory.copy(grown, pathBytes, used);
  abandon(pathBytes, pathBytesCapacity);
  pathBytes = grown;
  pathBytesCapacity = capacity;
  return true;
}

/** The id of the path with these bytes, interning it if new; -1 when memory is exhausted. */
export function internPath(pointer: usize, length: usize): i64 {
  const hash = <u32>hashBytes(pointer, length);
  const mask = (pathCapacity << 1) - 1;
  let slot = hash & mask;
  while (true) {
    const entry = load<u32>(pathSlots + ((<usize>slot) << 2));
    if (entry == 0) break;
    if (load<u32>(pathTags + ((<usize>slot) << 2)) == hash && isPath(entry - 1, pointer, length)) return entry - 1;
    slot = (slot + 1) & mask;
  }
  return addPath(pointer, length, hash);
}

/**
 * `internPath` for the path at `position` of a surface event's payload on `node`, trying first
 * the path at that position of the node's current surface: a widening payload mostly repeats the
 * surface it widens, in its order, and the guess costs a compare where `internPath` hashes the
 * bytes and probes a table of megabytes (a 10⁵-node journal's paths). Paths are interned once, so
 * bytes equal to a path's are that path.
 */
export function internPathAt(node: i32, position: u32, pointer: usize, length: usize): i64 {
  if (position < load<u32>(blockLength + ((<usize>node) << 2))) {
    const path = load<u32>(arena + ((<usize>(load<u32>(blockStart + ((<usize>node) << 2)) + position)) << 2));
    if (isPath(path, pointer, length)) return path;
  }
  return internPath(pointer, length);
}

/** Whether path `path`'s bytes are exactly these. */
// @ts-expect-error: decorator
@inline
function isPath(path: u32, pointer: usize, length: usize): bool {
  const start = pathBytes + load<u32>(pathStarts + ((<usize>path) << 2));
  const end = pathBytes + load<u32>(pathStarts + ((<usize>path) << 2), 4);
  return end - start == length && memory.compare(start, pointer, length) == 0;
}

function addPath(pointer: usize, length: usize, hash: u32): i64 {
  if (pathCount == pathCapacity && !growPathTable(pathCapacity << 1)) return -1;
  const used = <usize>load<u32>(pathStarts + ((<usize>pathCount) << 2));
  if (used + length > pathBytesCapacity) {
    let capacity = pathBytesCapacity << 1;
    while (used + length > capacity) capacity <<= 1;
    if (!growPathBytes(used, capacity)) return -1;
  }
  memory.copy(pathBytes + used, pointer, length);
  const path = pathCount++;
  store<u32>(pathStarts + ((<usize>pathCount) << 2), <u32>(used + length));
  const mask = (pathCapacity << 1) - 1;
  let slot = hash & mask;
  while (load<u32>(pathSlots + ((<usize>slot) << 2)) != 0) slot = (slot + 1) & mask;
  store<u32>(pathSlots + ((<usize>slot) << 2), path + 1);
  store<u32>(pathTags + ((<usize>slot) << 2), hash);
  return path;
}

/** Interned paths so far (ids 0 .. count-1, in the order they were first seen). */
export function pathCountNow(): u32 {
  return pathCount;
}

export function pathPointer(path: u32): usize {
  return pathBytes + load<u32>(pathStarts + (<usize>path << 2));
}

/**
 * The tables a snapshot copies whole, where they lie: the paths' starts (`pathCountNow() + 1`
 * u32s: path p's bytes are the start[p + 1] - start[p] at `pathPointer(p)`), and per node its
 * surface's length (u32) and whether it is malformed (u8) — read as arrays, not a call a value.
 */
export function pathStartsPointer(): usize {
  return pathStarts;
}

export function surfaceLengthsPointer(): usize {
  return blockLength;
}

export function surfaceMalformedPointer(): usize {
  return malformed;
}

/**
 * Where each node's current surface lies: a u32 per node, the word of the arena its path ids
 * (distinct, none when malformed) start at.
 */
export function surfaceStartsPointer(): usize {
  return blockStart;
}

export function surfaceArenaPointer(): usize {
  return arena;
}

export function isSurfaceMalformed(node: i32): bool {
  return load<u8>(malformed + <usize>node) != 0;
}

/**
 * Record format: the host's path ids are 0 .. count-1. Called between batches, so growing (which
 * keeps the marks of interned paths only) never drops a mark of the payload being collected.
 * False when memory is exhausted.
 */
export function usePathIdSpace(count: u32): bool {
  if (count <= pathCapacity) return true;
  let capacity = pathCapacity;
  while (capacity < count) capacity <<= 1;
  return growPathTable(capacity);
}

/** Starts collecting the paths of one surface event. */
export function beginPayload(): void {
  payloadLength = 0;
  stamp += 1;
  if (stamp == 0) {
    memory.fill(marks, 0, (<usize>pathCapacity) << 2);
    stamp = 1;
  }
}

/** Adds a path to the payload unless it is already in it; false when memory is exhausted. */
export function addToPayload(path: u32): bool {
  const mark = marks + ((<usize>path) << 2);
  if (load<u32>(mark) == stamp) return true;
  store<u32>(mark, stamp);
  if (payloadLength == payloadCapacity) {
    const grown = reserve((<usize>payloadCapacity) << 3);
    if (grown == 0) return false;
    memory.copy(grown, payload, (<usize>payloadLength) << 2);
    abandon(payload, (<usize>payloadCapacity) << 2);
    payload = grown;
    payloadCapacity <<= 1;
  }
  store<u32>(payload + ((<usize>payloadLength) << 2), path);
  payloadLength += 1;
  return true;
}

/** Collects a payload of `count` u32 path ids at `ids`; false when memory is exhausted. */
// @ts-expect-error: decorator
@inline
export function collectPayloadIds(ids: usize, count: u32): bool {
  beginPayload();
  for (let i: u32 = 0; i < count; i++) {
    if (!addToPayload(load<u32>(ids + ((<usize>i) << 2)))) return false;
  }
  return true;
}

/** Whether the payload holds every path of the node's current surface; never a malformed one. */
export function payloadKeepsSurface(node: i32): bool {
  if (isSurfaceMalformed(node)) return false;
  const start = arena + ((<usize>load<u32>(blockStart + ((<usize>node) << 2))) << 2);
  const end = start + ((<usize>load<u32>(blockLength + ((<usize>node) << 2))) << 2);
  for (let at = start; at < end; at += 4) {
    if (load<u32>(marks + ((<usize>load<u32>(at)) << 2)) != stamp) return false;
  }
  return true;
}

/** The node's surface becomes the payload's paths. False when memory is exhausted. */
export function storePayload(node: i32): bool {
  const index = (<usize>node) << 2;
  if (payloadLength > load<u32>(blockCapacity + index) && !moveBlock(node, payloadLength))
    return false;
  const start = arena + ((<usize>load<u32>(blockStart + index)) << 2);
  memory.copy(start, payload, (<usize>payloadLength) << 2);
  store<u32>(blockLength + index, payloadLength);
  store<u8>(malformed + <usize>node, 0);
  return true;
}

/** The node's surface becomes a malformed payload: no paths, and kept by no payload after it. */
export function storeMalformed(node: i32): void {
  store<u32>(blockLength + ((<usize>node) << 2), 0);
  store<u8>(malformed + <usize>node, 1);
}

/** Gives the node a block of at least `needed` words at the arena's end, compacting if full. */
function moveBlock(node: i32, needed: u32): bool {
  let capacity = max<u32>(4, load<u32>(blockCapacity + ((<usize>node) << 2)) << 1);
  while (capacity < needed) capacity <<= 1;
  if (<u64>arenaUsed + capacity > <u64>arenaWords && !compactArena(capacity)) return false;
  store<u32>(blockStart + ((<usize>node) << 2), arenaUsed);
  store<u32>(blockCapacity + ((<usize>node) << 2), capacity);
  arenaUsed += capacity;
  return true;
}

/** Copies every live block into a new arena with room for `extra` more words. */
function compactArena(extra: u32): bool {
  let live: u64 = 0;
  for (let node = 0; node < nodeCount; node++)
    live += load<u32>(blockCapacity + ((<usize>node) << 2));
  const words = max<u64>(<u64>arenaWords, (live + extra) << 1);
  if (words > <u64>(u32.MAX_VALUE >> 2)) return false;
  const fresh = reserve((<usize>words) << 2);
  if (fresh == 0) return false;
  let used: u32 = 0;
  for (let node = 0; node < nodeCount; node++) {
    const index = (<usize>node) << 2;
    const capacity = load<u32>(blockCapacity + index);
    memory.copy(
      fresh + ((<usize>used) << 2),
      arena + ((<usize>load<u32>(blockStart + index)) << 2),
      (<usize>load<u32>(blockLength + index)) << 2,
    );
    store<u32>(blockStart + index, used);
    used += capacity;
  }
  abandon(arena, (<usize>arenaWords) << 2);
  arena = fresh;
  arenaWords = <u32>words;
  arenaUsed = used;
  return true;
}
