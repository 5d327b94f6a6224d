/**
 * A journal that is one JSON document (docs/models/data.md, `records.source` `{"array": PATH}`),
 * streamed through the kernel: the host writes the document in chunks of any size into the
 * document buffer (`documentWritePointer`, `documentWriteCapacity`, `consumeDocument`), and the
 * kernel walks it. Outside the records array a byte-at-a-time walker validates the document
 * exactly as the reference's reader does (src/journal/json-array-source.ts: its states, its words
 * for what was expected, the byte, line and column of a break) and follows the model's paths to
 * the first array one of them leads to. Each element of that array that lies whole in the buffer
 * is read by the record scan where it lies (../json.ts `scanValue`, which finds where it ends in
 * the same validating pass that reads its fields) and audited as a line is (lines.ts); an
 * element the buffer cuts off, or one the scan refuses, is walked byte by byte instead — the
 * walker then names the break, or reaches the element's end, and the element is audited from the
 * buffer, whose front keeps it across chunks. Memory holds the largest element and a chunk, never
 * the document.
 */

import { CharCode, LineShape, decodeString, scanLine, scanValue, scannedValueEnd, useContainerStack } from "../json";
import { Limit } from "../jsonl";
import { abandon, reserve } from "../memory";
import { isValidUtf8 } from "../utf8";
import { allocate, release } from "./alloc";
import { PathStepKind, SourceKind, stringLength, stringPointer, TableHeader, word } from "./layout";
import { auditRecord, beginJournal, DataLines, finishJournal, recordIndex } from "./lines";
import { useKeyScratch } from "./record";
import { limitReached, stopAtLimit, stopped } from "./report";
import { bytesEqual } from "./values";

/** What `consumeDocument` and `finishDocument` answer beside the Limit codes. */
export namespace DocumentEnd {
  /** The document is not JSON: `documentBreak*` say where and why. */
  export const BROKEN: i32 = 3;
  /** The document is JSON, but no path of the source leads to an array in it. */
  export const NO_RECORDS: i32 = 4;
}

/**
 * What the walker expected where the document broke; the host words each one as the reference
 * does (bindings/data/document-session.ts).
 */
export namespace Expected {
  export const VALUE: i32 = 0;
  export const VALUE_OR_CLOSE: i32 = 1;
  export const KEY_OR_CLOSE: i32 = 2;
  export const KEY: i32 = 3;
  export const COLON: i32 = 4;
  export const COMMA_OR_CLOSE_OBJECT: i32 = 5;
  export const COMMA_OR_CLOSE_ARRAY: i32 = 6;
  export const CLOSING_QUOTE: i32 = 7;
  export const ESCAPE: i32 = 8;
  export const CONTINUATION: i32 = 9;
  export const TRUE: i32 = 10;
  export const FALSE: i32 = 11;
  export const NULL: i32 = 12;
  export const DIGIT: i32 = 13;
  export const END: i32 = 14;
  export const CHARACTER: i32 = 15;
  export const UTF8: i32 = 16;
}

/** What was found where the document broke. */
export namespace Found {
  /** A character: `documentBreakFound` is its code point. */
  export const CHARACTER: i32 = 0;
  /** A byte that is no UTF-8 there: `documentBreakFound` is the byte. */
  export const BYTE: i32 = 1;
  export const END: i32 = 2;
}

// The walker's states: what the next byte may be (as the reference's).
const VALUE: i32 = 0;
const ARRAY_FIRST: i32 = 1;
const OBJECT_FIRST: i32 = 2;
const KEY: i32 = 3;
const COLON: i32 = 4;
const AFTER_VALUE: i32 = 5;
const STRING: i32 = 6;
const ESCAPE: i32 = 7;
const UNICODE_ESCAPE: i32 = 8;
const UTF8_CONTINUATION: i32 = 9;
const NUMBER_MINUS: i32 = 10;
const NUMBER_ZERO: i32 = 11;
const NUMBER_INTEGER: i32 = 12;
const NUMBER_POINT: i32 = 13;
const NUMBER_FRACTION: i32 = 14;
const NUMBER_EXPONENT: i32 = 15;
const NUMBER_EXPONENT_SIGN: i32 = 16;
const NUMBER_EXPONENT_DIGITS: i32 = 17;
const LITERAL: i32 = 18;

