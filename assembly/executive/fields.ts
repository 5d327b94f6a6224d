/**
 * The fields an `executive` journal line is read for (docs/models/executive.md, "The journal and
 * its audit"): the top-level `observation` and `decision`, and the members of each, located while
 * json.ts validates the line (lines.ts is json.ts's reader and hands its calls here). A member
 * the model does not name is noted, not kept: an observation with one is malformed, a decision
 * with one differs from every decision the machine makes. A key that opens `observation` or
 * `decision` again drops what the earlier duplicate left, so the last duplicate wins whole, as in
 * JSON.parse.
 */

import { decodeString, NO_FIELD } from "../json";

export namespace Field {
  export const OBSERVATION: i32 = 0;
  export const DECISION: i32 = 1;
  // The observation's members.
  export const TAG: i32 = 2;
  export const NOW: i32 = 3;
  export const SEQ: i32 = 4;
  export const OUTCOME: i32 = 5;
  export const RETRYABLE: i32 = 6;
  export const BYTES: i32 = 7;
  export const DETAIL: i32 = 8;
  // The decision's members.
  export const DECISION_TAG: i32 = 9;
  export const DECISION_SEQ: i32 = 10;
  export const DECISION_PATH: i32 = 11;
  export const DECISION_EFFECT: i32 = 12;
  export const DECISION_ATTEMPT: i32 = 13;
  export const DECISION_REASON: i32 = 14;
  export const DECISION_BUDGET: i32 = 15;
  export const COUNT: i32 = 16;
}

/**
 * Where each field's value was found, 12 bytes per field: start u32 (its first byte, a string's
 * opening quote), end u32, present u8, escaped u8 (a string holding a backslash escape).
 */
const FIELD_BYTES: usize = 12;
const FIELDS = memory.data(<i32>(FIELD_BYTES * Field.COUNT), 4);

/** Whether the observation, or the decision, has a member the model does not name. */
export let observationHasStranger = false;
export let decisionHasStranger = false;

// @ts-expect-error: decorator
@inline
export function fieldStart(field: i32): usize {
  return <usize>load<u32>(FIELDS + <usize>field * FIELD_BYTES);
}

// @ts-expect-error: decorator
@inline
export function fieldEnd(field: i32): usize {
  return <usize>load<u32>(FIELDS + <usize>field * FIELD_BYTES, 4);
}

// @ts-expect-error: decorator
@inline
export function isPresent(field: i32): bool {
  return load<u8>(FIELDS + <usize>field * FIELD_BYTES, 8) != 0;
}

// @ts-expect-error: decorator
@inline
export function isEscaped(field: i32): bool {
  return load<u8>(FIELDS + <usize>field * FIELD_BYTES, 9) != 0;
}

/** The first byte of the field's value. */
// @ts-expect-error: decorator
@inline
export function firstByte(field: i32): u32 {
  return <u32>load<u8>(fieldStart(field));
}

export function setField(field: i32, start: usize, end: usize, escaped: bool): void {
  const at = FIELDS + <usize>field * FIELD_BYTES;
  store<u32>(at, <u32>start);
  store<u32>(at, <u32>end, 4);
  store<u8>(at, 1, 8);
  store<u8>(at, escaped ? 1 : 0, 9);
}

function clear(from: i32, to: i32): void {
  for (let field = from; field <= to; field++) store<u8>(FIELDS + <usize>field * FIELD_BYTES, 0, 8);
}

export function clearFields(): void {
  clear(0, Field.COUNT - 1);
  observationHasStranger = false;
  decisionHasStranger = false;
}

/** "observation" with each of its 11 characters escaped: no longer key is one the model names. */
const ESCAPED_KEY_BYTES_MAX: usize = 11 * 6;
const keyScratch = memory.data(<i32>ESCAPED_KEY_BYTES_MAX);

