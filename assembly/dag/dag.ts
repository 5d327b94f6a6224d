/**
 * The work DAG as the kernel holds it (mirrors src/models/dag/dag.ts): ids for lookup and, per
 * node, its dependents (the reverse edges) and how many distinct deps it has. Either the kernel
 * reads it from the journal's header line itself (header.ts), or the host validates the DAG with
 * the reference `makeDag` and writes it packed into the DAG region.
 *
 * Packed DAG, as the host writes it at the input pointer (all u32, little-endian):
 *
 *   0                      nodeCount n
 *   4                      edgeCount e (distinct dependency edges)
 *   8                      idBytesLength b
 *   12                     idOffsets[n + 1]       id i is idBytes[idOffsets[i] .. idOffsets[i+1])
 *   12 + 4(n+1)            depCounts[n]           distinct deps of node i
 *   12 + 4(2n+1)           dependentsStart[n + 1] dependents of node i are dependents[start[i] .. start[i+1])
 *   12 + 4(3n+2)           dependents[e]
 *   12 + 4(3n+2+e)         idBytes[b]             ids in WTF-8
 *
 * The id table is open addressing with linear probing, at most half full, over SipHash values.
 */
import { hashBytes } from "../hash";
import { reserve } from "../memory";

export let nodeCount: i32 = 0;
let idOffsets: usize = 0;
export let depCounts: usize = 0;
export let dependentsStart: usize = 0;
export let dependents: usize = 0;
let idBytes: usize = 0;

let idSlots: usize = 0; // u32 per slot: node index + 1, 0 when empty
let idTags: usize = 0; // u32 per slot: low half of the id's hash
let idSlotMask: u32 = 0;

/** Size of the packed DAG for these counts, so the host can reserve input room first. */
export function packedDagBytes(n: u32, e: u32, b: u32): usize {
  return 12 + 4 * (3 * <usize>n + 2 + <usize>e) + <usize>b;
}

/** Adopts the packed DAG the host wrote at `packed` (reserved by the caller) and builds the id table. */
export function loadPackedDag(packed: usize): bool {
  const n = load<u32>(packed);
  const e = load<u32>(packed, 4);
  const ids = packed + 12;
  const counts = ids + 4 * (<usize>n + 1);
  const starts = counts + 4 * <usize>n;
  const edges = starts + 4 * (<usize>n + 1);
  adoptDag(<i32>n, ids, counts, starts, edges, edges + 4 * <usize>e);
  const capacity = idTableCapacity(n);
  const slots = reserve((<usize>capacity) << 2);
  const tags = reserve((<usize>capacity) << 2);
  return slots != 0 && tags != 0 && buildIdTable(slots, tags, capacity);
}

/**
 * Points the kernel at a DAG's columns, laid out as in the packed DAG but each anywhere: the
 * header reader (header.ts) builds them in place of the host.
 */
export function adoptDag(
  n: i32,
  offsets: usize,
  counts: usize,
  starts: usize,
  edges: usize,
  bytes: usize,
): void {
  nodeCount = n;
  idOffsets = offsets;
  depCounts = counts;
  dependentsStart = starts;
  dependents = edges;
  idBytes = bytes;
}

/** Slots of the id table for `n` ids: a power of two, at least twice `n`. */
export function idTableCapacity(n: u32): u32 {
  let capacity: u32 = 16;
  while (capacity < n * 2) capacity <<= 1;
  return capacity;
}

/**
 * Fills the id table over `capacity` slots at `slots` and `tags` (u32 each); false when two
 * nodes share an id (a host-validated DAG has none; a header the kernel reads may).
 */
export function buildIdTable(slots: usize, tags: usize, capacity: u32): bool {
  adoptIdTable(slots, tags, capacity);
  memory.fill(slots, 0, (<usize>capacity) << 2);
  for (let node = 0; node < nodeCount; node++) {
    const start = idPointer(node);
    const length = idLength(node);
    const hash = <u32>hashBytes(start, length);
    let slot = hash & idSlotMask;
    while (load<u32>(idSlots + ((<usize>slot) << 2)) != 0) {
      if (load<u32>(idTags + ((<usize>slot) << 2)) == hash && isIdOf(load<u32>(idSlots + ((<usize>slot) << 2)) - 1, start, length)) return false;
      slot = (slot + 1) & idSlotMask;
    }
    store<u32>(idSlots + ((<usize>slot) << 2), node + 1);
    store<u32>(idTags + ((<usize>slot) << 2), hash);
  }
  return true;
}

/** Points the kernel at a built id table that moved (header.ts moves its columns once built). */
export function adoptIdTable(slots: usize, tags: usize, capacity: u32): void {
  idSlots = slots;
  idTags = tags;
  idSlotMask = capacity - 1;
}

/** Where node `node`'s id lies (WTF-8), and its length in bytes. */
// @ts-expect-error: decorator
@inline
export function idPointer(node: u32): usize {
  return idBytes + load<u32>(idOffsets + ((<usize>node) << 2));
}

// @ts-expect-error: decorator
@inline
export function idLength(node: u32): usize {
  return <usize>(load<u32>(idOffsets + ((<usize>node) << 2), 4) - load<u32>(idOffsets + ((<usize>node) << 2)));
}

/** The node whose id is exactly these bytes, or -1. */
export function lookupId(pointer: usize, length: usize): i32 {
  const hash = <u32>hashBytes(pointer, length);
  let slot = hash & idSlotMask;
  while (true) {
    const entry = load<u32>(idSlots + ((<usize>slot) << 2));
    if (entry == 0) return -1;
    if (load<u32>(idTags + ((<usize>slot) << 2)) == hash && isIdOf(entry - 1, pointer, length)) return <i32>(entry - 1);
    slot = (slot + 1) & idSlotMask;
  }
  return -1;
}

/** Whether node `node`'s id is exactly these bytes. */
// @ts-expect-error: decorator
@inline
function isIdOf(node: u32, pointer: usize, length: usize): bool {
  return idLength(node) == length && memory.compare(idPointer(node), pointer, length) == 0;
}
