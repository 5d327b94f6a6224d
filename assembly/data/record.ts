/**
 * One record's fields (docs/models/data.md, "Paths" and "Types"), where the validating scan found
 * them (paths.ts) — or, when it could not settle them, walked again over the validated line,
 * member by member, each value skipped without a second validation. A member step takes the last member of that
 * key (a duplicate key's value is its last); a `*SUFFIX` step the first member, in document
 * order, whose key ends with SUFFIX, with that key's last value. A path leading nowhere, or to
 * `null`, leaves the field absent.
 *
 * A field is typed only when its record's kind (or the journal's settings) reads it: an int is a
 * JSON number whose exact value is a safe integer or a string of an optional `-` and digits
 * within i64; a string is decoded (escapes) where it has any; a bool is `true` or `false`.
 * Anything else is the record's integrity fault (`faultField`).
 */

import { CharCode, decodeString, scanString, scannedEscape, skipWhitespace } from "../json";
import { reserve, abandon } from "../memory";
import { skipValue } from "../header";
import { foundEnd, foundStart, isScanned, scannedValue, walkNeeded } from "./paths";
import { FieldTypeCode, PathStepKind, stringLength, stringPointer, TableHeader, ValueTag, Width, word } from "./layout";
import { bytesEqual, lengthOf, pointerOf, setAbsent, setBool, setInt, setString, tagOf, VALUE_BYTES } from "./values";

/** What was wrong with a record (the host words the message: bindings/data/read-report.ts). */
export namespace Problem {
  export const NONE: i32 = -1;
  export const INVALID_UTF8: i32 = 0;
  export const INVALID_JSON: i32 = 1;
  export const NOT_AN_OBJECT: i32 = 2;
  export const KIND_NOT_A_STRING: i32 = 3;
  export const WRONG_TYPE: i32 = 4;
  /** A split stream's record whose key field is absent (journals.ts). */
  export const NO_JOURNAL_KEY: i32 = 5;
}

/**
 * Where keys are decoded to be compared: a block as long as the record (jsonl.ts's scratch for a
 * line, elements.ts's for an array's element), set by the auditor before each record.
 */
export let keyScratch: usize = 0;

export function useKeyScratch(at: usize): void {
  keyScratch = at;
}

/** The cell of each field (VALUE_BYTES each, in field order). */
export let fieldCells: usize = 0;
/** Set by `typeField` on a fault: the field of another type. */
export let faultField: i32 = -1;

/** The record's kind as written (decoded). */
export let kindPointer: usize = 0;
export let kindLength: usize = 0;

/** Where a walked path's value lies. */
let valueStart: usize = 0;
let valueEnd: usize = 0;

/** The record's decoded strings (only those with escapes are decoded). */
let decoded: usize = 0;
let decodedCapacity: usize = 0;
let decodedUsed: usize = 0;

/** Lays out the record's cells in the model region (at the model's load). */
export function layOutRecord(): bool {
  fieldCells = reserve(<usize>word(TableHeader.FIELD_COUNT) * VALUE_BYTES);
  return fieldCells != 0;
}

/** A new journal: the block of decoded strings went with the last one's region. */
export function resetDecoded(): void {
  decoded = 0;
  decodedCapacity = 0;
  decodedUsed = 0;
}

/** A new record: no string decoded yet. */
export function beginRecord(): void {
  decodedUsed = 0;
}

// @ts-expect-error: decorator
@inline
export function fieldCell(field: i32): usize {
  return fieldCells + <usize>field * VALUE_BYTES;
}

/**
 * Where path `path` (0: the kind's, then 1 + each field's, at `pathAt`) leads in the record
 * [start, end): true when to a value other than `null` (then at [valueStart, valueEnd)). The
 * scan found it (paths.ts), unless it could not settle the record or the path is too deep.
 */
function locate(start: usize, end: usize, path: i32, pathAt: i32): bool {
  if (walkNeeded || !isScanned(path)) return walk(start, end, pathAt);
  if (!scannedValue(path)) return false;
  valueStart = foundStart;
  valueEnd = foundEnd;
  return load<u8>(valueStart) != 0x6e; // null
}

/** Walks the path whose words start at `pathAt` over the record [start, end), as `locate`. */
function walk(start: usize, end: usize, pathAt: i32): bool {
  let at = skipWhitespace(start, end);
  const steps = word(pathAt);
  for (let step = 0; step < steps; step++) {
    const stepAt = pathAt + 1 + step * 3;
    at = memberValue(at, end, word(stepAt) == PathStepKind.SUFFIX, stringPointer(stepAt + 1), stringLength(stepAt + 1));
    if (at == 0) return false;
  }
  valueStart = at;
  valueEnd = skipValue(at, end);
  return !(load<u8>(at) == 0x6e); // null
}

/**
 * Where the value of the object at `at` named by a step lies, or 0: a member step's last member
 * of key `name`, a suffix step's first member whose key ends with `name` (its key's last value).
 */