const OBJECT: u8 = 0;
const ARRAY: u8 = 1;

/** `recordsDepth` before the records array is found, and after it closed. */
const LOOKING: i32 = -1;
const FOUND: i32 = -2;

const INITIAL_BUFFER_BYTES: usize = 1 << 20;
const INITIAL_LEVELS: usize = 256;

// The buffer: [0, filled) holds the document from byte `base` on; the walker is at `position`.
let buffer: usize = 0;
let capacity: usize = 0;
let filled: usize = 0;
let position: usize = 0;
let base: f64 = 0;
/** The record scan's key scratch and container stack, sized by the buffer (as jsonl.ts's). */
let scratch: usize = 0;
let scanStack: usize = 0;

// The walker.
let state: i32 = VALUE;
/** The open containers, a byte each (OBJECT or ARRAY), outermost first. */
let levels: usize = 0;
let levelsCapacity: usize = 0;
let depth: usize = 0;
let recordsDepth: i32 = LOOKING;
let line: f64 = 1;
/** Where the current line starts, and how many UTF-8 continuation bytes it has had so far. */
let lineStart: f64 = 0;
let continuations: f64 = 0;
let inKey = false;
/** Whether the key being read is kept for the paths (its first byte at `keyStart`). */
let capturingKey = false;
let keyStart: usize = 0;
/** Whether an element is being walked (its first byte at `elementStart`, on `elementLine`). */
let inElement = false;
let elementStart: usize = 0;
let elementLine: f64 = 0;
let hexDigitsLeft: i32 = 0;
let continuationsLeft: i32 = 0;
let continuationLow: u32 = 0x80;
let continuationHigh: u32 = 0xbf;
let codePoint: u32 = 0;
/** The column of the UTF-8 sequence being read: where a break inside it is reported. */
let sequenceColumn: f64 = 0;
/** A non-ASCII character where a token was expected, read whole to be named. */
let strayPending = false;
let strayOffset: f64 = 0;
let strayLine: f64 = 0;
let strayColumn: f64 = 0;
let strayExpected: i32 = 0;
/** The literal being read (Expected.TRUE, FALSE or NULL) and how many of its bytes were. */
let literal: i32 = 0;
let literalIndex: i32 = 0;

// The paths (the table's source, layout.ts): which lead to the value at hand. A value at depth
// d has walked d steps of every path that leads to it, so a set of paths is a byte per path.
let pathCount: usize = 0;
let pathsAt: i32 = 0;
let stepsMax: usize = 0;
/** The paths that lead to the value about to start (after a key, or the document itself). */
let ahead: usize = 0;
let aheadAny = false;
/**
 * Per object level 1..stepsMax: whether paths lead into it (a byte), the paths that do (a byte
 * each), and per path the key its suffix step chose (u32 pointer and length, 0 while none did).
 */
let levelLooking: usize = 0;
let levelPaths: usize = 0;
let suffixKeys: usize = 0;

// Where the document broke.
let broken = false;
let breakExpected: i32 = 0;
let breakFoundKind: i32 = 0;
let breakFound: u32 = 0;
let breakOffset: f64 = 0;
let breakLine: f64 = 0;
let breakColumn: f64 = 0;

/** Starts a journal that is one JSON document, with the loaded model. Returns a Limit code. */
export function beginDocument(): i32 {
  if (!beginJournal()) return Limit.MEMORY;
  capacity = 0;
  filled = 0;
  position = 0;
  base = 0;
  state = VALUE;
  depth = 0;
  recordsDepth = LOOKING;
  line = 1;
  lineStart = 0;
  continuations = 0;
  inKey = false;
  capturingKey = false;
  inElement = false;
  strayPending = false;
  broken = false;
  levelsCapacity = INITIAL_LEVELS;
  levels = reserve(levelsCapacity);
  if (levels == 0 || !growBuffer(INITIAL_BUFFER_BYTES) || !layOutPaths()) return Limit.MEMORY;
  return Limit.NONE;
}

