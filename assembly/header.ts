/**
 * A journal's header line read in the kernel (the reference reads it in src/journal/jsonl.ts):
 * the line validated as UTF-8 and JSON, its top-level members found, and the model it names.
 * A model's own header reader (dag/header.ts, executive/header.ts) then walks the member it
 * needs — a `dag` header's DAG or an `executive` header's spec and budget, megabytes of JSON the
 * host would otherwise parse into objects, check and pack.
 *
 * Only the plain case is read here: a valid UTF-8 JSON object whose `statefold`, `version`,
 * `model`, `dag`, `spec` and `budget` keys are written without escapes and each at most once,
 * with `"statefold":"journal"` and `"version":1` as written. Anything else answers ASK_HOST and
 * the host reads the line with the reference reader, which gives the exact verdict or error.
 * Members the reference ignores are skipped here too.
 */

import { CharCode, isName, LineShape, NO_FIELD, scanLine, scanString, skipWhitespace, useContainerStack } from "./json";
import { reserve, resetAll } from "./memory";
import { isValidUtf8 } from "./utf8";

/** The model a header names, as `headerModel` answers; ASK_HOST when the host must read it. */
export namespace HeaderModel {
  export const ASK_HOST: i32 = -1;
  export const DAG: i32 = 0;
  export const OPERATIONS: i32 = 1;
  export const EXECUTIVE: i32 = 2;
  /** A header with no `model`: the journal's model is the one chosen for it (docs/journals.md). */
  export const NONE: i32 = 3;
}

export namespace Member {
  export const STATEFOLD: i32 = 0;
  export const VERSION: i32 = 1;
  export const MODEL: i32 = 2;
  export const DAG: i32 = 3;
  export const SPEC: i32 = 4;
  export const BUDGET: i32 = 5;
  export const COUNT: i32 = 6;
}

/** Per top-level member: how often it was found, and its value's [start, end). */
const memberCounts = memory.data(Member.COUNT * 4, 4);
const memberStart = memory.data(Member.COUNT * 4, 4);
const memberEnd = memory.data(Member.COUNT * 4, 4);
let escapedKey = false;

/** Where the header line lies. */
export let headerInput: usize = 0;
export let headerLength: usize = 0;

/** Whether the line at `headerInput` was scanned and found a plain header (its members recorded). */
let scanned = false;

/** Drops all state and reserves room for a header line of `length` bytes; 0 when memory is exhausted. */
export function prepareHeader(length: usize): usize {
  resetAll();
  headerInput = reserve(length);
  headerLength = length;
  scanned = false;
  return headerInput;
}

/**
 * The model the header line written at `prepareHeader`'s pointer names (a HeaderModel code). A
 * model's reader of the same line after it does not scan the line again.
 */
export function headerModel(): i32 {
  scanned = scanned || scanHeader();
  return scanned ? modelOfHeader() : HeaderModel.ASK_HOST;
}

/**
 * Whether the header line is a plain header naming `model`, or naming none (the engine of
 * `model` was chosen for it), whose `member` is there once: the start of a model's reader, which
 * ends with `headerRead`.
 */
export function isPlainHeaderWith(model: i32, member: i32): bool {
  const named = headerModel();
  return (named == model || named == HeaderModel.NONE) && memberSeen(member) == 1;
}

/** The line is read (its reader is done with it): a next `headerModel` scans what is written then. */
export function headerRead(): void {
  scanned = false;
}

/** Where member `member`'s value starts in the header line (valid JSON, the scan found). */
export function memberValueStart(member: i32): usize {
  return <usize>load<u32>(memberStart + (<usize>member << 2));
}

/** One past member `member`'s value. */
export function memberValueEnd(member: i32): usize {
  return <usize>load<u32>(memberEnd + (<usize>member << 2));
}

