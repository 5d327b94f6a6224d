/**
 * Interning (docs/models/operations.md, "Words": ids compare exactly after JSON decoding): open
 * addressing hash tables over ids' decoded WTF-8 bytes — equal bytes exactly when the ids are
 * equal JavaScript strings (json.ts decodes escapes and pairs surrogates). Hashes are the keyed
 * SipHash of ../hash.ts, so ids crafted to collide cannot be written without the host's key.
 *
 * A table descriptor, TABLE_BYTES:
 *   0  u32 slots, SLOT_BYTES each: u32 entry pointer (0 is empty), u32 its hash's low half
 *   4  u32 capacity (a power of two)
 *   8  u32 entries
 *   12 u32 recent: RECENT_SLOTS entry pointers, direct-mapped by the hash's high half
 * Linear probing; the slots double when three quarters full (the entries stay where they are).
 * A slot carries the half of its entry's hash that picks the slot, so a probe passes another
 * id's slot, and growing or closing a gap moves slots, without reading their entries: with
 * millions of ids each entry read is a cache miss, and an absent id (every fresh effect) meets
 * occupied slots before its empty one. The recent entries are the ones last found or inserted:
 * a journal names the same few running ops and its freshly reserved effects over and over, and
 * a hit there costs no probe into slots that, for millions of effect ids, lie far outside the
 * cache.
 *
 * Every entry starts with ENTRY_HEADER_BYTES:
 *   0  u64 hash
 *   8  u32 id pointer
 *   12 u32 id length
 * and a step entry (keyed by op and key) has its op entry at 16.
 */

import { hashBytes } from "../hash";
import { abandon, reserve } from "../memory";

export const TABLE_BYTES: usize = 16;
const SLOT_BYTES: usize = 8;
export const ENTRY_HEADER_BYTES: usize = 16;
export const ENTRY_HASH: usize = 0;
export const ENTRY_ID: usize = 8;
export const ENTRY_ID_LENGTH: usize = 12;
/** A step entry's op. */
export const ENTRY_OP: usize = 16;

const INITIAL_CAPACITY: u32 = 1024;
const RECENT_SLOTS: u32 = 1024;
const OP_MIX: u64 = 0x9e3779b97f4a7c15;

export function createTable(table: usize): bool {
  const slots = reserve(<usize>INITIAL_CAPACITY * SLOT_BYTES);
  const recent = reserve(<usize>RECENT_SLOTS * 4);
  if (slots == 0 || recent == 0) return false;
  memory.fill(slots, 0, <usize>INITIAL_CAPACITY * SLOT_BYTES);
  memory.fill(recent, 0, <usize>RECENT_SLOTS * 4);
  store<u32>(table, <u32>slots);
  store<u32>(table, INITIAL_CAPACITY, 4);
  store<u32>(table, 0, 8);
  store<u32>(table, <u32>recent, 12);
  return true;
}

/** Where the entry of this hash is remembered among the table's recent ones. */
// @ts-expect-error: decorator
@inline
function recentSlot(table: usize, hash: u64): usize {
  return <usize>load<u32>(table, 12) + ((<usize>(hash >> 32) & (RECENT_SLOTS - 1)) << 2);
}

export function entryCount(table: usize): u32 {
  return load<u32>(table, 8);
}

/** Calls `visit` with each entry of the table, in slot order. */
export function forEachEntry(table: usize, visit: (entry: usize) => void): void {
  const slots = <usize>load<u32>(table);
  const capacity = load<u32>(table, 4);
  for (let i: u32 = 0; i < capacity; i++) {
    const entry = <usize>load<u32>(slots + <usize>i * SLOT_BYTES);
    if (entry != 0) visit(entry);
  }
}

export function idHash(pointer: usize, length: usize): u64 {
  return hashBytes(pointer, length);
}

/**
 * A step's hash: its key's, mixed with its op's entry. The product's high half goes into the low
 * bits that pick a slot (entries are 8-aligned, so the low bits of op · OP_MIX would not vary).
 */
export function stepHash(op: usize, keyHash: u64): u64 {
  return keyHash ^ rotr<u64>(<u64>op * OP_MIX, 32);
}

