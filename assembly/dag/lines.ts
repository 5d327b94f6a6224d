/**
 * The `dag` model's line auditor (docs/models/dag.md): what one JSONL line means to the dag model.
 * The framing (../jsonl.ts) hands it every non-blank line but the header; it counts the event,
 * then — unless the fold has stopped — checks the line (UTF-8 and JSON, json.ts, which hands it
 * the `kind`, `id`, `result` and `surface` fields: fields.ts) and audits it.
 */

import {
  auditEvent,
  beginJournal,
  countEvent,
  countStatuses,
  limitReached,
  noteTornTail,
  stopAtIntegrityFault,
  stopAtLimit,
  stopped,
} from "./audit";
import { lookupId } from "./dag";
import { Integrity, Kind, Malformed, Result, SurfaceShape } from "./events";
import { CharCode, decodeString, LineShape, scanString, scannedEscape, skipWhitespace } from "../json";
import {
  beginFraming,
  checkLine,
  finishFraming,
  Limit,
  LINE_NOT_UTF8,
  LINE_UNCHECKED,
  lineNumber,
  scratch,
} from "../jsonl";
import { consume as consumeFramed } from "../jsonl";
import {
  clearFields,
  Field,
  fieldEnd,
  fieldEscaped,
  fieldOfKey,
  fieldStart,
  fieldType,
  recordField,
  ValueType,
} from "./fields";
import { addToPayload, beginPayload, internPathAt } from "./surface";

/** Starts a JSONL journal over the loaded DAG. Returns a Limit code. */
export function beginJsonl(skipHeader: bool): i32 {
  if (!beginJournal()) return Limit.MEMORY;
  return beginFraming(skipHeader);
}

/** Ends the journal (the final unterminated line, the status counts). Returns a Limit code. */
export function finishJsonl(): i32 {
  finishFraming<DagLines>();
  countStatuses();
  return limitReached();
}

/** Audits the complete lines among the `length` bytes the host just wrote. Returns a Limit code. */
export function consume(length: usize): i32 {
  return consumeFramed<DagLines>(length);
}

/** The dag model's line auditor for the framing (see ../jsonl.ts). */
@final
class DagLines {
  // @ts-expect-error: decorator
  @inline
  line(start: usize, end: usize, shape: i32): void {
    const index = countEvent();
    if (stopped) return;
    auditScanned(index, shape == LINE_UNCHECKED ? checkLine<DagLines>(start, end) : shape);
  }

  // The reader of json.ts: the top-level `kind`, `id`, `result` and `surface` (fields.ts).

  // @ts-expect-error: decorator
  @inline
  fieldDepth(): usize {
    return 1;
  }

  // @ts-expect-error: decorator
  @inline
  clearFields(): void {
    clearFields();
  }

  // @ts-expect-error: decorator
  @inline
  member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
    return fieldOfKey(keyStart, keyEnd, escaped);
  }

  // @ts-expect-error: decorator
  @inline
  field(field: i32, start: usize, end: usize, escaped: bool): void {
    recordField(field, start, end, escaped);
  }

  // @ts-expect-error: decorator
  @inline
  tornTail(line: f64, offset: f64): void {
    noteTornTail(line, offset);
  }

  // @ts-expect-error: decorator
  @inline
  limit(limit: i32): void {
    stopAtLimit(limit);
  }
}

/** Audits a line `checkLine` answered `shape` for; the scanned fields are still in place. */
function auditScanned(index: f64, shape: i32): void {
  if (shape == LINE_NOT_UTF8) return malformed(index, Malformed.INVALID_UTF8);
  if (shape == LineShape.INVALID) return malformed(index, Malformed.INVALID_JSON);
  if (shape == LineShape.NOT_AN_OBJECT) return malformed(index, Malformed.NOT_AN_OBJECT);
  if (fieldType(Field.KIND) != ValueType.STRING) return malformed(index, Malformed.KIND_NOT_A_STRING);
  if (fieldType(Field.ID) != ValueType.STRING) return malformed(index, Malformed.ID_NOT_A_STRING);

  const id = fieldText(Field.ID);
  const idLength = fieldTextLength;
  const node = lookupId(id, idLength);
  if (node < 0) return stopAtIntegrityFault(index, lineNumber, Integrity.UNKNOWN_NODE, 0, id, idLength);

  const kindText = fieldText(Field.KIND);
  const kindLength = fieldTextLength;
  const kind = kindCode(kindText, kindLength);
  if (kind < 0) {
    return stopAtIntegrityFault(index, lineNumber, Integrity.UNKNOWN_KIND, 0, kindText, kindLength);
  }
  const surfaceShape = kind == Kind.SURFACE_WIDENED ? collectSurface(node) : SurfaceShape.ABSENT;
  if (stopped) return;
  auditEvent(index, lineNumber, node, <u8>kind, resultCode(), surfaceShape);
}

