/**
 * The JSONL journal, streamed (docs/journals.md; the reference reader is src/journal/jsonl.ts):
 * the framing every model shares. The host copies chunks of any size into the line buffer;
 * complete lines are handed to the model's line auditor where they lie and the partial line at
 * the end moves to the front, so a line may span any number of chunks and memory holds one line
 * at most. Per line: one vector pass finds the line end and notes any byte ≥ 0x80 (only such
 * lines need UTF-8 validation), and the model's auditor runs `checkLine` (UTF-8 and the JSON
 * pass of json.ts) when it needs the line's verdict.
 *
 * The framing decides what is a line, a blank line, the header (skipped when the host says
 * line 1 is one: it is then the first line that is not blank), and the torn tail; the model decides what a line means. Each
 * model's module instantiates `consume` and `finishFraming` with its auditor (one module per
 * model).
 *
 * Budget: at 1 GB/s the scanner has about 3 cycles per byte on one core, so each byte is touched
 * by the newline search (16 at a time) and the JSON pass, and nothing else; ids are hashed once.
 */

import { CharCode, LineShape, scanLine, useContainerStack } from "./json";
import { abandon, reserve } from "./memory";
import { isValidUtf8 } from "./utf8";

/** Why a journal could not be audited to its end (the host turns these into errors). */
export namespace Limit {
  export const NONE: i32 = 0;
  export const MEMORY: i32 = 1;
  export const LINE_LENGTH: i32 = 2;
}

const INITIAL_BUFFER_BYTES: usize = 1 << 20;
/** The longest line the kernel holds; a longer one is a reported limit, not a trap. */
export const LINE_BYTES_MAX: usize = 512 << 20;

/** What `checkLine` answers for a line that is not UTF-8 (beside the LineShape codes). */
export const LINE_NOT_UTF8: i32 = -1;
/** Handed to the line auditor for a complete line: not checked yet, `checkLine` it if needed. */
export const LINE_UNCHECKED: i32 = -2;

/**
 * A model's line auditor is a `@final` class with these three methods, passed as the type
 * argument of `consume` and `finishFraming`, so each model's module compiles the framing with
 * direct (inlinable) calls into its own auditor — never through a table:
 *
 *   line(start: usize, end: usize, shape: i32): void
 *     a non-blank line that is not the header, [start, end) without its line end; `shape` is
 *     LINE_UNCHECKED, or for the final unterminated line the `checkLine` verdict already taken
 *     (then the line is UTF-8 and JSON: otherwise it was the torn tail)
 *   tornTail(line: f64, offset: f64): void
 *     the torn tail: its 1-based line and the byte offset where it starts
 *   limit(limit: i32): void
 *     a Limit reached at the current line; the model stops there
 *
 * and it is the reader of json.ts's `scanLine` too (`fieldDepth`, `clearFields`, `member`,
 * `field`): `checkLine<A>` hands it the fields it reads in the validating pass.
 *
 * The auditor is never instantiated: its methods are called on a null receiver and use no
 * `this` (`auditor<A>()`).
 */
// @ts-expect-error: decorator
@inline
function auditor<A>(): A {
  return changetype<A>(0);
}

let buffer: usize = 0;
let bufferCapacity: usize = 0;
/** Decoded strings (ids, kinds, paths) land here; decoding never lengthens a string. */
export let scratch: usize = 0;
/** The scanner's container stack for lines of the buffer's length (json.ts). */
let lineStack: usize = 0;
let filled: usize = 0;
let lineStart: usize = 0;
let scanFrom: usize = 0;
let lineHasHighBytes = false;
/** The 1-based number of the line being audited (of the first incomplete line between chunks). */
export let lineNumber: f64 = 1;
let lineOffset: f64 = 0;
let headerPending = false;
/**
 * Bytes of the header line (line 1, which the model read before the journal
 * started) dropped before its line feed arrived: a header of megabytes is skipped without
 * growing the line buffer to hold it.
 */
let headerSkipped: usize = 0;

/**
 * Starts the framing of a journal; the model has laid out its own state first. Returns a Limit
 * code.
 */