/** The paths' sets, from the table's source: every path leads to the document itself. */
function layOutPaths(): bool {
  const source = word(TableHeader.SOURCE_AT);
  pathCount = word(source) == SourceKind.ARRAYS ? <usize>word(source + 1) : 0;
  pathsAt = source + 2;
  stepsMax = 0;
  for (let path: usize = 0; path < pathCount; path++) {
    const steps = <usize>word(word(pathsAt + <i32>path));
    if (steps > stepsMax) stepsMax = steps;
  }
  ahead = reserve(pathCount);
  levelLooking = reserve(stepsMax + 1);
  levelPaths = reserve((stepsMax + 1) * pathCount);
  suffixKeys = reserve((stepsMax + 1) * pathCount * 8);
  if (ahead == 0 || levelLooking == 0 || levelPaths == 0 || suffixKeys == 0) return false;
  memory.fill(ahead, 1, pathCount);
  aheadAny = pathCount > 0;
  memory.fill(levelLooking, 0, stepsMax + 1);
  memory.fill(suffixKeys, 0, (stepsMax + 1) * pathCount * 8);
  return true;
}

function growBuffer(bytes: usize): bool {
  const grown = reserve(bytes);
  const grownScratch = reserve(bytes);
  const stack = reserve((bytes >> 3) + 1);
  if (grown == 0 || grownScratch == 0 || stack == 0) return false;
  if (filled > 0) memory.copy(grown, buffer, filled);
  if (capacity > 0) {
    abandon(buffer, capacity);
    abandon(scratch, capacity);
    abandon(scanStack, (capacity >> 3) + 1);
  }
  buffer = grown;
  scratch = grownScratch;
  scanStack = stack;
  capacity = bytes;
  return true;
}

export function documentWritePointer(): usize {
  return buffer + filled;
}

export function documentWriteCapacity(): usize {
  return capacity - filled;
}

/**
 * Walks the `length` bytes the host just wrote, auditing the elements they complete. Returns a
 * Limit code, or a DocumentEnd code when the document broke.
 */
export function consumeDocument(length: usize): i32 {
  filled += length;
  useContainerStack(scanStack);
  useKeyScratch(scratch);
  let at = position;
  while (at < filled) {
    at = step(at);
    if (broken) return DocumentEnd.BROKEN;
    if (limitReached() != Limit.NONE) return limitReached();
  }
  position = at;
  return keepUnfinished();
}

/**
 * Moves what is still needed — the element or key under way, none else — to the buffer's front,
 * and doubles the buffer when that fills it. Returns a Limit code.
 */
function keepUnfinished(): i32 {
  let keep = filled;
  if (inElement) keep = elementStart;
  if (capturingKey && keyStart < keep) keep = keyStart;
  if (keep > 0) {
    memory.copy(buffer, buffer + keep, filled - keep);
    filled -= keep;
    position -= keep;
    base += <f64>keep;
    if (inElement) elementStart -= keep;
    if (capturingKey) keyStart -= keep;
  }
  if (filled == capacity && !growBuffer(capacity << 1)) {
    stopAtLimit(Limit.MEMORY, inElement ? elementLine : line);
    return Limit.MEMORY;
  }
  return Limit.NONE;
}

/**
 * Ends the document: it must end where JSON may, and hold the records array; then the instances
 * open at its end. Returns a Limit code, or a DocumentEnd code.
 */
export function finishDocument(): i32 {
  if (state >= NUMBER_MINUS && state <= NUMBER_EXPONENT_DIGITS && numberMayEnd()) state = AFTER_VALUE;
  if (state != AFTER_VALUE || depth != 0) {
    fail(filled, expected(), Found.END, 0);
    return DocumentEnd.BROKEN;
  }
  if (recordsDepth == LOOKING) return DocumentEnd.NO_RECORDS;
  return finishJournal();
}

export function documentBreakExpected(): i32 {
  return breakExpected;
}

export function documentBreakFoundKind(): i32 {
  return breakFoundKind;
}

export function documentBreakFound(): u32 {
  return breakFound;
}

export function documentBreakOffset(): f64 {
  return breakOffset;
}

export function documentBreakLine(): f64 {
  return breakLine;
}

export function documentBreakColumn(): f64 {
  return breakColumn;
}

