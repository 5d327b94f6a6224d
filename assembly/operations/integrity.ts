/**
 * The integrity checks of the `operations` model (docs/models/operations.md, "Integrity";
 * mirrors src/models/operations/integrity.ts), in their order: malformed-event (not a record at
 * all), unknown-kind, then malformed-event for the first field — the kind's own in the records
 * table's order, then `epoch` — that is missing or of the wrong type. While json.ts validates the
 * line, `pathOfMember` names the members the model reads and their values land in the slots of
 * records.ts (a duplicate key: the last wins); then the fields each kind reads are checked and
 * decoded there.
 */

import { decodeString, isName } from "../json";
import { isSafeIntegerNumber, integerValue } from "../number";
import {
  FieldType,
  isPresent,
  Json,
  jsonKind,
  Kind,
  Path,
  clearSlots,
  isEscaped,
  setText,
  setValue,
  text,
  textLength,
  value,
  valueEnd,
  valueStart,
} from "./records";

export namespace Integrity {
  export const NONE: i32 = -1;
  export const MALFORMED_EVENT: i32 = 0;
  export const UNKNOWN_KIND: i32 = 1;
}

/** The reference's MalformedProblem, in its order. */
export namespace Problem {
  export const INVALID_UTF8: i32 = 0;
  export const INVALID_JSON: i32 = 1;
  export const NOT_AN_OBJECT: i32 = 2;
  export const KIND_NOT_A_STRING: i32 = 3;
  export const MISSING_FIELD: i32 = 4;
  export const WRONG_TYPE: i32 = 5;
  export const WITHOUT_COMPANION: i32 = 6;
}

/** The fault `readFields` found: its problem, the field's path and what it should have been. */
export let faultProblem: i32 = 0;
export let faultPath: i32 = Path.NONE;
export let faultExpected: i32 = 0;
export let faultCompanion: i32 = Path.NONE;

/** Where decoded strings go (the framing's scratch buffer, as long as the line); bumped per string. */
let decodeTop: usize = 0;

export function useDecodeBuffer(at: usize): void {
  decodeTop = at;
}

/** The longest key that can be a field name ("retryAfterMs", 12), each byte escaped (6). */
const ESCAPED_NAME_BYTES_MAX: usize = 12 * 6;
const keyScratch = memory.data(<i32>ESCAPED_NAME_BYTES_MAX);

/**
 * The path a member's key names (json.ts's reader, via lines.ts): at level 1 the record's own
 * fields, below them the fields of `policy`, `request`, `response` and `response.handle`. A key
 * that opens one of those objects clears the fields an earlier duplicate's object left, so the
 * last duplicate wins whole.
 */
// @ts-expect-error: decorator
@inline
export function pathOfMember(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
  let key = keyStart;
  let length = keyEnd - keyStart;
  if (escaped) {
    if (length > ESCAPED_NAME_BYTES_MAX) return Path.NONE;
    length = decodeString(key, key + length, keyScratch);
    key = keyScratch;
  }
  if (depth == 1) {
    const path = topPath(key, length);
    if (path == Path.POLICY) clearSlots(Path.POLICY_MAX_ATTEMPTS, Path.POLICY_MAX_DELAY_MS);
    else if (path == Path.REQUEST) clearSlots(Path.REQUEST_PROVIDER, Path.REQUEST_API);
    else if (path == Path.RESPONSE) clearSlots(Path.RESPONSE_STOP, Path.HANDLE_API);
    return path;
  }
  if (parent == Path.POLICY) {
    if (isName(key, length, "maxAttempts")) return Path.POLICY_MAX_ATTEMPTS;
    if (isName(key, length, "baseDelayMs")) return Path.POLICY_BASE_DELAY_MS;
    if (isName(key, length, "maxDelayMs")) return Path.POLICY_MAX_DELAY_MS;
    return Path.NONE;
  }
  if (parent == Path.REQUEST) {
    if (isName(key, length, "provider")) return Path.REQUEST_PROVIDER;
    if (isName(key, length, "model")) return Path.REQUEST_MODEL;
    if (isName(key, length, "api")) return Path.REQUEST_API;
    return Path.NONE;
  }
  if (parent == Path.RESPONSE) {
    if (isName(key, length, "stop")) return Path.RESPONSE_STOP;
    if (isName(key, length, "errorMessage")) return Path.RESPONSE_ERROR_MESSAGE;
    if (isName(key, length, "outputTokens")) return Path.RESPONSE_OUTPUT_TOKENS;
    if (isName(key, length, "toolCalls")) return Path.RESPONSE_TOOL_CALLS;
    if (isName(key, length, "handle")) {
      clearSlots(Path.HANDLE_ID, Path.HANDLE_API);
      return Path.RESPONSE_HANDLE;
    }
    return Path.NONE;
  }
  if (parent != Path.RESPONSE_HANDLE) return Path.NONE;
  if (isName(key, length, "id")) return Path.HANDLE_ID;
  if (isName(key, length, "provider")) return Path.HANDLE_PROVIDER;
  if (isName(key, length, "model")) return Path.HANDLE_MODEL;
  if (isName(key, length, "api")) return Path.HANDLE_API;
  return Path.NONE;
}

