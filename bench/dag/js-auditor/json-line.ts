/**
 * One journal line as JSON: validated exactly as `JSON.parse` accepts it (ECMA-404; UTF-8 is
 * checked apart, in utf8.ts), with the top-level object's `kind`, `id`, `result` and `surface`
 * values located. A later duplicate key replaces an earlier one, as in `JSON.parse`; every other
 * value, at any depth, is validated and skipped. Nesting lives in an explicit stack (a byte per
 * level), so a deeply nested line costs no call stack. No string is made: values are byte ranges.
 *
 * The grammar and the field layout follow the kernel's scanner (assembly/json.ts); the loops are
 * plain JavaScript over a Uint8Array, with a 256-entry table deciding where a string scan stops.
 */

const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
const LOWER_U = 0x75;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export const LineShape = { OBJECT: 0, NOT_AN_OBJECT: 1, INVALID: 2 } as const;

/** The top-level fields the audit reads. */
export const Field = { OTHER: -1, KIND: 0, ID: 1, RESULT: 2, SURFACE: 3 } as const;
const FIELD_COUNT = 4;

export const ValueType = { ABSENT: 0, STRING: 1, NULL: 2, ARRAY: 3, OTHER: 4 } as const;

/** Bytes at which a string scan stops: the quote, the backslash, controls, and bytes ≥ 0x80. */
const STRING_STOPS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  STRING_STOPS[c] = c === QUOTE || c === BACKSLASH || c < SPACE || c >= 0x80 ? 1 : 0;
}
/** The characters after a backslash that make a two-byte escape, with what they stand for. */
const SIMPLE_ESCAPES = new Int16Array(256).fill(-1);
for (const [c, value] of [
  [QUOTE, QUOTE],
  [BACKSLASH, BACKSLASH],
  [0x2f, 0x2f],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
] as const) {
  SIMPLE_ESCAPES[c] = value;
}
const HEX_VALUES = new Int8Array(256).fill(-1);
for (let c = 0; c < 256; c++) {
  if (c >= 0x30 && c <= 0x39) HEX_VALUES[c] = c - 0x30;
  else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) HEX_VALUES[c] = (c | 0x20) - 0x61 + 10;
}

/** "surface" with a six-byte escape for each of its seven characters: no longer key is one of ours. */
const ESCAPED_KEY_BYTES_MAX = 7 * 6;

export class JsonLineScanner {
  /** Per field: where its value starts (the opening quote of a string) and ends (one past). */
  readonly fieldStart = new Int32Array(FIELD_COUNT);
  readonly fieldEnd = new Int32Array(FIELD_COUNT);
  readonly fieldType = new Uint8Array(FIELD_COUNT);
  /** Per field: 1 when the string holds a backslash escape (it must be decoded to compare). */
  readonly fieldEscaped = new Uint8Array(FIELD_COUNT);
  /** Whether the last scan met a byte ≥ 0x80 inside a string (then UTF-8 must be checked). */
  sawHighByte = false;
  /** One byte per nesting level: 1 object, 0 array. */
  private stack = new Uint8Array(64);
  /** Set by `scanString`: the string just scanned holds an escape. */
  escaped = false;
  private readonly keyScratch = new Uint8Array(ESCAPED_KEY_BYTES_MAX);

  /** Validates bytes[start .. end) as one JSON text and locates the top-level fields. */
  scan(b: Uint8Array, start: number, end: number): number {
    const types = this.fieldType;
    types[0] = types[1] = types[2] = types[3] = ValueType.ABSENT; // no fill(): a call per line
    this.sawHighByte = false;
    let at = skipWhitespace(b, start, end);
    const topIsObject = at < end && b[at] === OPEN_BRACE;
    let depth = 0;
    let pending: number = Field.OTHER; // the top-level field whose value is being scanned
    let valueStart = 0;
    let valueEscaped = false;
    // Each turn scans one value at `at`, then the punctuation after it.
    for (;;) {
      if (at >= end) return LineShape.INVALID;
      const c = b[at] as number;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        const isObject = c === OPEN_BRACE;
        if (depth === this.stack.length) this.growStack();
        this.stack[depth] = isObject ? 1 : 0;
        depth += 1;
        at = skipWhitespace(b, at + 1, end);
        if (at < end && b[at] === (isObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
          depth -= 1;
          at += 1;
        } else {
          if (isObject) {
            at = this.scanKeyAndColon(b, at, end);
            if (at < 0) return LineShape.INVALID;
            if (depth === 1 && topIsObject) pending = this.lastKey;
            if (depth === 1) valueStart = at;
          }
          continue;
        }
      } else {
        let after: number;
        if (c === QUOTE) {
          after = this.scanString(b, at, end);
          valueEscaped = this.escaped;
        } else if (c === MINUS || (c >= ZERO && c <= ZERO + 9)) {
          after = scanNumber(b, at, end);
        } else {
          after = scanLiteral(b, at, end);
        }
        if (after < 0) return LineShape.INVALID;
        at = after;
      }
      // A value just ended at `at`: record it, close containers, find the next value.
      for (;;) {
        if (depth === 1 && pending !== Field.OTHER) {
          this.record(pending, b, valueStart, at, valueEscaped);
          pending = Field.OTHER;
        }
        valueEscaped = false;
        at = skipWhitespace(b, at, end);
        if (depth === 0) {
          if (at !== end) return LineShape.INVALID;
          return topIsObject ? LineShape.OBJECT : LineShape.NOT_AN_OBJECT;
        }
        if (at >= end) return LineShape.INVALID;
        const inObject = this.stack[depth - 1] === 1;
        const p = b[at];
        if (p === (inObject ? CLOSE_BRACE : CLOSE_BRACKET)) {
          depth -= 1;
          at += 1;
          continue;
        }
        if (p !== COMMA) return LineShape.INVALID;
        at = skipWhitespace(b, at + 1, end);
        if (inObject) {
          at = this.scanKeyAndColon(b, at, end);
          if (at < 0) return LineShape.INVALID;
          if (depth === 1 && topIsObject) pending = this.lastKey;
          if (depth === 1) valueStart = at;
        }
        break;
      }
    }
  }