/** Reads from `at` on; returns where to go on. */
function step(at: usize): usize {
  switch (state) {
    case STRING:
      return scanString(at);
    case ESCAPE:
      return escape(byteAt(at), at);
    case UNICODE_ESCAPE:
      return hexDigit(byteAt(at), at);
    case UTF8_CONTINUATION:
      return continuation(byteAt(at), at);
    case LITERAL:
      return literalByte(byteAt(at), at);
    default:
      if (state >= NUMBER_MINUS) return numberByte(byteAt(at), at);
      return structural(at);
  }
}

// @ts-expect-error: decorator
@inline
function byteAt(at: usize): u32 {
  return <u32>load<u8>(buffer + at);
}

/** A byte between tokens. */
function structural(from: usize): usize {
  const at = skipWhitespace(from);
  if (at == filled) return at;
  const byte = byteAt(at);
  if (byte >= 0x80) return beginStray(byte, at);
  switch (state) {
    case VALUE:
      return beginValue(byte, at);
    case ARRAY_FIRST:
      return byte == CharCode.CLOSE_BRACKET ? close(at) : beginValue(byte, at);
    case OBJECT_FIRST:
      if (byte == CharCode.CLOSE_BRACE) return close(at);
      return beginKey(byte, at, Expected.KEY_OR_CLOSE);
    case KEY:
      return beginKey(byte, at, Expected.KEY);
    case COLON:
      if (byte != CharCode.COLON) return fail(at, Expected.COLON, Found.CHARACTER, byte);
      state = VALUE;
      return at + 1;
    default:
      return afterValue(byte, at);
  }
}

/** Where the run of white space from `from` ends, counting its lines. */
function skipWhitespace(from: usize): usize {
  let at = from;
  for (; at < filled; at++) {
    const byte = byteAt(at);
    if (byte == CharCode.LF) {
      line += 1;
      lineStart = base + <f64>(at + 1);
      continuations = 0;
    } else if (byte != CharCode.SPACE && byte != CharCode.TAB && byte != CharCode.CR) {
      break;
    }
  }
  return at;
}

function afterValue(byte: u32, at: usize): usize {
  if (depth == 0) return fail(at, Expected.END, Found.CHARACTER, byte);
  const inObject = load<u8>(levels + depth - 1) == OBJECT;
  if (byte == (inObject ? CharCode.CLOSE_BRACE : CharCode.CLOSE_BRACKET)) return close(at);
  if (byte != CharCode.COMMA) {
    return fail(at, inObject ? Expected.COMMA_OR_CLOSE_OBJECT : Expected.COMMA_OR_CLOSE_ARRAY, Found.CHARACTER, byte);
  }
  state = inObject ? KEY : VALUE;
  return at + 1;
}

function beginValue(byte: u32, at: usize): usize {
  if (<i32>depth == recordsDepth) {
    const after = scanElement(at);
    if (after != 0) return after;
    inElement = true;
    elementStart = at;
    elementLine = line;
  }
  const led = aheadAny;
  aheadAny = false;
  if (byte == CharCode.OPEN_BRACE) return open(OBJECT, led, at);
  if (byte == CharCode.OPEN_BRACKET) {
    const records = led && anyPathEndsAt(depth);
    const after = open(ARRAY, false, at);
    if (records && recordsDepth == LOOKING) recordsDepth = <i32>depth;
    return after;
  }
  if (byte == CharCode.QUOTE) {
    inKey = false;
    state = STRING;
    return at + 1;
  }
  if (byte == CharCode.MINUS) state = NUMBER_MINUS;
  else if (byte == CharCode.ZERO) state = NUMBER_ZERO;
  else if (byte > CharCode.ZERO && byte <= CharCode.NINE) state = NUMBER_INTEGER;
  else return beginLiteral(byte, at);
  return at + 1;
}

/**
 * An element of the records array that starts at `at`, read by the record scan where it lies:
 * where it ends, or 0 when the buffer cuts it off or the scan refuses it (the walker then reads
 * it, and names any break). Its lines and UTF-8 are read in one vector pass after the scan.
 */