/**
 * The top-level path a key names. Keys are compared as little-endian integer loads, overlapping
 * where the length is not a multiple of the word (the constants are the keys' ASCII bytes, e.g.
 * 0x706f = "op").
 */
// @ts-expect-error: decorator
@inline
function topPath(key: usize, length: usize): i32 {
  switch (<i32>length) {
    case 2:
      if (load<u16>(key) == 0x706f) return Path.OP;
      if (load<u16>(key) == 0x7461) return Path.AT;
      break;
    case 3:
      if (load<u16>(key) == 0x656b && load<u8>(key, 2) == 0x79) return Path.KEY;
      break;
    case 4:
      if (load<u32>(key) == 0x646e696b) return Path.KIND;
      break;
    case 5: {
      const tail = load<u32>(key, 1);
      if (load<u8>(key) == 0x65 && tail == 0x68636f70) return Path.EPOCH;
      if (load<u8>(key) == 0x63 && tail == 0x7373616c) return Path.CLASS;
      if (load<u8>(key) == 0x66 && tail == 0x646e756f) return Path.FOUND;
      if (load<u8>(key) == 0x6f && tail == 0x72656e77) return Path.OWNER;
      break;
    }
    case 6: {
      const head = load<u32>(key);
      const tail = load<u16>(key, 4);
      if (head == 0x65666665 && tail == 0x7463) return Path.EFFECT;
      if (head == 0x61727473 && tail == 0x646e) return Path.STRAND;
      if (head == 0x696c6f70 && tail == 0x7963) return Path.POLICY;
      break;
    }
    case 7: {
      const head = load<u32>(key);
      const tail = load<u32>(key, 3);
      if (head == 0x65747461 && tail == 0x74706d65) return Path.ATTEMPT;
      if (head == 0x6374756f && tail == 0x656d6f63) return Path.OUTCOME;
      if (head == 0x75716572 && tail == 0x74736575) return Path.REQUEST;
      break;
    }
    case 8:
      if (load<u64>(key) == 0x65736e6f70736572) return Path.RESPONSE;
      break;
    case 9: {
      const head = load<u64>(key);
      const last = load<u8>(key, 8);
      if (head == 0x6c62617972746572 && last == 0x65) return Path.RETRYABLE;
      if (head == 0x726f666542746f6e && last == 0x65) return Path.NOT_BEFORE;
      break;
    }
    case 11:
      if (load<u64>(key) == 0x694c74757074756f && load<u32>(key, 7) == 0x74696d69) return Path.OUTPUT_LIMIT;
      break;
    case 12:
      if (load<u64>(key) == 0x7466417972746572 && load<u32>(key, 8) == 0x734d7265) return Path.RETRY_AFTER_MS;
      break;
  }
  return Path.NONE;
}

