/**
 * The record vocabulary of the `operations` model (docs/models/operations.md, "Records"; mirrors
 * src/models/operations/records.ts and the field tables of integrity.ts): kinds, enumerations,
 * field types, field paths, and where the fields of the line being read were found.
 *
 * Every code below mirrors the order of the reference's lists (bindings/operations/codes.ts
 * holds the same lists for the host).
 */

import { idHash } from "./ids";

export namespace Kind {
  export const ACCEPTED: i32 = 0;
  export const INTENT: i32 = 1;
  export const SETTLED: i32 = 2;
  export const READBACK: i32 = 3;
  export const CANCEL_REQUESTED: i32 = 4;
  export const FINISHED: i32 = 5;
  export const LEASE: i32 = 6;
}

export namespace SettledOutcome {
  export const OK: i32 = 0;
  export const ERROR: i32 = 1;
  export const UNKNOWN: i32 = 2;
}

export namespace Found {
  export const COMMITTED: i32 = 0;
  export const ABSENT: i32 = 1;
}

export namespace FinishedOutcome {
  export const COMPLETED: i32 = 0;
  export const FAILED: i32 = 1;
  export const ABORTED: i32 = 2;
}

export namespace Stop {
  export const STOP: i32 = 0;
  export const LENGTH: i32 = 1;
  export const TOOL_USE: i32 = 2;
  export const ERROR: i32 = 3;
  export const ABORTED: i32 = 4;
  export const DEFERRED: i32 = 5;
  export const PENDING: i32 = 6;
}

export namespace ResponseClass {
  export const CORRUPT: i32 = 0;
  export const CANCELLED: i32 = 1;
  export const OVERFLOW: i32 = 2;
  export const DEFERRED_VALID: i32 = 3;
  export const DEFERRED_INVALID: i32 = 4;
  export const ERROR: i32 = 5;
  export const TOOL_USE: i32 = 6;
  export const TOOL_USE_TRUNCATED: i32 = 7;
  export const FINISHED: i32 = 8;
}

/** What a field must be (the reference's FieldType, in its order). */
export namespace FieldType {
  export const STRING: i32 = 0;
  export const INTEGER: i32 = 1;
  export const COUNT: i32 = 2;
  export const ATTEMPT_BUDGET: i32 = 3;
  export const BOOLEAN: i32 = 4;
  export const SETTLED_OUTCOME: i32 = 5;
  export const READBACK_FINDING: i32 = 6;
  export const FINISHED_OUTCOME: i32 = 7;
  export const STOP_REASON: i32 = 8;
  export const RESPONSE_CLASS: i32 = 9;
  export const POLICY: i32 = 10;
  export const REQUEST: i32 = 11;
  export const RESPONSE: i32 = 12;
  export const HANDLE: i32 = 13;
}

/**
 * Field paths: the top-level fields any kind reads, then the nested ones (the host names them,
 * `policy.maxAttempts`, `response.handle.id`, … in bindings/operations/codes.ts).
 */
export namespace Path {
  export const KIND: i32 = 0;
  export const OP: i32 = 1;
  export const STRAND: i32 = 2;
  export const POLICY: i32 = 3;
  export const KEY: i32 = 4;
  export const EFFECT: i32 = 5;
  export const ATTEMPT: i32 = 6;
  export const AT: i32 = 7;
  export const REQUEST: i32 = 8;
  export const OUTPUT_LIMIT: i32 = 9;
  export const OUTCOME: i32 = 10;
  export const RETRYABLE: i32 = 11;
  export const RETRY_AFTER_MS: i32 = 12;
  export const NOT_BEFORE: i32 = 13;
  export const RESPONSE: i32 = 14;
  export const CLASS: i32 = 15;
  export const FOUND: i32 = 16;
  export const EPOCH: i32 = 17;
  export const OWNER: i32 = 18;
  export const POLICY_MAX_ATTEMPTS: i32 = 19;
  export const POLICY_BASE_DELAY_MS: i32 = 20;
  export const POLICY_MAX_DELAY_MS: i32 = 21;
  export const REQUEST_PROVIDER: i32 = 22;
  export const REQUEST_MODEL: i32 = 23;
  export const REQUEST_API: i32 = 24;
  export const RESPONSE_STOP: i32 = 25;
  export const RESPONSE_ERROR_MESSAGE: i32 = 26;
  export const RESPONSE_OUTPUT_TOKENS: i32 = 27;
  export const RESPONSE_TOOL_CALLS: i32 = 28;
  export const RESPONSE_HANDLE: i32 = 29;
  export const HANDLE_ID: i32 = 30;
  export const HANDLE_PROVIDER: i32 = 31;
  export const HANDLE_MODEL: i32 = 32;
  export const HANDLE_API: i32 = 33;
  export const COUNT: i32 = 34;
  /** No field: a member the model does not read. */
  export const NONE: i32 = -1;
}