function scanElement(at: usize): usize {
  const start = buffer + at;
  const shape = scanValue<DataLines>(start, buffer + filled);
  if (shape == LineShape.INVALID) return 0;
  const end = scannedValueEnd;
  // A number that reaches the buffer's end may go on in the next chunk.
  if (end >= buffer + filled) return 0;
  const startLine = line;
  if (!passElement(start, end)) return 0;
  auditElement(shape, start, end, startLine);
  state = AFTER_VALUE;
  return end - buffer;
}

/**
 * Counts the lines and UTF-8 continuation bytes of the element [start, end) into the walker's
 * place; false (and nothing counted) when the element is not UTF-8.
 */
function passElement(start: usize, end: usize): bool {
  let feeds: i32 = 0;
  let lastFeed: usize = 0;
  let high = false;
  let at = start;
  if (ASC_FEATURE_SIMD) {
    const lineFeeds = i8x16.splat(<i8>CharCode.LF);
    while (at + 16 <= end) {
      const block = v128.load(at);
      const feedMask = i8x16.bitmask(i8x16.eq(block, lineFeeds));
      if (feedMask != 0) {
        feeds += popcnt<i32>(feedMask);
        lastFeed = at + 31 - <usize>clz<i32>(feedMask);
      }
      if (i8x16.bitmask(block) != 0) high = true;
      at += 16;
    }
  }
  for (; at < end; at++) {
    const byte = <u32>load<u8>(at);
    if (byte == CharCode.LF) {
      feeds++;
      lastFeed = at;
    } else if (byte >= 0x80) {
      high = true;
    }
  }
  if (high && !isValidUtf8(start, end)) return false;
  if (feeds > 0) {
    line += <f64>feeds;
    lineStart = base + <f64>(lastFeed + 1 - buffer);
    continuations = high ? continuationsIn(lastFeed + 1, end) : 0;
  } else if (high) {
    continuations += continuationsIn(start, end);
  }
  return true;
}

function continuationsIn(start: usize, end: usize): f64 {
  let count: i32 = 0;
  for (let at = start; at < end; at++) if ((<u32>load<u8>(at) & 0xc0) == 0x80) count++;
  return <f64>count;
}

/** Audits the element [start, end) as a record (lines.ts): counted, then read and folded. */
function auditElement(shape: i32, start: usize, end: usize, startLine: f64): void {
  const index = recordIndex();
  if (stopped) return;
  auditRecord(index, startLine, shape, start, end);
}

function beginLiteral(byte: u32, at: usize): usize {
  if (byte == 0x74) literal = Expected.TRUE;
  else if (byte == 0x66) literal = Expected.FALSE;
  else if (byte == 0x6e) literal = Expected.NULL;
  else return fail(at, Expected.VALUE, Found.CHARACTER, byte);
  literalIndex = 1;
  state = LITERAL;
  return at + 1;
}

/** The literal's bytes, little-endian. */
function literalWord(): u64 {
  return literal == Expected.TRUE ? 0x65757274 : literal == Expected.FALSE ? 0x65736c6166 : 0x6c6c756e;
}

function literalByte(byte: u32, at: usize): usize {
  if (byte >= 0x80) return beginStray(byte, at);
  const word = literalWord();
  if (byte != <u32>((word >> (<u64>literalIndex << 3)) & 0xff)) return fail(at, literal, Found.CHARACTER, byte);
  literalIndex++;
  if (literalIndex == (literal == Expected.FALSE ? 5 : 4)) valueEnded(at + 1);
  return at + 1;
}

function open(container: u8, led: bool, at: usize): usize {
  if (depth == levelsCapacity && !growLevels()) {
    stopAtLimit(Limit.MEMORY, line);
    return filled;
  }
  store<u8>(levels + depth, container);
  depth++;
  if (depth <= stepsMax) {
    const looking = container == OBJECT && led && recordsDepth == LOOKING && leadInto(depth);
    store<u8>(levelLooking + depth, looking ? 1 : 0);
  }
  state = container == OBJECT ? OBJECT_FIRST : ARRAY_FIRST;
  return at + 1;
}

function growLevels(): bool {
  const grown = reserve(levelsCapacity << 1);
  if (grown == 0) return false;
  memory.copy(grown, levels, levelsCapacity);
  abandon(levels, levelsCapacity);
  levels = grown;
  levelsCapacity <<= 1;
  return true;
}