export function bytesEqual(a: usize, b: usize, length: usize): bool {
  let i: usize = 0;
  for (; i + 8 <= length; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  for (; i < length; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
  return true;
}

// @ts-expect-error: decorator
@inline
function isEntryOf(entry: usize, hash: u64, pointer: usize, length: usize, op: usize): bool {
  return (
    load<u64>(entry, ENTRY_HASH) == hash &&
    <usize>load<u32>(entry, ENTRY_ID_LENGTH) == length &&
    (op == 0 || <usize>load<u32>(entry, ENTRY_OP) == op) &&
    bytesEqual(<usize>load<u32>(entry, ENTRY_ID), pointer, length)
  );
}

/** The entry with this id (and, when `op` is not 0, this op), or 0. */
export function find(table: usize, hash: u64, pointer: usize, length: usize, op: usize): usize {
  const recent = recentSlot(table, hash);
  const remembered = <usize>load<u32>(recent);
  if (remembered != 0 && isEntryOf(remembered, hash, pointer, length, op)) return remembered;
  const slots = <usize>load<u32>(table);
  const mask = load<u32>(table, 4) - 1;
  const low = <u32>hash;
  let i = low & mask;
  while (true) {
    const at = slots + <usize>i * SLOT_BYTES;
    const entry = <usize>load<u32>(at);
    if (entry == 0) return 0;
    if (load<u32>(at, 4) == low && isEntryOf(entry, hash, pointer, length, op)) {
      store<u32>(recent, <u32>entry);
      return entry;
    }
    i = (i + 1) & mask;
  }
  return 0;
}

/** Puts the slot `entry` and `low` (its hash's low half) at the first free place from its home. */
function place(slots: usize, mask: u32, entry: u32, low: u32): void {
  let i = low & mask;
  while (load<u32>(slots + <usize>i * SLOT_BYTES) != 0) i = (i + 1) & mask;
  store<u32>(slots + <usize>i * SLOT_BYTES, entry);
  store<u32>(slots + <usize>i * SLOT_BYTES, low, 4);
}

/** Adds an entry (its header filled in, its id not yet in the table). False when memory is exhausted. */
export function insert(table: usize, entry: usize): bool {
  const capacity = load<u32>(table, 4);
  const count = load<u32>(table, 8) + 1;
  if (count * 4 > capacity * 3) {
    const grown = capacity << 1;
    const slots = reserve(<usize>grown * SLOT_BYTES);
    if (slots == 0) return false;
    memory.fill(slots, 0, <usize>grown * SLOT_BYTES);
    const old = <usize>load<u32>(table);
    for (let i: u32 = 0; i < capacity; i++) {
      const e = load<u32>(old + <usize>i * SLOT_BYTES);
      if (e != 0) place(slots, grown - 1, e, load<u32>(old + <usize>i * SLOT_BYTES, 4));
    }
    abandon(old, <usize>capacity * SLOT_BYTES);
    store<u32>(table, <u32>slots);
    store<u32>(table, grown, 4);
  }
  const hash = load<u64>(entry, ENTRY_HASH);
  place(<usize>load<u32>(table), load<u32>(table, 4) - 1, <u32>entry, <u32>hash);
  store<u32>(table, count, 8);
  store<u32>(recentSlot(table, hash), <u32>entry);
  return true;
}

/** Removes an entry that is in the table, closing the gap (backward-shift deletion). */
export function remove(table: usize, entry: usize): void {
  const hash = load<u64>(entry, ENTRY_HASH);
  const recent = recentSlot(table, hash);
  if (<usize>load<u32>(recent) == entry) store<u32>(recent, 0);
  const slots = <usize>load<u32>(table);
  const mask = load<u32>(table, 4) - 1;
  let i = <u32>hash & mask;
  while (<usize>load<u32>(slots + <usize>i * SLOT_BYTES) != entry) i = (i + 1) & mask;
  let j = i;
  while (true) {
    j = (j + 1) & mask;
    if (load<u32>(slots + <usize>j * SLOT_BYTES) == 0) break;
    const home = load<u32>(slots + <usize>j * SLOT_BYTES, 4) & mask;
    // The slot at j may move into the gap at i when its home is not in (i, j] (cyclically).
    const inRange = i <= j ? home > i && home <= j : home > i || home <= j;
    if (!inRange) {
      store<u64>(slots + <usize>i * SLOT_BYTES, load<u64>(slots + <usize>j * SLOT_BYTES));
      i = j;
    }
  }
  store<u64>(slots + <usize>i * SLOT_BYTES, 0);
  store<u32>(table, load<u32>(table, 8) - 1, 8);
}
