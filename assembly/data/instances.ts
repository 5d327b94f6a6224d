/**
 * The instances of a model's entities (docs/models/data.md, "Entities"): per entity a hash table
 * keyed by the instance's key (an int or a string; SipHash-1-3 with the engine's key, ../hash.ts,
 * so a journal cannot aim collisions), linear probing with backward-shift deletion (an instance
 * `reuse` forgets leaves no tombstone). Every kept instance is also on one list in creation
 * order, which the end of the journal walks for `atEnd`. Per state, the count of kept instances.
 *
 * An instance, one block:
 *   0   u64 its key's hash
 *   8   u32 the instance created before it (0: none)   12  u32 the one created after it
 *   16  i32 entity    20  i32 state
 *   24  its key (a value cell, values.ts)
 *   40  its slots, a value cell each
 *   40 + 16 × slots   a string key's bytes
 */

import { hashBytes } from "../hash";
import { allocate, release } from "./alloc";
import { EntityWord, TableHeader, ValueTag, Width, word } from "./layout";
import { putU32, putValue, readFailed, takeIndex, takeU32, takeValue } from "./state-bytes";
import { keepValue, lengthOf, pointerOf, releaseValue, setString, tagOf, VALUE_BYTES, valuesEqual } from "./values";

export const INSTANCE_KEY: usize = 24;
export const INSTANCE_SLOTS: usize = 40;

/** Per entity: its table, capacity, count, and the global index of its first state. */
const ENTITY_RUNTIME_BYTES: usize = 16;
let entityRuntime: usize = 0;
/** Per state of every entity (in entity order): the count of kept instances in it. */
export let stateCounts: usize = 0;
export let totalStates: i32 = 0;
export let firstCreated: usize = 0;
let lastCreated: usize = 0;

const INITIAL_CAPACITY: u32 = 16;

// @ts-expect-error: decorator
@inline
export function entityAt(entity: i32): i32 {
  return word(TableHeader.ENTITIES_AT) + entity * Width.ENTITY;
}

// @ts-expect-error: decorator
@inline
function runtimeOf(entity: i32): usize {
  return entityRuntime + <usize>entity * ENTITY_RUNTIME_BYTES;
}

// @ts-expect-error: decorator
@inline
export function slotCount(entity: i32): usize {
  return <usize>word(entityAt(entity) + EntityWord.SLOTS);
}

// @ts-expect-error: decorator
@inline
export function stateIndex(entity: i32, state: i32): i32 {
  return load<i32>(runtimeOf(entity), 12) + state;
}

/** Lays out a journal's empty tables; false when memory is exhausted. */
export function resetInstances(): bool {
  const entities = word(TableHeader.ENTITY_COUNT);
  entityRuntime = allocate(<usize>entities * ENTITY_RUNTIME_BYTES);
  totalStates = 0;
  for (let entity = 0; entity < entities; entity++) totalStates += word(entityAt(entity) + EntityWord.STATES);
  stateCounts = allocate(<usize>totalStates * 4 + 4);
  if (entityRuntime == 0 || stateCounts == 0) return false;
  memory.fill(stateCounts, 0, <usize>totalStates * 4);
  let base = 0;
  for (let entity = 0; entity < entities; entity++) {
    const table = allocate(<usize>INITIAL_CAPACITY * 4);
    if (table == 0) return false;
    memory.fill(table, 0, <usize>INITIAL_CAPACITY * 4);
    const runtime = runtimeOf(entity);
    store<u32>(runtime, <u32>table);
    store<u32>(runtime, INITIAL_CAPACITY, 4);
    store<u32>(runtime, 0, 8);
    store<i32>(runtime, base, 12);
    base += word(entityAt(entity) + EntityWord.STATES);
  }
  firstCreated = 0;
  lastCreated = 0;
  return true;
}

// A journal of a split stream keeps its tables in its context (journals.ts). Each journal has
// tables of its own rather than one table keyed by journal and key: an instance's hash and probe
// stay what an unsplit journal's are (no cost to them), a journal's tables grow with its own
// instances only, and its creation list is its own, in the order its `atEnd` walks.

export const INSTANCES_CONTEXT_BYTES: usize = 16;

export function saveInstancesContext(at: usize): void {
  store<u32>(at, <u32>entityRuntime);
  store<u32>(at, <u32>stateCounts, 4);
  store<u32>(at, <u32>firstCreated, 8);
  store<u32>(at, <u32>lastCreated, 12);
}

export function loadInstancesContext(at: usize): void {
  entityRuntime = <usize>load<u32>(at);
  stateCounts = <usize>load<u32>(at, 4);
  firstCreated = <usize>load<u32>(at, 8);
  lastCreated = <usize>load<u32>(at, 12);
}