function close(at: usize): usize {
  if (depth <= stepsMax && load<u8>(levelLooking + depth) != 0) forgetSuffixKeys(depth);
  depth--;
  if (<i32>depth + 1 == recordsDepth) recordsDepth = FOUND;
  valueEnded(at + 1);
  return at + 1;
}

/** A value ended just before `end`. */
function valueEnded(end: usize): void {
  state = AFTER_VALUE;
  if (<i32>depth != recordsDepth) return;
  // An element the walker read: whole in the buffer now, and known to be UTF-8 and JSON.
  const start = buffer + elementStart;
  inElement = false;
  auditElement(scanLine<DataLines>(start, buffer + end), start, buffer + end, elementLine);
}

function beginKey(byte: u32, at: usize, expectedThere: i32): usize {
  if (byte != CharCode.QUOTE) return fail(at, expectedThere, Found.CHARACTER, byte);
  inKey = true;
  capturingKey = recordsDepth == LOOKING && depth <= stepsMax && load<u8>(levelLooking + depth) != 0;
  if (capturingKey) keyStart = at;
  state = STRING;
  return at + 1;
}

/** Inside a string: the plain run of it in one loop, the rest a byte at a time. */
function scanString(from: usize): usize {
  for (let at = from; at < filled; at++) {
    const byte = byteAt(at);
    if (byte == CharCode.QUOTE) return endString(at);
    if (byte == CharCode.BACKSLASH) {
      state = ESCAPE;
      return at + 1;
    }
    if (byte < CharCode.SPACE) return fail(at, Expected.CHARACTER, Found.CHARACTER, byte);
    if (byte >= 0x80) return beginUtf8(byte, at);
  }
  return filled;
}

function endString(at: usize): usize {
  if (!inKey) {
    valueEnded(at + 1);
    return at + 1;
  }
  if (capturingKey) {
    capturingKey = false;
    if (!keyEnded(keyStart + 1, at)) {
      stopAtLimit(Limit.MEMORY, line);
      return filled;
    }
  }
  state = COLON;
  return at + 1;
}

// ---- The paths (json-array-source.ts, `keyEnded`) ----

/** Whether a path among those ahead has as many steps as `steps` (it leads to this value). */
function anyPathEndsAt(steps: usize): bool {
  for (let path: usize = 0; path < pathCount; path++) {
    if (load<u8>(ahead + path) != 0 && stepsOf(path) == steps) return true;
  }
  return false;
}

/** Keeps, for the object opened at `level`, the paths ahead that lead on into it; whether any. */
function leadInto(level: usize): bool {
  const set = levelPaths + level * pathCount;
  let any = false;
  for (let path: usize = 0; path < pathCount; path++) {
    const on = load<u8>(ahead + path) != 0 && stepsOf(path) >= level;
    store<u8>(set + path, on ? 1 : 0);
    if (on) any = true;
  }
  return any;
}

// @ts-expect-error: decorator
@inline
function pathAt(path: usize): i32 {
  return word(pathsAt + <i32>path);
}

// @ts-expect-error: decorator
@inline
function stepsOf(path: usize): usize {
  return <usize>word(pathAt(path));
}

// @ts-expect-error: decorator
@inline
function suffixKeyCell(level: usize, path: usize): usize {
  return suffixKeys + (level * pathCount + path) * 8;
}

function forgetSuffixKeys(level: usize): void {
  for (let path: usize = 0; path < pathCount; path++) {
    const cell = suffixKeyCell(level, path);
    const length = <usize>load<u32>(cell, 4);
    if (load<u32>(cell) != 0) release(<usize>load<u32>(cell), length == 0 ? 1 : length);
    store<u64>(cell, 0);
  }
}

/**
 * The paths that lead on through the key whose content is [start, end) of the buffer, to the
 * value after it: a member step's name equal to the key, a suffix step's first key ending with
 * its suffix (and every later occurrence of that key). False when memory is exhausted.
 */
