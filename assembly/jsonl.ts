/**
 * The JSONL journal, streamed (docs/journals.md; the reference reader is src/journal/jsonl.ts). The host
 * copies chunks of any size into the line buffer; complete lines are audited where they lie and
 * the partial line at the end moves to the front, so a line may span any number of chunks and
 * memory holds one line at most. Per line: one vector pass finds the line end and notes any byte
 * ≥ 0x80 (only such lines need UTF-8 validation), one pass validates the JSON.
 *
 * Budget: at 1 GB/s the scanner has about 3 cycles per byte on one core, so each byte is touched
 * by the newline search (16 at a time) and the JSON pass, and nothing else; ids are hashed once.
 */

import {
  auditEvent,
  beginJournal,
  countEvent,
  countStatuses,
  Limit,
  limitReached,
  noteTornTail,
  stopAtIntegrityFault,
  stopAtLimit,
  stopped,
} from "./dag/audit";
import { lookupId } from "./dag/dag";
import { Integrity, Kind, Malformed, Result, SurfaceShape } from "./dag/events";
import {
  CharCode,
  decodeString,
  Field,
  fieldEnd,
  fieldEscaped,
  fieldStart,
  fieldType,
  LineShape,
  scanLine,
  scannedEscape,
  scanString,
  skipWhitespace,
  useContainerStack,
  ValueType,
} from "./json";
import { reserve } from "./memory";
import { addToPayload, beginPayload, internPath } from "./dag/surface";
import { isValidUtf8 } from "./utf8";

const INITIAL_BUFFER_BYTES: usize = 1 << 20;
/** The longest line the kernel holds; a longer one is a reported limit, not a trap. */
export const LINE_BYTES_MAX: usize = 512 << 20;

let buffer: usize = 0;
let bufferCapacity: usize = 0;
/** Decoded strings (ids, kinds, paths) land here; decoding never lengthens a string. */
let scratch: usize = 0;
let filled: usize = 0;
let lineStart: usize = 0;
let scanFrom: usize = 0;
let lineHasHighBytes = false;
let lineNumber: f64 = 1;
let lineOffset: f64 = 0;
let headerPending = false;

export function beginJsonl(skipHeader: bool): i32 {
  if (!beginJournal()) return Limit.MEMORY;
  filled = 0;
  lineStart = 0;
  scanFrom = 0;
  lineHasHighBytes = false;
  lineNumber = 1;
  lineOffset = 0;
  headerPending = skipHeader;
  bufferCapacity = 0;
  return growBuffer(INITIAL_BUFFER_BYTES) ? Limit.NONE : Limit.MEMORY;
}

function growBuffer(capacity: usize): bool {
  const grown = reserve(capacity);
  const grownScratch = reserve(capacity);
  const stack = reserve((capacity >> 3) + 1);
  if (grown == 0 || grownScratch == 0 || stack == 0) return false;
  if (filled > 0) memory.copy(grown, buffer, filled);
  buffer = grown;
  scratch = grownScratch;
  bufferCapacity = capacity;
  useContainerStack(stack);
  return true;
}

/**
 * Where the journal's complete lines end: the byte offset and line number of the first line not
 * yet complete. A snapshot covers exactly the bytes before it.
 */
export function prefixBytes(): f64 {
  return lineOffset;
}

export function prefixLineNumber(): f64 {
  return lineNumber;
}

export function isHeaderPending(): bool {
  return headerPending;
}

/** Continues a journal from a snapshot: the next byte written is the one at `offset`. */
export function resumeJsonlAt(offset: f64, line: f64, header: bool): void {
  lineOffset = offset;
  lineNumber = line;
  headerPending = header;
}

export function writePointer(): usize {
  return buffer + filled;
}

export function writeCapacity(): usize {
  return bufferCapacity - filled;
}

/** Audits the complete lines among the `length` bytes just written. Returns a Limit code. */
export function consume(length: usize): i32 {
  filled += length;
  while (true) {
    const lineEnd = findLineEnd();
    if (lineEnd < 0) break;
    const end = <usize>lineEnd;
    const contentEnd = end > lineStart && load<u8>(buffer + end - 1) == CharCode.CR ? end - 1 : end;
    processLine(buffer + lineStart, buffer + contentEnd);
    lineNumber += 1;
    lineOffset += <f64>(end + 1 - lineStart);
    lineStart = end + 1;
    scanFrom = lineStart;
    lineHasHighBytes = false;
  }
  if (lineStart > 0) {
    memory.copy(buffer, buffer + lineStart, filled - lineStart);
    filled -= lineStart;
    scanFrom -= lineStart;
    lineStart = 0;
  }
  if (filled == bufferCapacity) {
    if (bufferCapacity >= LINE_BYTES_MAX) {
      stopAtLimit(Limit.LINE_LENGTH);
      return Limit.LINE_LENGTH;
    }
    if (!growBuffer(bufferCapacity << 1)) {
      stopAtLimit(Limit.MEMORY);
      return Limit.MEMORY;
    }
  }
  return Limit.NONE;
}

/**
 * The offset of the next line feed at or after `scanFrom`, or -1 when the buffer holds none yet
 * (then `scanFrom` = `filled`). Notes whether the line's bytes so far include one ≥ 0x80.
 */
