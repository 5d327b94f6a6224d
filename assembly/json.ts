/**
 * One journal line as JSON: validated exactly as JSON.parse would accept it (ECMA-404 grammar;
 * UTF-8 is checked separately), and in the same pass the fields the model reads are handed to
 * it where they lie (`scanLine`'s reader). A later duplicate key is handed over again, so it
 * replaces an earlier one, as in JSON.parse; every other member, at any depth, is validated and
 * skipped.
 *
 * The scanner is a loop over a container stack — one bit per level, so a deeply nested line
 * costs no call stack — and never looks outside [start, end) except through vector loads that
 * the buffer's overread padding keeps in bounds and that are confirmed against `end`.
 */

export namespace CharCode {
  export const TAB: u32 = 0x09;
  export const LF: u32 = 0x0a;
  export const CR: u32 = 0x0d;
  export const SPACE: u32 = 0x20;
  export const QUOTE: u32 = 0x22;
  export const PLUS: u32 = 0x2b;
  export const COMMA: u32 = 0x2c;
  export const MINUS: u32 = 0x2d;
  export const DOT: u32 = 0x2e;
  export const SLASH: u32 = 0x2f;
  export const ZERO: u32 = 0x30;
  export const NINE: u32 = 0x39;
  export const COLON: u32 = 0x3a;
  export const OPEN_BRACKET: u32 = 0x5b;
  export const BACKSLASH: u32 = 0x5c;
  export const CLOSE_BRACKET: u32 = 0x5d;
  export const LOWER_E: u32 = 0x65;
  export const OPEN_BRACE: u32 = 0x7b;
  export const CLOSE_BRACE: u32 = 0x7d;
}

export namespace LineShape {
  export const OBJECT: i32 = 0;
  export const NOT_AN_OBJECT: i32 = 1;
  export const INVALID: i32 = 2;
}

/** One bit per nesting level: 1 object, 0 array. Sized by the line buffer (depth ≤ line length). */
let containerStack: usize = 0;

export function useContainerStack(bits: usize): void {
  containerStack = bits;
}

/** Set by `scanString`: whether the string just scanned holds an escape. */
export let scannedEscape = false;

// @ts-expect-error: decorator
@inline
function isWhitespace(c: u32): bool {
  // Most bytes tested are punctuation or value bytes, above the space: one compare settles them.
  return c <= CharCode.SPACE && (c == CharCode.SPACE || c == CharCode.TAB || c == CharCode.CR || c == CharCode.LF);
}

// @ts-expect-error: decorator
@inline
export function skipWhitespace(at: usize, end: usize): usize {
  while (at < end && isWhitespace(<u32>load<u8>(at))) at++;
  return at;
}

// @ts-expect-error: decorator
@inline
function isDigit(c: u32): bool {
  return c - CharCode.ZERO <= 9;
}

// @ts-expect-error: decorator
@inline
function hexValue(c: u32): i32 {
  if (c - CharCode.ZERO <= 9) return <i32>(c - CharCode.ZERO);
  const lower = c | 0x20;
  if (lower - 0x61 <= 5) return <i32>(lower - 0x61 + 10);
  return -1;
}

