/**
 * The fields an `executive` journal line is read for (docs/models/executive.md, "The journal and
 * its audit"): the top-level `observation` and `decision`, and the members of each, located while
 * json.ts validates the line (lines.ts is json.ts's reader and hands its calls here). A member
 * the model does not name is noted, not kept: an observation with one is malformed, a decision
 * with one differs from every decision the machine makes. A key that opens `observation` or
 * `decision` again drops what the earlier duplicate left, so the last duplicate wins whole, as in
 * JSON.parse.
 */

import { decodeString, NO_FIELD, isName } from "../json";

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
    if (isName(key, length, "observation")) {
      clear(Field.TAG, Field.DETAIL);
      observationHasStranger = false;
      return Field.OBSERVATION;
    }
    if (isName(key, length, "decision")) {
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

function observationField(key: usize, length: usize): i32 {
  if (isName(key, length, "tag")) return Field.TAG;
  if (isName(key, length, "now")) return Field.NOW;
  if (isName(key, length, "seq")) return Field.SEQ;
  if (isName(key, length, "outcome")) return Field.OUTCOME;
  if (isName(key, length, "retryable")) return Field.RETRYABLE;
  if (isName(key, length, "bytes")) return Field.BYTES;
  if (isName(key, length, "detail")) return Field.DETAIL;
  return NO_FIELD;
}

function decisionField(key: usize, length: usize): i32 {
  if (isName(key, length, "tag")) return Field.DECISION_TAG;
  if (isName(key, length, "seq")) return Field.DECISION_SEQ;
  if (isName(key, length, "path")) return Field.DECISION_PATH;
  if (isName(key, length, "effect")) return Field.DECISION_EFFECT;
  if (isName(key, length, "attempt")) return Field.DECISION_ATTEMPT;
  if (isName(key, length, "reason")) return Field.DECISION_REASON;
  if (isName(key, length, "budget")) return Field.DECISION_BUDGET;
  return NO_FIELD;
}