  /** Set by `scanKeyAndColon`: the Field the key names. */
  private lastKey: number = Field.OTHER;

  /** A key at `at`, its colon and the whitespace after; returns where the value starts, or -1. */
  private scanKeyAndColon(b: Uint8Array, at: number, end: number): number {
    if (at >= end || b[at] !== QUOTE) return -1;
    const keyEnd = this.scanString(b, at, end);
    if (keyEnd < 0) return -1;
    this.lastKey = this.escaped
      ? this.classifyEscapedKey(b, at + 1, keyEnd - 1)
      : classifyKey(b, at + 1, keyEnd - 1);
    const colon = skipWhitespace(b, keyEnd, end);
    if (colon >= end || b[colon] !== COLON) return -1;
    return skipWhitespace(b, colon + 1, end);
  }

  private classifyEscapedKey(b: Uint8Array, start: number, end: number): number {
    if (end - start > ESCAPED_KEY_BYTES_MAX) return Field.OTHER;
    const length = decodeString(b, start, end, this.keyScratch, 0);
    return classifyKey(this.keyScratch, 0, length);
  }

  private growStack(): void {
    const grown = new Uint8Array(this.stack.length * 2);
    grown.set(this.stack);
    this.stack = grown;
  }

  private record(field: number, b: Uint8Array, start: number, end: number, escaped: boolean): void {
    this.fieldStart[field] = start;
    this.fieldEnd[field] = end;
    const c = b[start];
    this.fieldType[field] =
      c === QUOTE
        ? ValueType.STRING
        : c === OPEN_BRACKET
          ? ValueType.ARRAY
          : c === 0x6e
            ? ValueType.NULL
            : ValueType.OTHER;
    this.fieldEscaped[field] = escaped ? 1 : 0;
  }

  /**
   * The string whose opening quote is at `at`: returns one past its closing quote, or -1 when it
   * is no valid JSON string before `end` (unterminated, a raw control character, a bad escape).
   */
  scanString(b: Uint8Array, at: number, end: number): number {
    this.escaped = false;
    let i = at + 1;
    for (;;) {
      while (i < end && STRING_STOPS[b[i] as number] === 0) i += 1;
      if (i >= end) return -1;
      const c = b[i] as number;
      if (c === QUOTE) return i + 1;
      if (c >= 0x80) {
        this.sawHighByte = true;
        i += 1;
        continue;
      }
      if (c !== BACKSLASH || i + 1 >= end) return -1; // a control character, or a lone backslash
      this.escaped = true;
      const escaped = b[i + 1] as number;
      if (escaped === LOWER_U) {
        if (i + 6 > end || hex4(b, i + 2) < 0) return -1;
        i += 6;
      } else if ((SIMPLE_ESCAPES[escaped] as number) >= 0) {
        i += 2;
      } else {
        return -1;
      }
    }
  }
}

/** Where the JSON whitespace (space, tab, CR, LF) from `at` ends, at most `end`. */
export function skipWhitespace(b: Uint8Array, at: number, end: number): number {
  let i = at;
  for (; i < end; i++) {
    const c = b[i];
    if (c !== SPACE && c !== TAB && c !== CR && c !== LF) break;
  }
  return i;
}