function findLineEnd(): isize {
  let at = scanFrom;
  if (ASC_FEATURE_SIMD) {
    const feeds = i8x16.splat(<i8>CharCode.LF);
    // 64 bytes a turn while no line feed is among them (most of a line), then 16 at a time.
    while (at + 64 <= filled) {
      const b0 = v128.load(buffer + at);
      const b1 = v128.load(buffer + at, 16);
      const b2 = v128.load(buffer + at, 32);
      const b3 = v128.load(buffer + at, 48);
      const anyFeed = v128.or(
        v128.or(i8x16.eq(b0, feeds), i8x16.eq(b1, feeds)),
        v128.or(i8x16.eq(b2, feeds), i8x16.eq(b3, feeds)),
      );
      if (v128.any_true(anyFeed)) break;
      if (i8x16.bitmask(v128.or(v128.or(b0, b1), v128.or(b2, b3))) != 0) lineHasHighBytes = true;
      at += 64;
    }
    while (at < filled) {
      const block = v128.load(buffer + at);
      let valid = 0xffff;
      if (filled - at < 16) valid = (1 << <i32>(filled - at)) - 1;
      const feedMask = i8x16.bitmask(i8x16.eq(block, feeds)) & valid;
      const highMask = i8x16.bitmask(block) & valid;
      if (feedMask != 0) {
        const offset = ctz<i32>(feedMask);
        if ((highMask & ((1 << offset) - 1)) != 0) lineHasHighBytes = true;
        scanFrom = at + <usize>offset;
        return <isize>(at + <usize>offset);
      }
      if (highMask != 0) lineHasHighBytes = true;
      at += 16;
    }
  } else {
    while (at < filled) {
      const c = <u32>load<u8>(buffer + at);
      if (c == CharCode.LF) {
        scanFrom = at;
        return <isize>at;
      }
      if (c >= 0x80) lineHasHighBytes = true;
      at++;
    }
  }
  scanFrom = filled;
  return -1;
}

// @ts-expect-error: decorator
@inline
function isBlank(start: usize, end: usize): bool {
  for (let at = start; at < end; at++) {
    const c = <u32>load<u8>(at);
    if (c != CharCode.SPACE && c != CharCode.TAB && c != CharCode.CR) return false;
  }
  return true;
}

/** What `checkLine` answers for a line that is not UTF-8 (beside the LineShape codes). */
const LINE_NOT_UTF8: i32 = -1;

/** Checks UTF-8 (only when the line has a byte ≥ 0x80) and scans the JSON: a LineShape, or LINE_NOT_UTF8. */
// @ts-expect-error: decorator
@inline
function checkLine(start: usize, end: usize): i32 {
  if (lineHasHighBytes && !isValidUtf8(start, end)) return LINE_NOT_UTF8;
  return scanLine(start, end);
}

function processLine(start: usize, end: usize): void {
  if (isBlank(start, end)) return;
  if (headerPending) {
    headerPending = false;
    return;
  }
  const index = countEvent();
  if (!stopped) auditScanned(index, checkLine(start, end));
}

/**
 * The final line had no line feed: an event if it is UTF-8 and JSON (audited like any line, even
 * when it is no event object), else a torn tail, which is not counted. Returns a Limit code.
 */
export function finishJsonl(): i32 {
  if (filled > lineStart) {
    findLineEnd();
    const start = buffer + lineStart;
    const end = buffer + filled;
    if (!isBlank(start, end)) {
      if (headerPending) {
        headerPending = false;
      } else {
        const shape = checkLine(start, end);
        if (shape == LINE_NOT_UTF8 || shape == LineShape.INVALID) {
          noteTornTail(lineNumber, lineOffset);
        } else {
          const index = countEvent();
          if (!stopped) auditScanned(index, shape);
        }
      }
    }
  }
  countStatuses();
  return limitReached();
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
  const surfaceShape = kind == Kind.SURFACE_WIDENED ? collectSurface() : SurfaceShape.ABSENT;
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

/** Interns the surface payload's paths into the payload list; returns its SurfaceShape. */
function collectSurface(): u8 {
  beginPayload();
  const type = fieldType(Field.SURFACE);
  if (type == ValueType.ABSENT || type == ValueType.NULL) return SurfaceShape.ABSENT;
  if (type != ValueType.ARRAY) return SurfaceShape.OTHER;
  const end = fieldEnd(Field.SURFACE) - 1; // the closing bracket
  let at = skipWhitespace(fieldStart(Field.SURFACE) + 1, end);
  while (at < end) {
    if (load<u8>(at) != CharCode.QUOTE) return SurfaceShape.OTHER;
    const stringEnd = scanString(at, end);
    let text = at + 1;
    let length = stringEnd - 1 - text;
    if (scannedEscape) {
      length = decodeString(text, text + length, scratch);
      text = scratch;
    }
    const path = internPath(text, length);
    if (path < 0 || !addToPayload(<u32>path)) {
      stopAtLimit(Limit.MEMORY);
      return SurfaceShape.OTHER;
    }
    at = skipWhitespace(stringEnd, end);
    if (at < end) at = skipWhitespace(at + 1, end); // the comma
  }
  return SurfaceShape.STRINGS;
}