function keyEnded(start: usize, end: usize): bool {
  const keyLength = decodeString(buffer + start, buffer + end, scratch);
  const set = levelPaths + depth * pathCount;
  aheadAny = false;
  for (let path: usize = 0; path < pathCount; path++) {
    let leads = false;
    if (load<u8>(set + path) != 0) {
      const stepAt = pathAt(path) + 1 + <i32>(depth - 1) * 3;
      const name = stringPointer(stepAt + 1);
      const nameLength = stringLength(stepAt + 1);
      if (word(stepAt) == PathStepKind.MEMBER) {
        leads = keyLength == nameLength && bytesEqual(scratch, name, nameLength);
      } else {
        const cell = suffixKeyCell(depth, path);
        const unchosen = load<u32>(cell) == 0;
        if (unchosen && keyLength >= nameLength && bytesEqual(scratch + keyLength - nameLength, name, nameLength)) {
          const kept = allocate(keyLength == 0 ? 1 : keyLength);
          if (kept == 0) return false;
          memory.copy(kept, scratch, keyLength);
          store<u32>(cell, <u32>kept);
          store<u32>(cell, <u32>keyLength, 4);
        }
        const chosen = <usize>load<u32>(cell);
        leads = chosen != 0 && keyLength == <usize>load<u32>(cell, 4) && bytesEqual(scratch, chosen, keyLength);
      }
    }
    store<u8>(ahead + path, leads ? 1 : 0);
    if (leads) aheadAny = true;
  }
  return true;
}

// ---- Escapes, UTF-8, numbers (json-array-source.ts, byte for byte) ----

function escape(byte: u32, at: usize): usize {
  if (byte >= 0x80) return beginStray(byte, at);
  if (byte == 0x75) {
    hexDigitsLeft = 4;
    state = UNICODE_ESCAPE;
  } else if (
    byte == CharCode.QUOTE || byte == CharCode.BACKSLASH || byte == CharCode.SLASH ||
    byte == 0x62 || byte == 0x66 || byte == 0x6e || byte == 0x72 || byte == 0x74
  ) {
    state = STRING;
  } else {
    return fail(at, Expected.ESCAPE, Found.CHARACTER, byte);
  }
  return at + 1;
}

function hexDigit(byte: u32, at: usize): usize {
  if (byte >= 0x80) return beginStray(byte, at);
  const lower = byte | 0x20;
  const hex = (byte >= CharCode.ZERO && byte <= CharCode.NINE) || (lower >= 0x61 && lower <= 0x66);
  if (!hex) return fail(at, Expected.ESCAPE, Found.CHARACTER, byte);
  hexDigitsLeft--;
  if (hexDigitsLeft == 0) state = STRING;
  return at + 1;
}

/**
 * A lead byte of a multi-byte UTF-8 sequence: what the continuation bytes must be (RFC 3629 §4:
 * no overlong form, no surrogate, nothing past U+10FFFF).
 */
function beginUtf8(byte: u32, at: usize): usize {
  continuationLow = 0x80;
  continuationHigh = 0xbf;
  if (byte >= 0xc2 && byte <= 0xdf) continuationsLeft = 1;
  else if (byte >= 0xe0 && byte <= 0xef) continuationsLeft = 2;
  else if (byte >= 0xf0 && byte <= 0xf4) continuationsLeft = 3;
  else return fail(at, Expected.UTF8, Found.BYTE, byte);
  if (byte == 0xe0) continuationLow = 0xa0;
  else if (byte == 0xed) continuationHigh = 0x9f;
  else if (byte == 0xf0) continuationLow = 0x90;
  else if (byte == 0xf4) continuationHigh = 0x8f;
  codePoint = byte & (0x3f >> <u32>continuationsLeft);
  sequenceColumn = columnAt(base + <f64>at);
  state = UTF8_CONTINUATION;
  return at + 1;
}

function continuation(byte: u32, at: usize): usize {
  if (byte < continuationLow || byte > continuationHigh) return fail(at, Expected.CONTINUATION, Found.BYTE, byte);
  continuations += 1;
  codePoint = (codePoint << 6) | (byte & 0x3f);
  continuationLow = 0x80;
  continuationHigh = 0xbf;
  continuationsLeft--;
  if (continuationsLeft > 0) return at + 1;
  if (strayPending) return strayEnded();
  state = STRING;
  return at + 1;
}

/** A non-ASCII byte where a token was expected: its character is read whole, to be named. */
function beginStray(byte: u32, at: usize): usize {
  const offset = base + <f64>at;
  strayPending = true;
  strayOffset = offset;
  strayLine = line;
  strayColumn = columnAt(offset);
  strayExpected = expected();
  return beginUtf8(byte, at);
}