/** The hash of a key (an int or a string cell). */
export function keyHash(key: usize): u64 {
  if (tagOf(key) == ValueTag.INT) return hashBytes(key + 8, 8);
  return ~hashBytes(pointerOf(key), lengthOf(key));
}

/** The instance of `entity` with `key`, or 0. */
export function findInstance(entity: i32, key: usize, hash: u64): usize {
  const runtime = runtimeOf(entity);
  const table = <usize>load<u32>(runtime);
  const mask = <usize>load<u32>(runtime, 4) - 1;
  let at = <usize>hash & mask;
  while (true) {
    const instance = <usize>load<u32>(table + (at << 2));
    if (instance == 0) return 0;
    if (load<u64>(instance) == hash && valuesEqual(instance + INSTANCE_KEY, key)) return instance;
    at = (at + 1) & mask;
  }
  return 0;
}

// @ts-expect-error: decorator
@inline
function instanceBytes(entity: i32, keyLength: usize): usize {
  return INSTANCE_SLOTS + slotCount(entity) * VALUE_BYTES + keyLength;
}

/** A new instance of `entity` with `key` in `state`; 0 when memory is exhausted. */
export function createInstance(entity: i32, key: usize, hash: u64, state: i32): usize {
  const runtime = runtimeOf(entity);
  if ((load<u32>(runtime, 8) + 1) * 4 > load<u32>(runtime, 4) * 3 && !growTable(entity)) return 0;
  const keyLength = tagOf(key) == ValueTag.STRING ? lengthOf(key) : 0;
  const instance = allocate(instanceBytes(entity, keyLength));
  if (instance == 0) return 0;
  memory.fill(instance, 0, INSTANCE_SLOTS + slotCount(entity) * VALUE_BYTES);
  store<u64>(instance, hash);
  store<i32>(instance, entity, 16);
  store<i32>(instance, state, 20);
  memory.copy(instance + INSTANCE_KEY, key, VALUE_BYTES);
  if (keyLength > 0) {
    const bytes = instance + INSTANCE_SLOTS + slotCount(entity) * VALUE_BYTES;
    memory.copy(bytes, pointerOf(key), keyLength);
    setString(instance + INSTANCE_KEY, bytes, keyLength);
  }
  insert(<usize>load<u32>(runtime), <usize>load<u32>(runtime, 4) - 1, instance);
  store<u32>(runtime, load<u32>(runtime, 8) + 1, 8);
  store<u32>(instance, <u32>lastCreated, 8);
  if (lastCreated != 0) store<u32>(lastCreated, <u32>instance, 12);
  else firstCreated = instance;
  lastCreated = instance;
  countState(entity, state, 1);
  return instance;
}

function insert(table: usize, mask: usize, instance: usize): void {
  let at = <usize>load<u64>(instance) & mask;
  while (load<u32>(table + (at << 2)) != 0) at = (at + 1) & mask;
  store<u32>(table + (at << 2), <u32>instance);
}

function growTable(entity: i32): bool {
  const runtime = runtimeOf(entity);
  const table = <usize>load<u32>(runtime);
  const capacity = <usize>load<u32>(runtime, 4);
  const grown = allocate((capacity << 1) * 4);
  if (grown == 0) return false;
  memory.fill(grown, 0, (capacity << 1) * 4);
  for (let at: usize = 0; at < capacity; at++) {
    const instance = <usize>load<u32>(table + (at << 2));
    if (instance != 0) insert(grown, (capacity << 1) - 1, instance);
  }
  release(table, capacity * 4);
  store<u32>(runtime, <u32>grown);
  store<u32>(runtime, <u32>(capacity << 1), 4);
  return true;
}

// @ts-expect-error: decorator
@inline
export function entityOf(instance: usize): i32 {
  return load<i32>(instance, 16);
}

// @ts-expect-error: decorator
@inline
export function stateOf(instance: usize): i32 {
  return load<i32>(instance, 20);
}

export function moveInstance(instance: usize, state: i32): void {
  const entity = entityOf(instance);
  countState(entity, stateOf(instance), -1);
  store<i32>(instance, state, 20);
  countState(entity, state, 1);
}

function countState(entity: i32, state: i32, by: i32): void {
  const at = stateCounts + (<usize>stateIndex(entity, state) << 2);
  store<i32>(at, load<i32>(at) + by);
}

/**
 * Forgets an instance (`reuse`): off its table and the creation list, uncounted. Its block stays
 * readable until `freeInstance` (the rest of its record may read its slots).
 */