/** Validates the line and records its top-level members; false when the host must read it. */
function scanHeader(): bool {
  const stack = reserve((headerLength >> 3) + 1);
  if (stack == 0) return false;
  useContainerStack(stack);
  // The host gives line 1 and its line end (only line 1 can be the header). A blank line 1 is
  // all JSON whitespace, and answers ASK_HOST: the host's reader says it is no header.
  let start = headerInput;
  let end = headerInput + headerLength;
  if (end > start && load<u8>(end - 1) == CharCode.LF) end--;
  if (end > start && load<u8>(end - 1) == CharCode.CR) end--;
  start = skipWhitespace(start, end);
  if (start == end) return false;
  memory.fill(memberCounts, 0, Member.COUNT * 4);
  escapedKey = false;
  if (hasHighBytes(start, end) && !isValidUtf8(start, end)) return false;
  if (scanLine<HeaderMembers>(start, end) != LineShape.OBJECT || escapedKey) return false;
  for (let member = 0; member < Member.COUNT; member++) {
    if (memberSeen(member) > 1) return false;
  }
  return (
    memberSeen(Member.STATEFOLD) == 1 &&
    isValue(Member.STATEFOLD, '"journal"') &&
    memberSeen(Member.VERSION) == 1 &&
    isValue(Member.VERSION, "1")
  );
}

/** Whether a byte of [start, end) is 0x80 or above (only then is UTF-8 checked). */
function hasHighBytes(start: usize, end: usize): bool {
  let at = start;
  if (ASC_FEATURE_SIMD) {
    let high = i8x16.splat(0);
    for (; at + 16 <= end; at += 16) high = v128.or(high, v128.load(at));
    if (i8x16.bitmask(high) != 0) return true;
  }
  for (; at < end; at++) {
    if (load<u8>(at) >= 0x80) return true;
  }
  return false;
}

function modelOfHeader(): i32 {
  if (memberSeen(Member.MODEL) == 0) return HeaderModel.NONE;
  if (isValue(Member.MODEL, '"dag"')) return HeaderModel.DAG;
  if (isValue(Member.MODEL, '"operations"')) return HeaderModel.OPERATIONS;
  if (isValue(Member.MODEL, '"executive"')) return HeaderModel.EXECUTIVE;
  return HeaderModel.ASK_HOST;
}

// @ts-expect-error: decorator
@inline
function memberSeen(member: i32): u32 {
  return load<u32>(memberCounts + (<usize>member << 2));
}

function isValue(member: i32, text: string): bool {
  const start = memberValueStart(member);
  return isName(start, memberValueEnd(member) - start, text);
}

/** The reader of json.ts for a header: its top-level members. */
@final
class HeaderMembers {
  // @ts-expect-error: decorator
  @inline
  fieldDepth(): usize {
    return 1;
  }

  // @ts-expect-error: decorator
  @inline
  clearFields(): void {}

  // @ts-expect-error: decorator
  @inline
  member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
    if (escaped) escapedKey = true;
    const length = keyEnd - keyStart;
    if (isName(keyStart, length, "statefold")) return Member.STATEFOLD;
    if (isName(keyStart, length, "version")) return Member.VERSION;
    if (isName(keyStart, length, "model")) return Member.MODEL;
    if (isName(keyStart, length, "dag")) return Member.DAG;
    if (isName(keyStart, length, "spec")) return Member.SPEC;
    if (isName(keyStart, length, "budget")) return Member.BUDGET;
    return NO_FIELD;
  }

  // @ts-expect-error: decorator
  @inline
  field(field: i32, start: usize, end: usize, escaped: bool): void {
    const at = <usize>field << 2;
    store<u32>(memberCounts + at, load<u32>(memberCounts + at) + 1);
    store<u32>(memberStart + at, <u32>start);
    store<u32>(memberEnd + at, <u32>end);
  }
}

/** One past the JSON value at `at`, which the line's scan found valid. */
export function skipValue(at: usize, end: usize): usize {
  const c = <u32>load<u8>(at);
  if (c == CharCode.QUOTE) return scanString(at, end);
  if (c != CharCode.OPEN_BRACE && c != CharCode.OPEN_BRACKET) {
    // A number or a literal: it ends where the punctuation or whitespace after it starts.
    while (at < end) {
      const b = <u32>load<u8>(at);
      if (b == CharCode.COMMA || b == CharCode.CLOSE_BRACE || b == CharCode.CLOSE_BRACKET || b <= CharCode.SPACE) break;
      at++;
    }
    return at;
  }
  let depth = 0;
  while (true) {
    const b = <u32>load<u8>(at);
    if (b == CharCode.QUOTE) {
      at = scanString(at, end);
      continue;
    }
    if (b == CharCode.OPEN_BRACE || b == CharCode.OPEN_BRACKET) depth++;
    else if (b == CharCode.CLOSE_BRACE || b == CharCode.CLOSE_BRACKET) {
      if (--depth == 0) return at + 1;
    }
    at++;
  }
  return at;
}