/**
 * The decoded content of the string at `path` (present, a string): in place when it holds no
 * escape, else decoded into the decode buffer. Its pointer and length go to the slot.
 */
// @ts-expect-error: decorator
@inline
export function decodeText(path: i32): void {
  const start = valueStart(path) + 1;
  const end = valueEnd(path) - 1;
  if (isEscaped(path)) decodeEscapedText(path, start, end);
  else setText(path, start, end - start);
}

function decodeEscapedText(path: i32, start: usize, end: usize): void {
  const length = decodeString(start, end, decodeTop);
  setText(path, decodeTop, length);
  decodeTop += length;
}

/**
 * The kind code of the decoded kind text, or -1: compared as little-endian words, as `topPath`
 * compares keys (0x65746e69 = "inte").
 */
export function kindCode(pointer: usize, length: usize): i32 {
  switch (<i32>length) {
    case 5:
      if (load<u32>(pointer) == 0x7361656c && load<u8>(pointer, 4) == 0x65) return Kind.LEASE;
      break;
    case 6:
      if (load<u32>(pointer) == 0x65746e69 && load<u16>(pointer, 4) == 0x746e) return Kind.INTENT;
      break;
    case 7:
      if (load<u32>(pointer) == 0x74746573 && load<u32>(pointer, 3) == 0x64656c74) return Kind.SETTLED;
      break;
    case 8: {
      const word = load<u64>(pointer);
      if (word == 0x6465747065636361) return Kind.ACCEPTED;
      if (word == 0x6b63616264616572) return Kind.READBACK;
      if (word == 0x64656873696e6966) return Kind.FINISHED;
      break;
    }
    case 16:
      if (load<u64>(pointer) == 0x722d6c65636e6163 && load<u64>(pointer, 8) == 0x6465747365757165) {
        return Kind.CANCEL_REQUESTED;
      }
      break;
  }
  return -1;
}

function enumerationCode(type: i32, p: usize, n: usize): i32 {
  switch (type) {
    case FieldType.SETTLED_OUTCOME:
      if (isName(p, n, "ok")) return 0;
      if (isName(p, n, "error")) return 1;
      if (isName(p, n, "unknown")) return 2;
      return -1;
    case FieldType.READBACK_FINDING:
      if (isName(p, n, "committed")) return 0;
      if (isName(p, n, "absent")) return 1;
      return -1;
    case FieldType.FINISHED_OUTCOME:
      if (isName(p, n, "completed")) return 0;
      if (isName(p, n, "failed")) return 1;
      if (isName(p, n, "aborted")) return 2;
      return -1;
    case FieldType.STOP_REASON:
      if (isName(p, n, "stop")) return 0;
      if (isName(p, n, "length")) return 1;
      if (isName(p, n, "tool-use")) return 2;
      if (isName(p, n, "error")) return 3;
      if (isName(p, n, "aborted")) return 4;
      if (isName(p, n, "deferred")) return 5;
      if (isName(p, n, "pending")) return 6;
      return -1;
    default: // RESPONSE_CLASS
      if (isName(p, n, "corrupt")) return 0;
      if (isName(p, n, "cancelled")) return 1;
      if (isName(p, n, "overflow")) return 2;
      if (isName(p, n, "deferred-valid")) return 3;
      if (isName(p, n, "deferred-invalid")) return 4;
      if (isName(p, n, "error")) return 5;
      if (isName(p, n, "tool-use")) return 6;
      if (isName(p, n, "tool-use-truncated")) return 7;
      if (isName(p, n, "finished")) return 8;
      return -1;
  }
}