export function forgetInstance(instance: usize): void {
  const entity = entityOf(instance);
  const runtime = runtimeOf(entity);
  removeFromTable(<usize>load<u32>(runtime), <usize>load<u32>(runtime, 4) - 1, instance);
  store<u32>(runtime, load<u32>(runtime, 8) - 1, 8);
  const before = <usize>load<u32>(instance, 8);
  const after = <usize>load<u32>(instance, 12);
  if (before != 0) store<u32>(before, <u32>after, 12);
  else firstCreated = after;
  if (after != 0) store<u32>(after, <u32>before, 8);
  else lastCreated = before;
  countState(entity, stateOf(instance), -1);
}

/** Removes `instance` from a linearly probed table, shifting back the entries after it. */
function removeFromTable(table: usize, mask: usize, instance: usize): void {
  let hole = <usize>load<u64>(instance) & mask;
  while (<usize>load<u32>(table + (hole << 2)) != instance) hole = (hole + 1) & mask;
  let at = hole;
  while (true) {
    at = (at + 1) & mask;
    const next = <usize>load<u32>(table + (at << 2));
    if (next == 0) break;
    const home = <usize>load<u64>(next) & mask;
    // `next` may fill the hole when its home is not cyclically within (hole, at].
    const between = hole <= at ? home > hole && home <= at : home > hole || home <= at;
    if (!between) {
      store<u32>(table + (hole << 2), <u32>next);
      hole = at;
    }
  }
  store<u32>(table + (hole << 2), 0);
}

/** Frees a forgotten instance's block and its slots' strings. */
export function freeInstance(instance: usize): void {
  const entity = entityOf(instance);
  const slots = slotCount(entity);
  for (let slot: usize = 0; slot < slots; slot++) releaseValue(instance + INSTANCE_SLOTS + slot * VALUE_BYTES);
  const keyLength = tagOf(instance + INSTANCE_KEY) == ValueTag.STRING ? lengthOf(instance + INSTANCE_KEY) : 0;
  release(instance, instanceBytes(entity, keyLength));
}

/** Puts `value` into slot `slot` of `instance`; false when memory is exhausted. */
export function putSlot(instance: usize, slot: i32, value: usize): bool {
  return keepValue(instance + INSTANCE_SLOTS + <usize>slot * VALUE_BYTES, value);
}

// @ts-expect-error: decorator
@inline
export function slotCell(instance: usize, slot: i32): usize {
  return instance + INSTANCE_SLOTS + <usize>slot * VALUE_BYTES;
}

export function nextCreated(instance: usize): usize {
  return <usize>load<u32>(instance, 12);
}

/** Whether the value `key` can key an instance: an int or a string (anything else is `missing-key`). */
export function isKey(key: usize): bool {
  const tag = tagOf(key);
  return tag == ValueTag.INT || tag == ValueTag.STRING;
}


// The instances as a snapshot's part (state-bytes.ts), in creation order: entity, state, key,
// slots. Read back through `createInstance`, so the tables are rebuilt under this engine's key.

export function writeInstances(): void {
  let count: u32 = 0;
  for (let instance = firstCreated; instance != 0; instance = nextCreated(instance)) count++;
  putU32(count);
  for (let instance = firstCreated; instance != 0; instance = nextCreated(instance)) {
    const entity = entityOf(instance);
    putU32(<u32>entity);
    putU32(<u32>stateOf(instance));
    putValue(instance + INSTANCE_KEY);
    const slots = slotCount(entity);
    for (let slot: usize = 0; slot < slots; slot++) putValue(instance + INSTANCE_SLOTS + slot * VALUE_BYTES);
  }
}

const restoredKey = memory.data(16, 8);
const restoredSlot = memory.data(16, 8);

/** Reads the instances back into the freshly begun journal; false when they do not hold. */
export function readInstances(): bool {
  const count = takeU32();
  const entities = <u32>word(TableHeader.ENTITY_COUNT);
  for (let i: u32 = 0; i < count && !readFailed; i++) {
    const entity = <i32>takeIndex(entities);
    const state = <i32>takeIndex(<u32>word(entityAt(entity) + EntityWord.STATES));
    takeValue(restoredKey);
    if (readFailed || !isKey(restoredKey)) return false;
    const hash = keyHash(restoredKey);
    if (findInstance(entity, restoredKey, hash) != 0) return false;
    const instance = createInstance(entity, restoredKey, hash, state);
    if (instance == 0) return false;
    const slots = slotCount(entity);
    for (let slot: usize = 0; slot < slots; slot++) {
      takeValue(restoredSlot);
      if (readFailed || !putSlot(instance, <i32>slot, restoredSlot)) return false;
    }
  }
  return !readFailed;
}