/** The four hex digits at `at` as a code unit, or -1. */
function hex4(at: usize): i32 {
  const a = hexValue(load<u8>(at));
  const b = hexValue(load<u8>(at + 1));
  const c = hexValue(load<u8>(at + 2));
  const d = hexValue(load<u8>(at + 3));
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/**
 * Scans the string whose opening quote is at `at`; returns one past its closing quote, or 0 when
 * it is not a valid JSON string before `end` (unterminated, a raw control character, a bad escape).
 * Inlined: a string of at most 16 plain bytes (most keys and ids) ends at its first vector's
 * first stop, one load and one compare chain instead of a call.
 */
// @ts-expect-error: decorator
@inline
export function scanString(at: usize, end: usize): usize {
  scannedEscape = false;
  let from = at + 1;
  if (ASC_FEATURE_SIMD) {
    // Bit 16 stands for the byte after the block: when the block holds no stop, that byte is
    // the candidate, and the 16 before it are known to be plain.
    from += <usize>ctz<i32>(stringStopMask(v128.load(from)) | 0x10000);
    if (from < end && load<u8>(from) == CharCode.QUOTE) return from + 1;
  }
  return scanStringFrom(from, end);
}

/** The rest of `scanString`: the string's bytes before `at` are plain. */
function scanStringFrom(at: usize, end: usize): usize {
  while (true) {
    if (ASC_FEATURE_SIMD) {
      // 16 bytes at a time until one stops the scan. Bytes past `end` may match; the position is
      // confirmed against `end` below.
      while (at < end) {
        const mask = stringStopMask(v128.load(at));
        if (mask != 0) {
          at += <usize>ctz<i32>(mask);
          break;
        }
        at += 16;
      }
    }
    if (at >= end) return 0;
    const c = <u32>load<u8>(at);
    if (c == CharCode.QUOTE) return at + 1;
    if (c < CharCode.SPACE) return 0;
    if (c != CharCode.BACKSLASH) {
      at += 1;
      continue;
    }
    scannedEscape = true;
    if (at + 1 >= end) return 0;
    const escaped = <u32>load<u8>(at + 1);
    if (escaped == 0x75) {
      if (at + 6 > end || hex4(at + 2) < 0) return 0;
      at += 6;
    } else if (
      escaped == CharCode.QUOTE || escaped == CharCode.BACKSLASH || escaped == CharCode.SLASH ||
      escaped == 0x62 || escaped == 0x66 || escaped == 0x6e || escaped == 0x72 || escaped == 0x74
    ) {
      at += 2;
    } else {
      return 0;
    }
  }
  return 0;
}

/**
 * The bytes of a 16-byte block that stop a string scan: quotes, backslashes, control characters.
 * The compare is signed (x64 has no unsigned byte compare), so bytes ≥ 0x80 stop it too; the
 * scalar step of `scanString` passes them over, which costs only strings with non-ASCII bytes.
 */
// @ts-expect-error: decorator
@inline
function stringStopMask(block: v128): i32 {
  const hits = v128.or(
    v128.or(i8x16.eq(block, i8x16.splat(<i8>CharCode.QUOTE)), i8x16.eq(block, i8x16.splat(<i8>CharCode.BACKSLASH))),
    i8x16.lt_s(block, i8x16.splat(<i8>CharCode.SPACE)),
  );
  return i8x16.bitmask(hits);
}

/** Scans a number starting at `at`; returns one past it, or 0 when it is not a JSON number. */
function scanNumber(at: usize, end: usize): usize {
  if (load<u8>(at) == CharCode.MINUS) at++;
  if (at >= end) return 0;
  const first = <u32>load<u8>(at);
  if (first == CharCode.ZERO) {
    at++;
  } else if (isDigit(first)) {
    at = skipDigits(at, end);
  } else {
    return 0;
  }
  if (at < end && load<u8>(at) == CharCode.DOT) {
    at++;
    if (at >= end || !isDigit(load<u8>(at))) return 0;
    at = skipDigits(at, end);
  }
  if (at < end && (load<u8>(at) | 0x20) == CharCode.LOWER_E) {
    at++;
    if (at < end && (load<u8>(at) == CharCode.PLUS || load<u8>(at) == CharCode.MINUS)) at++;
    if (at >= end || !isDigit(load<u8>(at))) return 0;
    at = skipDigits(at, end);
  }
  return at;
}

/**
 * One past the run of digits at `at`, eight bytes at a time: a byte is a digit when its high
 * nibble is 3 and adding 6 leaves it so (low nibble ≤ 9). A carry out of a non-digit byte can
 * only disturb the bytes after it, which are past the run. Bytes read past `end` (the overread
 * padding) are cut off by the final clamp.
 */
// @ts-expect-error: decorator
@inline
function skipDigits(at: usize, end: usize): usize {
  const HIGH_NIBBLES: u64 = 0xf0f0f0f0f0f0f0f0;
  const THREES: u64 = 0x3030303030303030;
  while (at < end) {
    const word = load<u64>(at);
    const notDigits = ((word & HIGH_NIBBLES) ^ THREES) | (((word + 0x0606060606060606) & HIGH_NIBBLES) ^ THREES);
    if (notDigits != 0) {
      at += <usize>(ctz<u64>(notDigits) >> 3);
      break;
    }
    at += 8;
  }
  return at < end ? at : end;
}

/** Scans `true`, `false` or `null` at `at`; returns one past it, or 0. */
function scanLiteral(at: usize, end: usize): usize {
  const c = <u32>load<u8>(at);
  if (c == 0x66) {
    // "false": the four bytes after the f
    return at + 5 <= end && load<u32>(at + 1) == 0x65736c61 ? at + 5 : 0;
  }
  const word = c == 0x74 ? 0x65757274 : 0x6c6c756e; // "true", "null" little-endian
  return at + 4 <= end && load<u32>(at) == word ? at + 4 : 0;
}

/** `,"` as a little-endian u16. */
const COMMA_QUOTE: u16 = 0x222c;

/** What a reader's `member` answers for a key whose value it does not read. */
export const NO_FIELD: i32 = -1;

/**
 * A model reads the fields it needs while its line is validated, in the same pass. Its reader is
 * a `@final` class passed as `scanLine`'s type argument (the model's line auditor, see
 * jsonl.ts), never instantiated, with these methods:
 *
 *   fieldDepth(): usize
 *     the deepest nesting level whose members it reads: 1 for the top-level object's own
 *     members, 2 for theirs too, and so on (a constant, so the levels it skips cost nothing)
 *   clearFields(): void
 *     a new line: no field found yet
 *   member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32
 *     the field a member's key names, or NO_FIELD; `depth` is the member's level, `parent` the
 *     field of the member whose value holds it (NO_FIELD at level 1 and under unread members);
 *     [keyStart, keyEnd) is the key's content, `escaped` when it holds a backslash escape
 *   field(field: i32, start: usize, end: usize, escaped: bool): void
 *     the value [start, end) of a member `member` named, once it is scanned (a string's quotes
 *     included; `escaped` when it holds an escape). A later duplicate key calls it again.
 *
 * The line's verdict decides whether the fields found mean anything: only on LineShape.OBJECT.
 */
// @ts-expect-error: decorator
@inline
function reader<R>(): R {
  return changetype<R>(0);
}

/** FIELD_LEVELS_MAX levels below the top one can be read (level 1 is kept in locals). */
const FIELD_LEVELS_MAX: usize = 4;
/** Per level from 2: the field whose value is being scanned (i32) and where it starts (u32). */
const levelField = memory.data(<i32>(FIELD_LEVELS_MAX + 1) * 4, 4);
const levelStart = memory.data(<i32>(FIELD_LEVELS_MAX + 1) * 4, 4);

/**
 * Validates the line [start, end) as one JSON text and hands the reader `R` the fields it reads.
 * The caller has excluded blank lines and checked UTF-8.
 */
export function scanLine<R>(start: usize, end: usize): i32 {
  return scanJson<R>(start, end, true);
}

/** Where the value `scanValue` last accepted ends (one past its last byte). */
export let scannedValueEnd: usize = 0;

/**
 * Validates the one JSON value that starts at `start` (not white space) and ends before `end`,
 * whatever follows it, and hands the reader `R` the fields it reads; `scannedValueEnd` is where
 * it ends. A document's elements are read so (data/document.ts): where an element ends is only
 * known once it is scanned. A value cut off by `end` is INVALID, as is a broken one — but for a
 * number that reaches `end`, which may go on past it: the caller tells.
 */
export function scanValue<R>(start: usize, end: usize): i32 {
  return scanJson<R>(start, end, false);
}

/** `scanLine` (`wholeText`: nothing but white space may follow the value) or `scanValue`. */
// @ts-expect-error: decorator
@inline
function scanJson<R>(start: usize, end: usize, wholeText: bool): i32 {
  const levels = reader<R>().fieldDepth();
  reader<R>().clearFields();
  let at = skipWhitespace(start, end);
  const topIsObject = at < end && load<u8>(at) == CharCode.OPEN_BRACE;
  let depth: usize = 0;
  let inObject = false; // the innermost open container is an object (kept here, not re-read from the stack)
  let topField = NO_FIELD; // the top-level member whose value is being scanned
  let topStart: usize = 0;
  let valueEscaped = false;
  // Each turn scans one value at `at`, the punctuation after it, and the next member's key.
  while (true) {
    if (at >= end) return LineShape.INVALID;
    const c = <u32>load<u8>(at);
    let valueEnded = true;
    if (c == CharCode.OPEN_BRACE || c == CharCode.OPEN_BRACKET) {
      inObject = c == CharCode.OPEN_BRACE;
      const word = containerStack + (depth >> 3);
      const bit = <u8>(1 << <u8>(depth & 7));
      store<u8>(word, inObject ? load<u8>(word) | bit : load<u8>(word) & ~bit);
      depth++;
      if (levels > 1 && depth > 1 && depth <= levels) store<i32>(levelField + (depth << 2), NO_FIELD);
      at = skipWhitespace(at + 1, end);
      if (at < end && load<u8>(at) == (inObject ? CharCode.CLOSE_BRACE : CharCode.CLOSE_BRACKET)) {
        at++;
        depth--;
        inObject = depth != 0 && isObjectAt(depth - 1);
      } else {
        valueEnded = false; // its first member or element follows
      }
    } else {
      let after: usize;
      if (c == CharCode.QUOTE) {
        after = scanString(at, end);
        valueEscaped = scannedEscape;
      } else if (c == CharCode.MINUS || isDigit(c)) {
        after = scanNumber(at, end);
      } else if (c == 0x74 || c == 0x66 || c == 0x6e) {
        after = scanLiteral(at, end);
      } else {
        return LineShape.INVALID;
      }
      if (after == 0) return LineShape.INVALID;
      at = after;
    }
    // A value just ended at `at`: close containers up to the comma before the next value.
    while (valueEnded) {
      if (depth == 1) {
        if (topField != NO_FIELD) {
          reader<R>().field(topField, topStart, at, valueEscaped);
          topField = NO_FIELD;
        }
      } else if (levels > 1 && depth > 1 && depth <= levels) {
        const field = load<i32>(levelField + (depth << 2));
        if (field != NO_FIELD) {
          reader<R>().field(field, <usize>load<u32>(levelStart + (depth << 2)), at, valueEscaped);
          store<i32>(levelField + (depth << 2), NO_FIELD);
        }
      }
      valueEscaped = false;
      if (!wholeText && depth == 0) {
        scannedValueEnd = at;
        return topIsObject ? LineShape.OBJECT : LineShape.NOT_AN_OBJECT;
      }
      // Most members follow the one before without a space: a comma and the next key's quote.
      if (inObject && at + 1 < end && load<u16>(at) == COMMA_QUOTE) {
        at++;
        break;
      }
      at = skipWhitespace(at, end);
      if (depth == 0) {
        if (at != end) return LineShape.INVALID;
        return topIsObject ? LineShape.OBJECT : LineShape.NOT_AN_OBJECT;
      }
      if (at >= end) return LineShape.INVALID;
      const p = <u32>load<u8>(at);
      at++;
      if (p == (inObject ? CharCode.CLOSE_BRACE : CharCode.CLOSE_BRACKET)) {
        depth--;
        inObject = depth != 0 && isObjectAt(depth - 1);
        continue;
      }
      if (p != CharCode.COMMA) return LineShape.INVALID;
      at = skipWhitespace(at, end);
      break;
    }
    if (!inObject) continue;
    // A member: its key, a colon, then its value on the next turn.
    if (at >= end || load<u8>(at) != CharCode.QUOTE) return LineShape.INVALID;
    const keyEnd = scanString(at, end);
    if (keyEnd == 0) return LineShape.INVALID;
    // A key at depth 1 is a member of the top-level value, so that value is an object.
    if (depth == 1) {
      topField = reader<R>().member(1, NO_FIELD, at + 1, keyEnd - 1, scannedEscape);
    } else if (levels > 1 && depth <= levels) {
      const parent = depth == 2 ? topField : load<i32>(levelField + ((depth - 1) << 2));
      const field = parent == NO_FIELD ? NO_FIELD : reader<R>().member(depth, parent, at + 1, keyEnd - 1, scannedEscape);
      store<i32>(levelField + (depth << 2), field);
    }
    // Most keys are followed by a colon and their value, without a space.
    const colonAndNext = keyEnd + 1 < end ? <u32>load<u16>(keyEnd) : 0;
    if ((colonAndNext & 0xff) == CharCode.COLON && colonAndNext >> 8 > CharCode.SPACE) {
      at = keyEnd + 1;
    } else {
      at = skipWhitespace(keyEnd, end);
      if (at >= end || load<u8>(at) != CharCode.COLON) return LineShape.INVALID;
      at = skipWhitespace(at + 1, end);
    }
    // Where the member's value starts (a nested key must not move its parent's start).
    if (depth == 1) topStart = at;
    else if (levels > 1 && depth <= levels) store<u32>(levelStart + (depth << 2), <u32>at);
  }
  return LineShape.INVALID;
}

// @ts-expect-error: decorator
@inline
function isObjectAt(level: usize): bool {
  return ((load<u8>(containerStack + (level >> 3)) >> <u8>(level & 7)) & 1) != 0;
}

/**
 * Decodes the JSON string content [start, end) (quotes excluded, already validated) into `out`
 * as WTF-8: UTF-8, except that a surrogate without its pair is kept as its own 3-byte form. An
 * escaped pair decodes to the same 4 bytes as the raw character, so ids compare as JavaScript
 * strings do. Returns the decoded length, never more than end - start.
 */
export function decodeString(start: usize, end: usize, out: usize): usize {
  let at = start;
  let written = out;
  while (at < end) {
    const c = <u32>load<u8>(at);
    if (c != CharCode.BACKSLASH) {
      store<u8>(written++, <u8>c);
      at++;
      continue;
    }
    const escaped = <u32>load<u8>(at + 1);
    at += 2;
    if (escaped != 0x75) {
      store<u8>(written++, <u8>simpleEscape(escaped));
      continue;
    }
    let unit = <u32>hex4(at);
    at += 4;
    if (unit - 0xd800 < 0x400 && at + 6 <= end && load<u8>(at) == CharCode.BACKSLASH && load<u8>(at + 1) == 0x75) {
      const low = <u32>hex4(at + 2);
      if (low - 0xdc00 < 0x400) {
        unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        at += 6;
      }
    }
    written = writeCodePoint(written, unit);
  }
  return written - out;
}

function simpleEscape(c: u32): u32 {
  if (c == 0x62) return 0x08;
  if (c == 0x66) return 0x0c;
  if (c == 0x6e) return 0x0a;
  if (c == 0x72) return 0x0d;
  if (c == 0x74) return 0x09;
  return c; // quote, backslash, slash
}

function writeCodePoint(at: usize, cp: u32): usize {
  if (cp < 0x80) {
    store<u8>(at, <u8>cp);
    return at + 1;
  }
  if (cp < 0x800) {
    store<u8>(at, <u8>(0xc0 | (cp >> 6)));
    store<u8>(at + 1, <u8>(0x80 | (cp & 0x3f)));
    return at + 2;
  }
  if (cp < 0x10000) {
    store<u8>(at, <u8>(0xe0 | (cp >> 12)));
    store<u8>(at + 1, <u8>(0x80 | ((cp >> 6) & 0x3f)));
    store<u8>(at + 2, <u8>(0x80 | (cp & 0x3f)));
    return at + 3;
  }
  store<u8>(at, <u8>(0xf0 | (cp >> 18)));
  store<u8>(at + 1, <u8>(0x80 | ((cp >> 12) & 0x3f)));
  store<u8>(at + 2, <u8>(0x80 | ((cp >> 6) & 0x3f)));
  store<u8>(at + 3, <u8>(0x80 | (cp & 0x3f)));
  return at + 4;
}

/**
 * Whether the bytes [pointer, pointer + length) are the ASCII `name` (a string literal: static
 * UTF-16 data, read in place).
 */
// @ts-expect-error: decorator
@inline
export function isName(pointer: usize, length: usize, name: string): bool {
  if (<i32>length != name.length) return false;
  const units = changetype<usize>(name);
  for (let i: usize = 0; i < length; i++) {
    if (<u32>load<u8>(pointer + i) != <u32>load<u16>(units + (i << 1))) return false;
  }
  return true;
}