function hex4(b: Uint8Array, at: number): number {
  const h0 = HEX_VALUES[b[at] as number] as number;
  const h1 = HEX_VALUES[b[at + 1] as number] as number;
  const h2 = HEX_VALUES[b[at + 2] as number] as number;
  const h3 = HEX_VALUES[b[at + 3] as number] as number;
  if ((h0 | h1 | h2 | h3) < 0) return -1;
  return (h0 << 12) | (h1 << 8) | (h2 << 4) | h3;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= ZERO && c <= ZERO + 9;
}

/** RFC 8259 §6: `-? (0 | [1-9] digits) (. digits)? ([eE] [+-]? digits)?`; one past it, or -1. */
function scanNumber(b: Uint8Array, start: number, end: number): number {
  let at = b[start] === MINUS ? start + 1 : start;
  if (at >= end) return -1;
  if (b[at] === ZERO) at += 1;
  else if (isDigit(b[at])) while (at < end && isDigit(b[at])) at += 1;
  else return -1;
  if (at < end && b[at] === DOT) {
    at += 1;
    if (at >= end || !isDigit(b[at])) return -1;
    while (at < end && isDigit(b[at])) at += 1;
  }
  if (at < end && ((b[at] as number) | 0x20) === LOWER_E) {
    at += 1;
    if (at < end && (b[at] === PLUS || b[at] === MINUS)) at += 1;
    if (at >= end || !isDigit(b[at])) return -1;
    while (at < end && isDigit(b[at])) at += 1;
  }
  return at;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** `true`, `false` or `null` at `at`: one past it, or -1. */
function scanLiteral(b: Uint8Array, at: number, end: number): number {
  const c = b[at];
  const literal = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : null;
  if (literal === null || at + literal.length > end) return -1;
  for (let i = 1; i < literal.length; i++) if (b[at + i] !== literal[i]) return -1;
  return at + literal.length;
}

const KEY_BYTES: readonly (readonly number[])[] = ["kind", "id", "result", "surface"].map((key) =>
  [...key].map((char) => char.charCodeAt(0)),
);

/** Which audited field the (decoded) key bytes[start .. end) names. */
function classifyKey(b: Uint8Array, start: number, end: number): number {
  const length = end - start;
  const field =
    length === 4
      ? Field.KIND
      : length === 2
        ? Field.ID
        : length === 6
          ? Field.RESULT
          : length === 7
            ? Field.SURFACE
            : Field.OTHER;
  if (field === Field.OTHER) return field;
  const key = KEY_BYTES[field] as readonly number[];
  for (let i = 0; i < length; i++) if (b[start + i] !== key[i]) return Field.OTHER;
  return field;
}

/**
 * Decodes the (validated) JSON string content b[start .. end) into `out` at `outAt` as WTF-8:
 * UTF-8, except that a surrogate without its pair keeps its own 3-byte form, so decoded bytes
 * compare as JavaScript strings do. Returns the decoded length, never more than end - start.
 */
export function decodeString(
  b: Uint8Array,
  start: number,
  end: number,
  out: Uint8Array,
  outAt: number,
): number {
  let at = start;
  let written = outAt;
  while (at < end) {
    const c = b[at] as number;
    if (c !== BACKSLASH) {
      out[written++] = c;
      at += 1;
      continue;
    }
    const escaped = b[at + 1] as number;
    at += 2;
    if (escaped !== LOWER_U) {
      out[written++] = SIMPLE_ESCAPES[escaped] as number;
      continue;
    }
    let unit = hex4(b, at);
    at += 4;
    if (unit >= 0xd800 && unit < 0xdc00 && at + 6 <= end && b[at] === BACKSLASH) {
      const low = b[at + 1] === LOWER_U ? hex4(b, at + 2) : -1;
      if (low >= 0xdc00 && low < 0xe000) {
        unit = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        at += 6;
      }
    }
    written = writeCodePoint(out, written, unit);
  }
  return written - outAt;
}

function writeCodePoint(out: Uint8Array, at: number, cp: number): number {
  if (cp < 0x80) {
    out[at] = cp;
    return at + 1;
  }
  if (cp < 0x800) {
    out[at] = 0xc0 | (cp >> 6);
    out[at + 1] = 0x80 | (cp & 0x3f);
    return at + 2;
  }
  if (cp < 0x10000) {
    out[at] = 0xe0 | (cp >> 12);
    out[at + 1] = 0x80 | ((cp >> 6) & 0x3f);
    out[at + 2] = 0x80 | (cp & 0x3f);
    return at + 3;
  }
  out[at] = 0xf0 | (cp >> 18);
  out[at + 1] = 0x80 | ((cp >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((cp >> 6) & 0x3f);
  out[at + 3] = 0x80 | (cp & 0x3f);
  return at + 4;
}