/** Whether the present value at `path` fits `type` (its value or text is then in the slot). */
// @ts-expect-error: decorator
@inline
function fits(path: i32, type: i32): bool {
  const start = valueStart(path);
  const json = jsonKind(start);
  switch (type) {
    case FieldType.STRING:
      if (json != Json.STRING) return false;
      decodeText(path);
      return true;
    case FieldType.INTEGER:
    case FieldType.COUNT:
    case FieldType.ATTEMPT_BUDGET:
      if (type == FieldType.ATTEMPT_BUDGET && json == Json.NULL) {
        setValue(path, 0); // unbounded
        return true;
      }
      if (json != Json.NUMBER || !isSafeIntegerNumber(start, valueEnd(path))) return false;
      setValue(path, integerValue);
      if (type == FieldType.COUNT) return integerValue >= 0;
      if (type == FieldType.ATTEMPT_BUDGET) return integerValue >= 1;
      return true;
    case FieldType.BOOLEAN:
      if (json != Json.BOOLEAN) return false;
      setValue(path, load<u8>(start) == 0x74 ? 1 : 0);
      return true;
    case FieldType.SETTLED_OUTCOME:
    case FieldType.READBACK_FINDING:
    case FieldType.FINISHED_OUTCOME:
    case FieldType.STOP_REASON:
    case FieldType.RESPONSE_CLASS: {
      if (json != Json.STRING) return false;
      decodeText(path);
      const code = enumerationCode(type, text(path), textLength(path));
      setValue(path, code);
      return code >= 0;
    }
    default: // POLICY, REQUEST, RESPONSE, HANDLE
      return json == Json.OBJECT;
  }
}



/**
 * Checks one field (the reference's `fieldsProblem` step): missing and required, present and of
 * the wrong type, a problem inside it, a companion missing. False with the fault noted.
 * Inlined, as `fits` is: every call site names its type, so each check compiles to that type's
 * code alone.
 */
// @ts-expect-error: decorator
@inline
function checkField(path: i32, type: i32, required: bool, companion: i32): bool {
  if (!checkPresence(path, type, required)) return false;
  if (!isPresent(path)) return true;
  if (isObjectType(type) && !checkMembers(type)) return false;
  if (companion != Path.NONE && !isPresent(companion)) {
    faultProblem = Problem.WITHOUT_COMPANION;
    faultPath = path;
    faultCompanion = companion;
    return false;
  }
  return true;
}

/** Missing and required, or present and of the wrong type: false with the fault noted. */
// @ts-expect-error: decorator
@inline
function checkPresence(path: i32, type: i32, required: bool): bool {
  if (!isPresent(path)) {
    if (!required) return true;
    faultProblem = Problem.MISSING_FIELD;
    faultPath = path;
    return false;
  }
  if (!fits(path, type)) {
    faultProblem = Problem.WRONG_TYPE;
    faultPath = path;
    faultExpected = type;
    return false;
  }
  return true;
}

// @ts-expect-error: decorator
@inline
function isObjectType(type: i32): bool {
  return type == FieldType.POLICY || type == FieldType.REQUEST || type == FieldType.RESPONSE || type == FieldType.HANDLE;
}

/** The members of a present object field of `type` (POLICY, REQUEST, RESPONSE, HANDLE). */
function checkMembers(type: i32): bool {
  if (type == FieldType.POLICY) {
    return (
      checkPresence(Path.POLICY_MAX_ATTEMPTS, FieldType.ATTEMPT_BUDGET, true) &&
      checkPresence(Path.POLICY_BASE_DELAY_MS, FieldType.COUNT, true) &&
      checkPresence(Path.POLICY_MAX_DELAY_MS, FieldType.COUNT, true)
    );
  }
  if (type == FieldType.REQUEST) {
    return (
      checkPresence(Path.REQUEST_PROVIDER, FieldType.STRING, true) &&
      checkPresence(Path.REQUEST_MODEL, FieldType.STRING, true) &&
      checkPresence(Path.REQUEST_API, FieldType.STRING, true)
    );
  }
  if (type == FieldType.RESPONSE) {
    return (
      checkPresence(Path.RESPONSE_STOP, FieldType.STOP_REASON, true) &&
      checkPresence(Path.RESPONSE_ERROR_MESSAGE, FieldType.STRING, false) &&
      checkPresence(Path.RESPONSE_OUTPUT_TOKENS, FieldType.COUNT, false) &&
      checkPresence(Path.RESPONSE_TOOL_CALLS, FieldType.COUNT, false) &&
      checkPresence(Path.RESPONSE_HANDLE, FieldType.HANDLE, false) &&
      (!isPresent(Path.RESPONSE_HANDLE) || checkMembers(FieldType.HANDLE))
    );
  }
  return (
    checkPresence(Path.HANDLE_ID, FieldType.STRING, true) &&
    checkPresence(Path.HANDLE_PROVIDER, FieldType.STRING, true) &&
    checkPresence(Path.HANDLE_MODEL, FieldType.STRING, true) &&
    checkPresence(Path.HANDLE_API, FieldType.STRING, true)
  );
}

