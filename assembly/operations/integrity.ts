/**
 * The integrity checks of the `operations` model (docs/models/operations.md, "Integrity";
 * mirrors src/models/operations/integrity.ts), in their order: malformed-event (not a record at
 * all), unknown-kind, then malformed-event for the first field — the kind's own in the records
 * table's order, then `epoch` — that is missing or of the wrong type. The line has been
 * validated by json.ts; here its members are walked (a duplicate key: the last wins) and the
 * fields each kind reads are checked and decoded into the slots of records.ts.
 */

import { decodeString, firstMember, memberKeyEnd, memberKeyEscaped, memberKeyStart, memberValueEnd, memberValueStart, nextMember } from "../json";
import { isSafeIntegerNumber, integerValue } from "../number";
import {
  FieldType,
  isName,
  isPresent,
  Json,
  jsonKind,
  Kind,
  Path,
  setSlot,
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

/** Object groups, for naming a member's key. */
namespace Group {
  export const TOP: i32 = 0;
  export const POLICY: i32 = 1;
  export const REQUEST: i32 = 2;
  export const RESPONSE: i32 = 3;
  export const HANDLE: i32 = 4;
}

/** The longest key that can be a field name ("retryAfterMs", 12), each byte escaped (6). */
const ESCAPED_NAME_BYTES_MAX: usize = 12 * 6;
const keyScratch = memory.data(<i32>ESCAPED_NAME_BYTES_MAX);

function pathOfKey(group: i32): i32 {
  let key = memberKeyStart;
  let length = memberKeyEnd - memberKeyStart;
  if (memberKeyEscaped) {
    if (length > ESCAPED_NAME_BYTES_MAX) return Path.NONE;
    length = decodeString(key, key + length, keyScratch);
    key = keyScratch;
  }
  if (group == Group.TOP) return topPath(key, length);
  if (group == Group.POLICY) {
    if (isName(key, length, "maxAttempts")) return Path.POLICY_MAX_ATTEMPTS;
    if (isName(key, length, "baseDelayMs")) return Path.POLICY_BASE_DELAY_MS;
    if (isName(key, length, "maxDelayMs")) return Path.POLICY_MAX_DELAY_MS;
    return Path.NONE;
  }
  if (group == Group.REQUEST) {
    if (isName(key, length, "provider")) return Path.REQUEST_PROVIDER;
    if (isName(key, length, "model")) return Path.REQUEST_MODEL;
    if (isName(key, length, "api")) return Path.REQUEST_API;
    return Path.NONE;
  }
  if (group == Group.RESPONSE) {
    if (isName(key, length, "stop")) return Path.RESPONSE_STOP;
    if (isName(key, length, "errorMessage")) return Path.RESPONSE_ERROR_MESSAGE;
    if (isName(key, length, "outputTokens")) return Path.RESPONSE_OUTPUT_TOKENS;
    if (isName(key, length, "toolCalls")) return Path.RESPONSE_TOOL_CALLS;
    if (isName(key, length, "handle")) return Path.RESPONSE_HANDLE;
    return Path.NONE;
  }
  if (isName(key, length, "id")) return Path.HANDLE_ID;
  if (isName(key, length, "provider")) return Path.HANDLE_PROVIDER;
  if (isName(key, length, "model")) return Path.HANDLE_MODEL;
  if (isName(key, length, "api")) return Path.HANDLE_API;
  return Path.NONE;
}

function topPath(key: usize, length: usize): i32 {
  switch (<i32>length) {
    case 2:
      if (isName(key, length, "op")) return Path.OP;
      if (isName(key, length, "at")) return Path.AT;
      break;
    case 3:
      if (isName(key, length, "key")) return Path.KEY;
      break;
    case 4:
      if (isName(key, length, "kind")) return Path.KIND;
      break;
    case 5:
      if (isName(key, length, "class")) return Path.CLASS;
      if (isName(key, length, "found")) return Path.FOUND;
      if (isName(key, length, "epoch")) return Path.EPOCH;
      if (isName(key, length, "owner")) return Path.OWNER;
      break;
    case 6:
      if (isName(key, length, "strand")) return Path.STRAND;
      if (isName(key, length, "policy")) return Path.POLICY;
      if (isName(key, length, "effect")) return Path.EFFECT;
      break;
    case 7:
      if (isName(key, length, "attempt")) return Path.ATTEMPT;
      if (isName(key, length, "request")) return Path.REQUEST;
      if (isName(key, length, "outcome")) return Path.OUTCOME;
      break;
    case 8:
      if (isName(key, length, "response")) return Path.RESPONSE;
      break;
    case 9:
      if (isName(key, length, "retryable")) return Path.RETRYABLE;
      if (isName(key, length, "notBefore")) return Path.NOT_BEFORE;
      break;
    case 11:
      if (isName(key, length, "outputLimit")) return Path.OUTPUT_LIMIT;
      break;
    case 12:
      if (isName(key, length, "retryAfterMs")) return Path.RETRY_AFTER_MS;
      break;
  }
  return Path.NONE;
}

/** Notes where the object at `at` holds the fields of `group` (its members, the last of a key winning). */
function walkObject(at: usize, end: usize, group: i32): void {
  if (!firstMember(at, end)) return;
  do {
    const path = pathOfKey(group);
    if (path != Path.NONE) setSlot(path, memberValueStart, memberValueEnd);
  } while (nextMember(end));
}

/** Walks the record's top-level members; the line is a JSON object. */
export function walkRecord(start: usize, end: usize): void {
  let at = start;
  while (load<u8>(at) != 0x7b) at++;
  walkObject(at, end, Group.TOP);
}

/**
 * The decoded content of the string at `path` (present, a string): in place when it holds no
 * escape, else decoded into the decode buffer. Its pointer and length go to the slot.
 */
export function decodeText(path: i32): void {
  const start = valueStart(path) + 1;
  const end = valueEnd(path) - 1;
  let escaped = false;
  for (let at = start; at < end; at++) {
    if (load<u8>(at) == 0x5c) {
      escaped = true;
      break;
    }
  }
  if (!escaped) {
    setText(path, start, end - start);
    return;
  }
  const length = decodeString(start, end, decodeTop);
  setText(path, decodeTop, length);
  decodeTop += length;
}

/** The kind code of the decoded kind text, or -1. */
export function kindCode(pointer: usize, length: usize): i32 {
  if (isName(pointer, length, "accepted")) return Kind.ACCEPTED;
  if (isName(pointer, length, "intent")) return Kind.INTENT;
  if (isName(pointer, length, "settled")) return Kind.SETTLED;
  if (isName(pointer, length, "readback")) return Kind.READBACK;
  if (isName(pointer, length, "cancel-requested")) return Kind.CANCEL_REQUESTED;
  if (isName(pointer, length, "finished")) return Kind.FINISHED;
  if (isName(pointer, length, "lease")) return Kind.LEASE;
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
 */
function checkField(path: i32, type: i32, required: bool, end: usize, companion: i32): bool {
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
  if (type == FieldType.POLICY) {
    walkObject(valueStart(path), end, Group.POLICY);
    if (!checkField(Path.POLICY_MAX_ATTEMPTS, FieldType.ATTEMPT_BUDGET, true, end, Path.NONE)) return false;
    if (!checkField(Path.POLICY_BASE_DELAY_MS, FieldType.COUNT, true, end, Path.NONE)) return false;
    if (!checkField(Path.POLICY_MAX_DELAY_MS, FieldType.COUNT, true, end, Path.NONE)) return false;
  } else if (type == FieldType.REQUEST) {
    walkObject(valueStart(path), end, Group.REQUEST);
    if (!checkField(Path.REQUEST_PROVIDER, FieldType.STRING, true, end, Path.NONE)) return false;
    if (!checkField(Path.REQUEST_MODEL, FieldType.STRING, true, end, Path.NONE)) return false;
    if (!checkField(Path.REQUEST_API, FieldType.STRING, true, end, Path.NONE)) return false;
  } else if (type == FieldType.RESPONSE) {
    walkObject(valueStart(path), end, Group.RESPONSE);
    if (!checkField(Path.RESPONSE_STOP, FieldType.STOP_REASON, true, end, Path.NONE)) return false;
    if (!checkField(Path.RESPONSE_ERROR_MESSAGE, FieldType.STRING, false, end, Path.NONE)) return false;
    if (!checkField(Path.RESPONSE_OUTPUT_TOKENS, FieldType.COUNT, false, end, Path.NONE)) return false;
    if (!checkField(Path.RESPONSE_TOOL_CALLS, FieldType.COUNT, false, end, Path.NONE)) return false;
    if (!checkField(Path.RESPONSE_HANDLE, FieldType.HANDLE, false, end, Path.NONE)) return false;
  } else if (type == FieldType.HANDLE) {
    walkObject(valueStart(path), end, Group.HANDLE);
    if (!checkField(Path.HANDLE_ID, FieldType.STRING, true, end, Path.NONE)) return false;
    if (!checkField(Path.HANDLE_PROVIDER, FieldType.STRING, true, end, Path.NONE)) return false;
    if (!checkField(Path.HANDLE_MODEL, FieldType.STRING, true, end, Path.NONE)) return false;
    if (!checkField(Path.HANDLE_API, FieldType.STRING, true, end, Path.NONE)) return false;
  }
  if (companion != Path.NONE && !isPresent(companion)) {
    faultProblem = Problem.WITHOUT_COMPANION;
    faultPath = path;
    faultCompanion = companion;
    return false;
  }
  return true;
}

/**
 * The kind's fields, in the records table's order, then `epoch` (not on a lease). False with
 * the first fault noted; true when the record is well-formed (its values are then in the slots).
 */
export function checkFields(kind: i32, end: usize): bool {
  switch (kind) {
    case Kind.ACCEPTED:
      if (!checkField(Path.OP, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.STRAND, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.POLICY, FieldType.POLICY, false, end, Path.NONE)) return false;
      break;
    case Kind.INTENT:
      if (!checkField(Path.OP, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.KEY, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.EFFECT, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.ATTEMPT, FieldType.INTEGER, true, end, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, end, Path.NONE)) return false;
      if (!checkField(Path.REQUEST, FieldType.REQUEST, false, end, Path.NONE)) return false;
      if (!checkField(Path.OUTPUT_LIMIT, FieldType.COUNT, false, end, Path.NONE)) return false;
      break;
    case Kind.SETTLED:
      if (!checkField(Path.OP, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.EFFECT, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.OUTCOME, FieldType.SETTLED_OUTCOME, true, end, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, end, Path.NONE)) return false;
      if (!checkField(Path.RETRYABLE, FieldType.BOOLEAN, false, end, Path.NONE)) return false;
      if (!checkField(Path.NOT_BEFORE, FieldType.INTEGER, false, end, Path.NONE)) return false;
      if (!checkField(Path.RESPONSE, FieldType.RESPONSE, false, end, Path.NONE)) return false;
      if (!checkField(Path.CLASS, FieldType.RESPONSE_CLASS, false, end, Path.RESPONSE)) return false;
      break;
    case Kind.READBACK:
      if (!checkField(Path.OP, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.EFFECT, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.FOUND, FieldType.READBACK_FINDING, true, end, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, end, Path.NONE)) return false;
      break;
    case Kind.CANCEL_REQUESTED:
      if (!checkField(Path.OP, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, end, Path.NONE)) return false;
      break;
    case Kind.FINISHED:
      if (!checkField(Path.OP, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.OUTCOME, FieldType.FINISHED_OUTCOME, true, end, Path.NONE)) return false;
      if (!checkField(Path.AT, FieldType.INTEGER, true, end, Path.NONE)) return false;
      break;
    default: // LEASE
      if (!checkField(Path.STRAND, FieldType.STRING, true, end, Path.NONE)) return false;
      if (!checkField(Path.EPOCH, FieldType.INTEGER, true, end, Path.NONE)) return false;
      if (!checkField(Path.OWNER, FieldType.STRING, false, end, Path.NONE)) return false;
      return true;
  }
  return checkField(Path.EPOCH, FieldType.INTEGER, false, end, Path.NONE);
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