/** The field a member's key names at `depth` under `parent` (json.ts's reader), or NO_FIELD. */
export function fieldOfMember(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
  let key = keyStart;
  let length = keyEnd - keyStart;
  if (escaped && length <= ESCAPED_KEY_BYTES_MAX) {
    length = decodeString(key, key + length, keyScratch);
    key = keyScratch;
  } else if (escaped) {
    length = 0xffff; // names nothing
  }
  if (depth == 1) {
    if (length == 11 && keyWord(key, 8) == OBSERVAT && keyWord(key + 8, 3) == ION) {
      clear(Field.TAG, Field.DETAIL);
      observationHasStranger = false;
      return Field.OBSERVATION;
    }
    if (length == 8 && keyWord(key, 8) == DECISION) {
      clear(Field.DECISION_TAG, Field.DECISION_BUDGET);
      decisionHasStranger = false;
      return Field.DECISION;
    }
    return NO_FIELD;
  }
  if (parent == Field.OBSERVATION) {
    const field = observationField(key, length);
    if (field == NO_FIELD) observationHasStranger = true;
    return field;
  }
  if (parent == Field.DECISION) {
    const field = decisionField(key, length);
    if (field == NO_FIELD) decisionHasStranger = true;
    return field;
  }
  return NO_FIELD;
}

// The names of the members, as `keyWord` reads them: little-endian words of their bytes.
const OBSERVAT: u64 = 0x746176726573626f; // "observat", then "ion"
const ION: u64 = 0x6e6f69;
const DECISION: u64 = 0x6e6f697369636564;
const TAG: u64 = 0x676174;
const NOW: u64 = 0x776f6e;
const SEQ: u64 = 0x716573;
const BYTES: u64 = 0x7365747962;
const DETAIL: u64 = 0x6c6961746564;
const OUTCOME: u64 = 0x656d6f6374756f;
const RETRYABL: u64 = 0x6c62617972746572; // "retryabl", then "e"
const PATH: u64 = 0x68746170;
const EFFECT: u64 = 0x746365666665;
const ATTEMPT: u64 = 0x74706d65747461;
const REASON: u64 = 0x6e6f73616572;
const BUDGET: u64 = 0x746567647562;

/**
 * The `length` (1 to 8) bytes at `key` as one little-endian word, the bytes past them masked off:
 * a key compared with a name in one go, not a byte at a time. (A key lies in the line buffer or
 * the key scratch, both with room to read a word past it.)
 */
// @ts-expect-error: decorator
@inline
function keyWord(key: usize, length: usize): u64 {
  return load<u64>(key) & (<u64>-1 >> ((8 - <u64>length) << 3));
}

function observationField(key: usize, length: usize): i32 {
  switch (<i32>length) {
    case 3: {
      const word = keyWord(key, 3);
      if (word == TAG) return Field.TAG;
      if (word == NOW) return Field.NOW;
      if (word == SEQ) return Field.SEQ;
      break;
    }
    case 5:
      if (keyWord(key, 5) == BYTES) return Field.BYTES;
      break;
    case 6:
      if (keyWord(key, 6) == DETAIL) return Field.DETAIL;
      break;
    case 7:
      if (keyWord(key, 7) == OUTCOME) return Field.OUTCOME;
      break;
    case 9:
      if (keyWord(key, 8) == RETRYABL && load<u8>(key + 8) == 0x65) return Field.RETRYABLE;
      break;
  }
  return NO_FIELD;
}

function decisionField(key: usize, length: usize): i32 {
  switch (<i32>length) {
    case 3: {
      const word = keyWord(key, 3);
      if (word == TAG) return Field.DECISION_TAG;
      if (word == SEQ) return Field.DECISION_SEQ;
      break;
    }
    case 4:
      if (keyWord(key, 4) == PATH) return Field.DECISION_PATH;
      break;
    case 6: {
      const word = keyWord(key, 6);
      if (word == EFFECT) return Field.DECISION_EFFECT;
      if (word == REASON) return Field.DECISION_REASON;
      if (word == BUDGET) return Field.DECISION_BUDGET;
      break;
    }
    case 7:
      if (keyWord(key, 7) == ATTEMPT) return Field.DECISION_ATTEMPT;
      break;
  }
  return NO_FIELD;
}
