/**
 * The model a data kernel audits with: the packed table the host wrote (./layout.ts), checked
 * for its magic, and the hash table of its kinds' spellings (names and aliases), so a record's
 * kind is found by one hash of its bytes. Both live in the model region (../memory.ts): every
 * journal audited with the model shares them.
 */

import { hashBytes } from "../hash";
import { reserve, resetAll, sealModelRegion } from "../memory";
import { stringLength, stringPointer, TABLE_MAGIC, TableHeader, useTable, Width, word } from "./layout";
import { layOutRecord } from "./record";
import { bytesEqual } from "./values";

/** Per spelling slot: the spelling's index + 1 (0: empty). */
let spellingTable: usize = 0;
let spellingMask: usize = 0;
let tableRoom: usize = 0;

/** Drops everything and reserves room for a packed table of `bytes`; 0 when memory is exhausted. */
export function prepareModel(bytes: usize): usize {
  resetAll();
  tableRoom = reserve(bytes);
  return tableRoom;
}

/** Loads the table written at `prepareModel`'s room: false when it is no packed model or memory is exhausted. */
export function loadModel(): bool {
  useTable(tableRoom);
  if (word(TableHeader.MAGIC) != TABLE_MAGIC) return false;
  const spellings = word(TableHeader.SPELLING_COUNT);
  let capacity: usize = 16;
  while (capacity < <usize>spellings * 2) capacity <<= 1;
  spellingTable = reserve(capacity * 4);
  if (spellingTable == 0 || !layOutRecord()) return false;
  memory.fill(spellingTable, 0, capacity * 4);
  spellingMask = capacity - 1;
  for (let spelling = 0; spelling < spellings; spelling++) {
    const at = spellingAt(spelling);
    let slot = <usize>hashBytes(stringPointer(at), stringLength(at)) & spellingMask;
    while (load<u32>(spellingTable + (slot << 2)) != 0) slot = (slot + 1) & spellingMask;
    store<u32>(spellingTable + (slot << 2), <u32>(spelling + 1));
  }
  sealModelRegion();
  return true;
}

// @ts-expect-error: decorator
@inline
function spellingAt(spelling: i32): i32 {
  return word(TableHeader.SPELLINGS_AT) + spelling * Width.SPELLING;
}

/** The kind a spelling names (after aliases), or -1 when the model has none of that name. */
export function kindNamed(pointer: usize, length: usize): i32 {
  let slot = <usize>hashBytes(pointer, length) & spellingMask;
  while (true) {
    const entry = <i32>load<u32>(spellingTable + (slot << 2));
    if (entry == 0) return -1;
    const at = spellingAt(entry - 1);
    if (stringLength(at) == length && bytesEqual(stringPointer(at), pointer, length)) return word(at + 2);
    slot = (slot + 1) & spellingMask;
  }
  return -1;
}
