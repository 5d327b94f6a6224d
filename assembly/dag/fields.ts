/**
 * The fields a `dag` event line is read for (docs/models/dag.md, "Events"): the top-level
 * `kind`, `id`, `result` and `surface`, located while json.ts validates the line. The dag line
 * auditor (lines.ts) is json.ts's reader and hands its calls here.
 */

import { decodeString, NO_FIELD } from "../json";

export namespace Field {
  export const KIND: i32 = 0;
  export const ID: i32 = 1;
  export const RESULT: i32 = 2;
  export const SURFACE: i32 = 3;
  export const COUNT: i32 = 4;
}

export namespace ValueType {
  export const ABSENT: u8 = 0;
  export const STRING: u8 = 1;
  export const NULL: u8 = 2;
  export const ARRAY: u8 = 3;
  export const OTHER: u8 = 4;
}

/**
 * Where each field's value was found, 12 bytes per field:
 *   0 start u32 (first byte of the value; the opening quote of a string)
 *   4 end u32 (one past its last byte)
 *   8 type u8 (ValueType)
 *   9 escaped u8 (a string holding a backslash escape)
 */
const FIELD_BYTES: usize = 12;
const FIELDS = memory.data(<i32>(FIELD_BYTES * Field.COUNT), 4);

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
export function fieldType(field: i32): u8 {
  return load<u8>(FIELDS + <usize>field * FIELD_BYTES, 8);
}
// @ts-expect-error: decorator
@inline
export function fieldEscaped(field: i32): bool {
  return load<u8>(FIELDS + <usize>field * FIELD_BYTES, 9) != 0;
}

// @ts-expect-error: decorator
@inline
export function clearFields(): void {
  for (let field = 0; field < Field.COUNT; field++) {
    store<u8>(FIELDS + <usize>field * FIELD_BYTES, ValueType.ABSENT, 8);
  }
}

/** "surface" written with a 6-byte escape for each of its 7 characters: no longer key can be one of the four. */
const ESCAPED_KEY_BYTES_MAX: usize = 7 * 6;
const keyScratch = memory.data(<i32>ESCAPED_KEY_BYTES_MAX);

/** Which field a top-level key names; `start` and `end` bound the key's content, quotes excluded. */
export function fieldOfKey(start: usize, end: usize, escaped: bool): i32 {
  if (escaped) {
    if (end - start > ESCAPED_KEY_BYTES_MAX) return NO_FIELD;
    const length = decodeString(start, end, keyScratch);
    return fieldOfPlainKey(keyScratch, keyScratch + length);
  }
  return fieldOfPlainKey(start, end);
}

/** Keys compared as little-endian integer loads (overlapping where the length is not a multiple of 4). */
function fieldOfPlainKey(start: usize, end: usize): i32 {
  const length = end - start;
  if (length == 2) return load<u16>(start) == 0x6469 ? Field.ID : NO_FIELD; // "id"
  if (length == 4) return load<u32>(start) == 0x646e696b ? Field.KIND : NO_FIELD; // "kind"
  if (length == 6) {
    // "result"
    return load<u32>(start) == 0x75736572 && load<u16>(start + 4) == 0x746c ? Field.RESULT : NO_FIELD;
  }
  if (length == 7) {
    // "surface"
    return load<u32>(start) == 0x66727573 && load<u32>(start + 3) == 0x65636166 ? Field.SURFACE : NO_FIELD;
  }
  return NO_FIELD;
}

export function recordField(field: i32, start: usize, end: usize, escaped: bool): void {
  const at = FIELDS + <usize>field * FIELD_BYTES;
  store<u32>(at, <u32>start);
  store<u32>(at, <u32>end, 4);
  const c = <u32>load<u8>(start);
  const type = c == 0x22 // a quote
    ? ValueType.STRING
    : c == 0x5b ? ValueType.ARRAY : c == 0x6e ? ValueType.NULL : ValueType.OTHER;
  store<u8>(at, type, 8);
  store<u8>(at, escaped ? 1 : 0, 9);
}