/** Set by `fieldText`: the decoded length. */
let fieldTextLength: usize = 0;

/**
 * The decoded content of a string field: where it lies in the line, or in the scratch buffer when
 * it held escapes (overwriting the previous decoded field). Its length is left in `fieldTextLength`.
 */
// @ts-expect-error: decorator
@inline
function fieldText(field: i32): usize {
  const text = fieldStart(field) + 1;
  fieldTextLength = fieldEnd(field) - 1 - text;
  if (!fieldEscaped(field)) return text;
  fieldTextLength = decodeString(text, text + fieldTextLength, scratch);
  return scratch;
}

function malformed(index: f64, problem: u8): void {
  stopAtIntegrityFault(index, lineNumber, Integrity.MALFORMED_EVENT, problem, 0, 0);
}

/**
 * The kind code for these (decoded) bytes, or -1 for a kind the model does not know. Words are
 * compared as little-endian integer loads (overlapping where the length is not a multiple of 4);
 * the constants are the words' ASCII bytes, e.g. 0x646e616c = "land".
 */
function kindCode(text: usize, length: usize): i32 {
  switch (<i32>length) {
    case 6: // landed
      return load<u32>(text) == 0x646e616c && load<u16>(text, 4) == 0x6465 ? Kind.LANDED : -1;
    case 7: // skipped
      return load<u32>(text) == 0x70696b73 && load<u32>(text, 3) == 0x64657070 ? Kind.SKIPPED : -1;
    case 9: // escalated
      return load<u64>(text) == 0x6574616c61637365 && load<u8>(text, 8) == 0x64 ? Kind.ESCALATED : -1;
    case 10: // dispatched, discharged
      if (load<u16>(text, 8) != 0x6465) return -1;
      if (load<u64>(text) == 0x6863746170736964) return Kind.DISPATCHED;
      return load<u64>(text) == 0x6772616863736964 ? Kind.DISCHARGED : -1;
    case 11: // quarantined
      return load<u64>(text) == 0x69746e6172617571 && load<u32>(text, 7) == 0x64656e69 ? Kind.QUARANTINED : -1;
    case 12: // gate-checked
      return load<u64>(text) == 0x6568632d65746167 && load<u32>(text, 8) == 0x64656b63 ? Kind.GATE_CHECKED : -1;
    case 15: // surface-widened
      return load<u64>(text) == 0x2d65636166727573 && load<u64>(text, 7) == 0x64656e656469772d
        ? Kind.SURFACE_WIDENED
        : -1;
    default:
      return -1;
  }
}

/** The result field as the fold needs it; words compared as in `kindCode`. */
function resultCode(): u8 {
  if (fieldType(Field.RESULT) != ValueType.STRING) return Result.MISSING_OR_OTHER;
  const text = fieldText(Field.RESULT);
  const length = fieldTextLength;
  if (length == 4) {
    if (load<u32>(text) == 0x73736170) return Result.PASS; // "pass"
    if (load<u32>(text) == 0x6c696166) return Result.FAIL; // "fail"
  } else if (length == 7 && load<u32>(text) == 0x656d6974 && load<u32>(text, 3) == 0x74756f65) {
    return Result.TIMEOUT; // "timeout"
  }
  return Result.MISSING_OR_OTHER;
}

/** Interns the surface payload's paths on `node` into the payload list; returns its SurfaceShape. */
function collectSurface(node: i32): u8 {
  beginPayload();
  const type = fieldType(Field.SURFACE);
  if (type == ValueType.ABSENT || type == ValueType.NULL) return SurfaceShape.ABSENT;
  if (type != ValueType.ARRAY) return SurfaceShape.OTHER;
  const end = fieldEnd(Field.SURFACE) - 1; // the closing bracket
  let at = skipWhitespace(fieldStart(Field.SURFACE) + 1, end);
  let position: u32 = 0;
  while (at < end) {
    if (load<u8>(at) != CharCode.QUOTE) return SurfaceShape.OTHER;
    const stringEnd = scanString(at, end);
    let text = at + 1;
    let length = stringEnd - 1 - text;
    if (scannedEscape) {
      length = decodeString(text, text + length, scratch);
      text = scratch;
    }
    const path = internPathAt(node, position++, text, length);
    if (path < 0 || !addToPayload(<u32>path)) {
      stopAtLimit(Limit.MEMORY);
      return SurfaceShape.OTHER;
    }
    at = skipWhitespace(stringEnd, end);
    if (at < end) at = skipWhitespace(at + 1, end); // the comma
  }
  return SurfaceShape.STRINGS;
}