export function beginFraming(skipHeader: bool): i32 {
  filled = 0;
  lineStart = 0;
  scanFrom = 0;
  lineHasHighBytes = false;
  lineNumber = 1;
  lineOffset = 0;
  headerPending = skipHeader;
  headerSkipped = 0;
  bufferCapacity = 0;
  return growBuffer(INITIAL_BUFFER_BYTES) ? Limit.NONE : Limit.MEMORY;
}

function growBuffer(capacity: usize): bool {
  const grown = reserve(capacity);
  const grownScratch = reserve(capacity);
  const stack = reserve((capacity >> 3) + 1);
  if (grown == 0 || grownScratch == 0 || stack == 0) return false;
  if (filled > 0) memory.copy(grown, buffer, filled);
  if (bufferCapacity > 0) {
    abandon(buffer, bufferCapacity);
    abandon(scratch, bufferCapacity);
    abandon(lineStack, (bufferCapacity >> 3) + 1);
  }
  buffer = grown;
  scratch = grownScratch;
  lineStack = stack;
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
  headerSkipped = 0;
}

export function writePointer(): usize {
  return buffer + filled;
}

export function writeCapacity(): usize {
  return bufferCapacity - filled;
}

/** Audits the complete lines among the `length` bytes just written. Returns a Limit code. */
export function consume<A>(length: usize): i32 {
  filled += length;
  while (true) {
    const lineEnd = findLineEnd();
    if (lineEnd < 0) break;
    const end = <usize>lineEnd;
    const contentEnd = end > lineStart && load<u8>(buffer + end - 1) == CharCode.CR ? end - 1 : end;
    if (headerSkipped > 0) {
      headerPending = false;
    } else {
      processLine<A>(buffer + lineStart, buffer + contentEnd);
    }
    lineNumber += 1;
    lineOffset += <f64>(headerSkipped + end + 1 - lineStart);
    headerSkipped = 0;
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
  if (filled == bufferCapacity && headerPending && !isBlank(buffer, buffer + filled)) {
    // The header, under way: its bytes are not kept (the model has read the line already).
    headerSkipped += filled;
    if (headerSkipped >= LINE_BYTES_MAX) {
      auditor<A>().limit(Limit.LINE_LENGTH);
      return Limit.LINE_LENGTH;
    }
    filled = 0;
    scanFrom = 0;
    lineHasHighBytes = false;
  }
  if (filled == bufferCapacity) {
    if (bufferCapacity >= LINE_BYTES_MAX) {
      auditor<A>().limit(Limit.LINE_LENGTH);
      return Limit.LINE_LENGTH;
    }
    if (!growBuffer(bufferCapacity << 1)) {
      auditor<A>().limit(Limit.MEMORY);
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

/**
 * Checks UTF-8 (only when the line has a byte ≥ 0x80) and scans the JSON of the line being
 * audited: a LineShape, or LINE_NOT_UTF8. The auditor `A` has been handed the fields it reads.
 */
// @ts-expect-error: decorator
@inline
export function checkLine<A>(start: usize, end: usize): i32 {
  if (lineHasHighBytes && !isValidUtf8(start, end)) return LINE_NOT_UTF8;
  return scanLine<A>(start, end);
}

// @ts-expect-error: decorator
@inline
function processLine<A>(start: usize, end: usize): void {
  if (isBlank(start, end)) return;
  if (headerPending) {
    headerPending = false;
    return;
  }
  auditor<A>().line(start, end, LINE_UNCHECKED);
}

/**
 * The final line had no line feed: an event if it is UTF-8 and JSON (audited like any line, even
 * when it is no event object), else a torn tail, which is not counted. The model then closes its
 * report.
 */
export function finishFraming<A>(): void {
  if (headerSkipped > 0) {
    headerPending = false;
  } else if (filled > lineStart) {
    findLineEnd();
    const start = buffer + lineStart;
    const end = buffer + filled;
    if (!isBlank(start, end)) {
      if (headerPending) {
        headerPending = false;
      } else {
        const shape = checkLine<A>(start, end);
        if (shape == LINE_NOT_UTF8 || shape == LineShape.INVALID) {
          auditor<A>().tornTail(lineNumber, lineOffset);
        } else {
          auditor<A>().line(start, end, shape);
        }
      }
    }
  }
}