/** Value kinds, by a value's first byte. */
export namespace Json {
  export const STRING: i32 = 0;
  export const NUMBER: i32 = 1;
  export const BOOLEAN: i32 = 2;
  export const NULL: i32 = 3;
  export const OBJECT: i32 = 4;
  export const ARRAY: i32 = 5;
}

/**
 * Where each path's value lies in the line, and what reading it gave, SLOT_BYTES per path:
 *   0  u32 value start (0: absent)
 *   4  u32 value end
 *   8  i64 value: the integer, the enumeration code, the boolean (1/0)
 *   16 u32 decoded text pointer (strings)
 *   20 u32 decoded text length
 *   24 u8  the string value holds a backslash escape
 *   25 u8  its decoded text's hash is at 8 (ids are hashed once per record, however many lookups)
 */
const SLOT_BYTES: usize = 32;
const SLOTS = memory.data(<i32>(SLOT_BYTES * <usize>Path.COUNT), 8);

// @ts-expect-error: decorator
@inline
function slot(path: i32): usize {
  return SLOTS + <usize>path * SLOT_BYTES;
}

/** No value found yet at the paths from `first` to `last`. */
export function clearSlots(first: i32, last: i32): void {
  for (let path = first; path <= last; path++) store<u32>(slot(path), 0);
}

// @ts-expect-error: decorator
@inline
export function setSlot(path: i32, start: usize, end: usize, escaped: bool): void {
  const at = slot(path);
  store<u32>(at, <u32>start);
  store<u32>(at, <u32>end, 4);
  store<u8>(at, escaped ? 1 : 0, 24);
  store<u8>(at, 0, 25);
}

// @ts-expect-error: decorator
@inline
export function isPresent(path: i32): bool {
  return load<u32>(slot(path)) != 0;
}
// @ts-expect-error: decorator
@inline
export function valueStart(path: i32): usize {
  return <usize>load<u32>(slot(path));
}
// @ts-expect-error: decorator
@inline
export function valueEnd(path: i32): usize {
  return <usize>load<u32>(slot(path), 4);
}
// @ts-expect-error: decorator
@inline
export function isEscaped(path: i32): bool {
  return load<u8>(slot(path), 24) != 0;
}
// @ts-expect-error: decorator
@inline
export function value(path: i32): i64 {
  return load<i64>(slot(path), 8);
}
// @ts-expect-error: decorator
@inline
export function setValue(path: i32, v: i64): void {
  store<i64>(slot(path), v, 8);
}
// @ts-expect-error: decorator
@inline
export function text(path: i32): usize {
  return <usize>load<u32>(slot(path), 16);
}
// @ts-expect-error: decorator
@inline
export function textLength(path: i32): usize {
  return <usize>load<u32>(slot(path), 20);
}
export function setText(path: i32, pointer: usize, length: usize): void {
  store<u32>(slot(path), <u32>pointer, 16);
  store<u32>(slot(path), <u32>length, 20);
}

/** The hash (ids.ts `idHash`) of the decoded string at `path`. */
export function textHash(path: i32): u64 {
  const at = slot(path);
  if (load<u8>(at, 25) == 0) {
    store<u64>(at, idHash(text(path), textLength(path)), 8);
    store<u8>(at, 1, 25);
  }
  return load<u64>(at, 8);
}

/** The JSON kind of the value at `at`. */
export function jsonKind(at: usize): i32 {
  const c = <u32>load<u8>(at);
  if (c == 0x22) return Json.STRING;
  if (c == 0x7b) return Json.OBJECT;
  if (c == 0x5b) return Json.ARRAY;
  if (c == 0x74 || c == 0x66) return Json.BOOLEAN;
  if (c == 0x6e) return Json.NULL;
  return Json.NUMBER;
}