function memberValue(at: usize, end: usize, suffix: bool, name: usize, nameLength: usize): usize {
  if (load<u8>(at) != CharCode.OPEN_BRACE) return 0;
  at = skipWhitespace(at + 1, end);
  if (load<u8>(at) == CharCode.CLOSE_BRACE) return 0;
  let found: usize = 0;
  let matchedStart: usize = 0;
  let matchedEnd: usize = 0;
  let matchedEscaped = false;
  while (true) {
    const keyEnd = scanString(at, end);
    const escaped = scannedEscape;
    const keyStart = at + 1;
    const keyStop = keyEnd - 1;
    at = skipWhitespace(skipWhitespace(keyEnd, end) + 1, end);
    const value = at;
    at = skipWhitespace(skipValue(at, end), end);
    if (!suffix) {
      if (keyIs(keyStart, keyStop, escaped, name, nameLength, false)) found = value;
    } else if (matchedEnd == 0) {
      if (keyIs(keyStart, keyStop, escaped, name, nameLength, true)) {
        found = value;
        matchedStart = keyStart;
        matchedEnd = keyStop;
        matchedEscaped = escaped;
      }
    } else if (keysEqual(matchedStart, matchedEnd, matchedEscaped, keyStart, keyStop, escaped)) {
      found = value;
    }
    if (load<u8>(at) == CharCode.CLOSE_BRACE) break;
    at = skipWhitespace(at + 1, end);
  }
  return found;
}

/** Whether the key [start, end) is `name` (or, `suffix`, ends with it), after decoding. */
function keyIs(start: usize, end: usize, escaped: bool, name: usize, nameLength: usize, suffix: bool): bool {
  let length = end - start;
  if (escaped) {
    length = decodeString(start, end, keyScratch);
    start = keyScratch;
  }
  if (suffix) return length >= nameLength && bytesEqual(start + length - nameLength, name, nameLength);
  return length == nameLength && bytesEqual(start, name, nameLength);
}

function keysEqual(a: usize, aEnd: usize, aEscaped: bool, b: usize, bEnd: usize, bEscaped: bool): bool {
  if (!aEscaped && !bEscaped) return aEnd - a == bEnd - b && bytesEqual(a, b, aEnd - a);
  const aLength = decodeString(a, aEnd, keyScratch);
  const bAt = keyScratch + aLength;
  const bLength = decodeString(b, bEnd, bAt);
  return aLength == bLength && bytesEqual(keyScratch, bAt, aLength);
}

/**
 * The record's kind: true when its kind path leads to a string (then at kindPointer,
 * kindLength, decoded).
 */
export function readKind(start: usize, end: usize): bool {
  if (!locate(start, end, 0, word(TableHeader.KIND_PATH_AT)) || load<u8>(valueStart) != CharCode.QUOTE) return false;
  if (!stringAt(valueStart, valueEnd)) return false;
  kindPointer = decodedPointer;
  kindLength = decodedLength;
  return true;
}

let decodedPointer: usize = 0;
let decodedLength: usize = 0;

/** The string whose JSON is [start, end): in place when it has no escape, else decoded. False when memory is exhausted. */
function stringAt(start: usize, end: usize): bool {
  scanString(start, end);
  if (!scannedEscape) {
    decodedPointer = start + 1;
    decodedLength = end - start - 2;
    return true;
  }
  if (decodedUsed + (end - start) > decodedCapacity && !growDecoded(decodedUsed + (end - start))) return false;
  decodedPointer = decoded + decodedUsed;
  decodedLength = decodeString(start + 1, end - 1, decodedPointer);
  decodedUsed += decodedLength;
  return true;
}

/**
 * Grows the decoded strings' block to hold `bytes`; the record's strings decoded so far move
 * with it (the fields and kind that point at them are moved too).
 */
function growDecoded(bytes: usize): bool {
  let capacity: usize = decodedCapacity < 4096 ? 4096 : decodedCapacity;
  while (capacity < bytes) capacity <<= 1;
  const grown = reserve(capacity);
  if (grown == 0) return false;
  const old = decoded;
  if (decodedUsed > 0) memory.copy(grown, old, decodedUsed);
  if (kindPointer >= old && kindPointer < old + decodedCapacity) kindPointer = grown + (kindPointer - old);
  const fields = word(TableHeader.FIELD_COUNT);
  for (let field = 0; field < fields; field++) {
    const cell = fieldCell(field);
    const pointer = pointerOf(cell);
    if (tagOf(cell) == ValueTag.STRING && pointer >= old && pointer < old + decodedCapacity) {
      setString(cell, grown + (pointer - old), lengthOf(cell));
    }
  }
  if (decodedCapacity > 0) abandon(old, decodedCapacity);
  decoded = grown;
  decodedCapacity = capacity;
  return true;
}

/** Outcome of `typeField`. */
export namespace Typed {
  export const OK: i32 = 0;
  export const FAULT: i32 = 1;
  export const NO_MEMORY: i32 = 2;
}