/**
 * The kind's fields, in the records table's order, then `epoch` (not on a lease). False with
 * the first fault noted; true when the record is well-formed (its values are then in the slots).
 */
export function checkFields(kind: i32): bool {
  switch (kind) {
    case Kind.ACCEPTED:
      if (!checkField(Path.OP, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.STRAND, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.POLICY, FieldType.POLICY, false, Path.NONE)) return false;
      break;
    case Kind.INTENT:
      if (!checkField(Path.OP, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.KEY, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.EFFECT, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.ATTEMPT, FieldType.INTEGER, true, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, Path.NONE)) return false;
      if (!checkField(Path.REQUEST, FieldType.REQUEST, false, Path.NONE)) return false;
      if (!checkField(Path.OUTPUT_LIMIT, FieldType.COUNT, false, Path.NONE)) return false;
      break;
    case Kind.SETTLED:
      if (!checkField(Path.OP, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.EFFECT, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.OUTCOME, FieldType.SETTLED_OUTCOME, true, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, Path.NONE)) return false;
      if (!checkField(Path.RETRYABLE, FieldType.BOOLEAN, false, Path.NONE)) return false;
      if (!checkField(Path.NOT_BEFORE, FieldType.INTEGER, false, Path.NONE)) return false;
      if (!checkField(Path.RESPONSE, FieldType.RESPONSE, false, Path.NONE)) return false;
      if (!checkField(Path.CLASS, FieldType.RESPONSE_CLASS, false, Path.RESPONSE)) return false;
      break;
    case Kind.READBACK:
      if (!checkField(Path.OP, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.EFFECT, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.FOUND, FieldType.READBACK_FINDING, true, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, Path.NONE)) return false;
      break;
    case Kind.CANCEL_REQUESTED:
      if (!checkField(Path.OP, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, Path.NONE)) return false;
      break;
    case Kind.FINISHED:
      if (!checkField(Path.OP, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.OUTCOME, FieldType.FINISHED_OUTCOME, true, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, Path.NONE)) return false;
      break;
    default: // LEASE
      if (!checkField(Path.STRAND, FieldType.STRING, true, Path.NONE)) return false;
      if (!checkField(Path.EPOCH, FieldType.INTEGER, true, Path.NONE)) return false;
      if (!checkField(Path.OWNER, FieldType.STRING, false, Path.NONE)) return false;
      return true;
  }
  return checkField(Path.EPOCH, FieldType.INTEGER, false, Path.NONE);
}

/** The provider's hint: retryAfterMs when it is a safe integer ≥ 0, else -1 (no hint). */
export function retryHint(): i64 {
  if (!isPresent(Path.RETRY_AFTER_MS)) return -1;
  const start = valueStart(Path.RETRY_AFTER_MS);
  if (jsonKind(start) != Json.NUMBER) return -1;
  if (!isSafeIntegerNumber(start, valueEnd(Path.RETRY_AFTER_MS))) return -1;
  return integerValue >= 0 ? integerValue : -1;
}

export { value };
