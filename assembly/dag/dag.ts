/**
 * The work DAG as the kernel holds it (mirrors src/models/dag/dag.ts). The host validates the DAG with
 * the reference `makeDag` and writes it packed into the DAG region; the kernel keeps ids for lookup and, per node,
 * its dependents (the reverse edges) and how many distinct deps it has.
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
import { reserve, reserveZeroed } from "../memory";

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
  nodeCount = <i32>n;
  idOffsets = packed + 12;
  depCounts = idOffsets + 4 * (<usize>n + 1);
  dependentsStart = depCounts + 4 * <usize>n;
  dependents = dependentsStart + 4 * (<usize>n + 1);
  idBytes = dependents + 4 * <usize>e;
  return buildIdTable();
}

function buildIdTable(): bool {
  let capacity: u32 = 16;
  while (capacity < <u32>nodeCount * 2) capacity <<= 1;
  idSlotMask = capacity - 1;
  idSlots = reserveZeroed((<usize>capacity) << 2);
  idTags = reserve((<usize>capacity) << 2);
  if (idSlots == 0 || idTags == 0) return false;
  for (let node = 0; node < nodeCount; node++) {
    const start = idBytes + load<u32>(idOffsets + ((<usize>node) << 2));
    const length = idBytes + load<u32>(idOffsets + ((<usize>node) << 2), 4) - start;
    const hash = <u32>hashBytes(start, length);
    let slot = hash & idSlotMask;
    while (load<u32>(idSlots + ((<usize>slot) << 2)) != 0) slot = (slot + 1) & idSlotMask;
    store<u32>(idSlots + ((<usize>slot) << 2), node + 1);
    store<u32>(idTags + ((<usize>slot) << 2), hash);
  }
  return true;
}

/** The node whose id is exactly these bytes, or -1. */
export function lookupId(pointer: usize, length: usize): i32 {
  const hash = <u32>hashBytes(pointer, length);
  let slot = hash & idSlotMask;
  while (true) {
    const entry = load<u32>(idSlots + ((<usize>slot) << 2));
    if (entry == 0) return -1;
    if (load<u32>(idTags + ((<usize>slot) << 2)) == hash) {
      const node = entry - 1;
      const start = idBytes + load<u32>(idOffsets + ((<usize>node) << 2));
      const end = idBytes + load<u32>(idOffsets + ((<usize>node) << 2), 4);
      if (end - start == length && memory.compare(start, pointer, length) == 0) return <i32>node;
    }
    slot = (slot + 1) & idSlotMask;
  }
  return -1;
}