/** Reads and types field `field` of the record [start, end) into its cell. */
export function typeField(start: usize, end: usize, field: i32): i32 {
  const cell = fieldCell(field);
  const fieldAt = word(TableHeader.FIELDS_AT) + field * Width.FIELD;
  if (!locate(start, end, field + 1, word(fieldAt))) {
    setAbsent(cell);
    return Typed.OK;
  }
  const type = word(fieldAt + 1);
  const c = <u32>load<u8>(valueStart);
  if (c == CharCode.QUOTE) {
    if (type == FieldTypeCode.BOOL) return fault(field);
    if (!stringAt(valueStart, valueEnd)) return Typed.NO_MEMORY;
    if (type == FieldTypeCode.STRING) {
      setString(cell, decodedPointer, decodedLength);
      return Typed.OK;
    }
    return intOfDigits(cell, decodedPointer, decodedLength) ? Typed.OK : fault(field);
  }
  if (c == CharCode.MINUS || c - CharCode.ZERO <= 9) {
    return type == FieldTypeCode.INT && intOfNumber(cell, valueStart, valueEnd) ? Typed.OK : fault(field);
  }
  if ((c == 0x74 || c == 0x66) && type == FieldTypeCode.BOOL) {
    setBool(cell, c == 0x74);
    return Typed.OK;
  }
  return fault(field);
}

function fault(field: i32): i32 {
  faultField = field;
  return Typed.FAULT;
}

const I64_MAX_DIV_10: u64 = 922337203685477580;

/** An int field's string: an optional `-` and ASCII digits whose value is within i64. */
function intOfDigits(cell: usize, at: usize, length: usize): bool {
  const negative = length > 0 && load<u8>(at) == CharCode.MINUS;
  let i: usize = negative ? 1 : 0;
  if (i == length) return false;
  // The magnitude, in u64: at most 2^63 (for −2^63); past 10 × I64_MAX_DIV_10 + 9 it is out of range anyway.
  let magnitude: u64 = 0;
  let overflow = false;
  for (; i < length; i++) {
    const digit = <u32>load<u8>(at + i) - CharCode.ZERO;
    if (digit > 9) return false;
    if (magnitude > I64_MAX_DIV_10) overflow = true;
    else magnitude = magnitude * 10 + <u64>digit;
  }
  const limit: u64 = negative ? 0x8000000000000000 : 0x7fffffffffffffff;
  if (overflow || magnitude > limit) return false;
  setInt(cell, negative ? <i64>(0 - magnitude) : <i64>magnitude);
  return true;
}

const SAFE_MAX: u64 = (1 << 53) - 1;
/** An exponent saturates here: far past any digit count a line can hold. */
const EXPONENT_CAP: i64 = 1 << 40;

/**
 * An int field's number (validated JSON): an int when its exact decimal value is an integer
 * within ±(2^53 − 1) — `5`, `5.0`, `5e0`, `-0`; not `5.5`, nor `4.0000000000000001` (which
 * JSON.parse rounds onto 4), nor `9007199254740993`.
 */
function intOfNumber(cell: usize, start: usize, end: usize): bool {
  let at = start;
  const negative = load<u8>(at) == CharCode.MINUS;
  if (negative) at++;
  const intStart = at;
  while (at < end && <u32>load<u8>(at) - CharCode.ZERO <= 9) at++;
  const intEnd = at;
  let fracStart = at;
  let fracEnd = at;
  if (at < end && load<u8>(at) == CharCode.DOT) {
    fracStart = ++at;
    while (at < end && <u32>load<u8>(at) - CharCode.ZERO <= 9) at++;
    fracEnd = at;
  }
  let exponent: i64 = 0;
  if (at < end) {
    at++; // e or E
    const sign = <u32>load<u8>(at);
    const exponentNegative = sign == CharCode.MINUS;
    if (exponentNegative || sign == CharCode.PLUS) at++;
    for (; at < end; at++) {
      exponent = exponent * 10 + <i64>(<u32>load<u8>(at) - CharCode.ZERO);
      if (exponent > EXPONENT_CAP) exponent = EXPONENT_CAP;
    }
    if (exponentNegative) exponent = -exponent;
  }
  // The digits D = integer part then fraction; digit i weighs 10^(point − 1 − i).
  const intDigits = <i64>(intEnd - intStart);
  const digits = intDigits + <i64>(fracEnd - fracStart);
  let first: i64 = 0;
  while (first < digits && digitOf(intStart, intDigits, fracStart, first) == 0) first++;
  if (first == digits) {
    setInt(cell, 0);
    return true;
  }
  let last = digits - 1;
  while (digitOf(intStart, intDigits, fracStart, last) == 0) last--;
  const point = intDigits + exponent;
  if (last >= point || point - first > 16) return false;
  let magnitude: u64 = 0;
  for (let i = first; i < point; i++) {
    magnitude = magnitude * 10 + <u64>(i <= last ? digitOf(intStart, intDigits, fracStart, i) : 0);
  }
  if (magnitude > SAFE_MAX) return false;
  setInt(cell, negative ? -<i64>magnitude : <i64>magnitude);
  return true;
}

// @ts-expect-error: decorator
@inline
function digitOf(intStart: usize, intDigits: i64, fracStart: usize, i: i64): u32 {
  return i < intDigits
    ? <u32>load<u8>(intStart + <usize>i) - CharCode.ZERO
    : <u32>load<u8>(fracStart + <usize>(i - intDigits)) - CharCode.ZERO;
}