function strayEnded(): usize {
  broken = true;
  breakExpected = strayExpected;
  breakFoundKind = Found.CHARACTER;
  breakFound = codePoint;
  breakOffset = strayOffset;
  breakLine = strayLine;
  breakColumn = strayColumn;
  return filled;
}

function numberByte(byte: u32, at: usize): usize {
  if (byte >= 0x80 && !numberMayEnd()) return beginStray(byte, at);
  const digit = byte >= CharCode.ZERO && byte <= CharCode.NINE;
  switch (state) {
    case NUMBER_MINUS:
      if (!digit) return fail(at, Expected.DIGIT, Found.CHARACTER, byte);
      state = byte == CharCode.ZERO ? NUMBER_ZERO : NUMBER_INTEGER;
      return at + 1;
    case NUMBER_POINT:
    case NUMBER_EXPONENT_SIGN:
      if (!digit) return fail(at, Expected.DIGIT, Found.CHARACTER, byte);
      state = state == NUMBER_POINT ? NUMBER_FRACTION : NUMBER_EXPONENT_DIGITS;
      return at + 1;
    case NUMBER_EXPONENT:
      if (byte == CharCode.PLUS || byte == CharCode.MINUS) state = NUMBER_EXPONENT_SIGN;
      else if (digit) state = NUMBER_EXPONENT_DIGITS;
      else return fail(at, Expected.DIGIT, Found.CHARACTER, byte);
      return at + 1;
    default:
      return numberGoesOn(byte, digit, at);
  }
}

/** In a number that could end here: the byte continues it, or ends it and is read anew. */
function numberGoesOn(byte: u32, digit: bool, at: usize): usize {
  if (digit && state != NUMBER_ZERO) return at + 1;
  if (byte == CharCode.DOT && (state == NUMBER_ZERO || state == NUMBER_INTEGER)) {
    state = NUMBER_POINT;
    return at + 1;
  }
  if ((byte | 0x20) == CharCode.LOWER_E && state != NUMBER_EXPONENT_DIGITS) {
    state = NUMBER_EXPONENT;
    return at + 1;
  }
  valueEnded(at);
  return at;
}

function numberMayEnd(): bool {
  return state == NUMBER_ZERO || state == NUMBER_INTEGER || state == NUMBER_FRACTION || state == NUMBER_EXPONENT_DIGITS;
}

/** What the walker expects in its state (json-array-source.ts, `expected`). */
function expected(): i32 {
  switch (state) {
    case VALUE:
      return Expected.VALUE;
    case ARRAY_FIRST:
      return Expected.VALUE_OR_CLOSE;
    case OBJECT_FIRST:
      return Expected.KEY_OR_CLOSE;
    case KEY:
      return Expected.KEY;
    case COLON:
      return Expected.COLON;
    case AFTER_VALUE:
      return depth > 0 && load<u8>(levels + depth - 1) == OBJECT
        ? Expected.COMMA_OR_CLOSE_OBJECT
        : Expected.COMMA_OR_CLOSE_ARRAY;
    case STRING:
      return Expected.CLOSING_QUOTE;
    case ESCAPE:
    case UNICODE_ESCAPE:
      return Expected.ESCAPE;
    case UTF8_CONTINUATION:
      return Expected.CONTINUATION;
    case LITERAL:
      return literal;
    default:
      return Expected.DIGIT;
  }
}

/** The document breaks at `at` of the buffer (its end, at the document's end). */
function fail(at: usize, expectedThere: i32, foundKind: i32, found: u32): usize {
  const offset = base + <f64>at;
  broken = true;
  breakExpected = expectedThere;
  breakFoundKind = foundKind;
  breakFound = found;
  breakOffset = offset;
  breakLine = line;
  // A break inside a UTF-8 sequence is in the character it began.
  breakColumn = state == UTF8_CONTINUATION ? sequenceColumn : columnAt(offset);
  return filled;
}

/** The 1-based column, in code points, of a byte offset on the current line. */
function columnAt(offset: f64): f64 {
  return offset - lineStart - continuations + 1;
}
