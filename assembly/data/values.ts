/**
 * A value as clauses see it (docs/models/data.md, "Operands"): absent, an int (exact, i64), a
 * string (WTF-8 bytes, compared byte for byte — the same as by code points) or a bool. Every value
 * lives in a 16-byte cell:
 *
 *   0  u32 tag (ValueTag)   4  u32 a string's length   8  i64 an int, u32 a string's pointer, or
 *                                                        u8 a bool
 *
 * A record's fields point into the line (or the record's decoded strings); a kept cell — a slot,
 * a register, a finding's key — owns a block holding its string (`keepValue`).
 */

import { allocate, release } from "./alloc";
import { int64At, stringLength, stringPointer, ValueTag, word } from "./layout";

export const VALUE_BYTES: usize = 16;

// @ts-expect-error: decorator
@inline
export function tagOf(cell: usize): u32 {
  return load<u32>(cell);
}

// @ts-expect-error: decorator
@inline
export function lengthOf(cell: usize): usize {
  return <usize>load<u32>(cell, 4);
}

// @ts-expect-error: decorator
@inline
export function intOf(cell: usize): i64 {
  return load<i64>(cell, 8);
}

// @ts-expect-error: decorator
@inline
export function pointerOf(cell: usize): usize {
  return <usize>load<u32>(cell, 8);
}

// @ts-expect-error: decorator
@inline
export function setAbsent(cell: usize): void {
  store<u32>(cell, ValueTag.ABSENT);
  store<u32>(cell, 0, 4);
  store<i64>(cell, 0, 8);
}

// @ts-expect-error: decorator
@inline
export function setInt(cell: usize, value: i64): void {
  store<u32>(cell, ValueTag.INT);
  store<u32>(cell, 0, 4);
  store<i64>(cell, value, 8);
}

// @ts-expect-error: decorator
@inline
export function setString(cell: usize, pointer: usize, length: usize): void {
  store<u32>(cell, ValueTag.STRING);
  store<u32>(cell, <u32>length, 4);
  store<i64>(cell, <i64>pointer, 8);
}

// @ts-expect-error: decorator
@inline
export function setBool(cell: usize, value: bool): void {
  store<u32>(cell, ValueTag.BOOL);
  store<u32>(cell, 0, 4);
  store<i64>(cell, value ? 1 : 0, 8);
}

/** Sets `cell` to the packed value whose words start at `at` (Width.VALUE words). */
export function setPacked(cell: usize, at: i32): void {
  const tag = <u32>word(at);
  if (tag == ValueTag.INT) setInt(cell, int64At(at + 1));
  else if (tag == ValueTag.STRING) setString(cell, stringPointer(at + 1), stringLength(at + 1));
  else if (tag == ValueTag.BOOL) setBool(cell, word(at + 1) != 0);
  else setAbsent(cell);
}

export function bytesEqual(a: usize, b: usize, length: usize): bool {
  let at: usize = 0;
  for (; at + 8 <= length; at += 8) {
    if (load<u64>(a + at) != load<u64>(b + at)) return false;
  }
  for (; at < length; at++) {
    if (load<u8>(a + at) != load<u8>(b + at)) return false;
  }
  return true;
}

/** `==` of docs/models/data.md: absent equals only absent, an int never equals a string. */
export function valuesEqual(a: usize, b: usize): bool {
  const tag = tagOf(a);
  if (tag != tagOf(b)) return false;
  if (tag == ValueTag.ABSENT) return true;
  if (tag != ValueTag.STRING) return intOf(a) == intOf(b);
  const length = lengthOf(a);
  return length == lengthOf(b) && bytesEqual(pointerOf(a), pointerOf(b), length);
}

/**
 * Copies `from` into the kept cell `cell`: a string into a block of its own (the cell's old block
 * released). False when memory is exhausted (the cell is then absent).
 */
export function keepValue(cell: usize, from: usize): bool {
  if (cell == from) return true;
  releaseValue(cell);
  if (tagOf(from) != ValueTag.STRING || lengthOf(from) == 0) {
    memory.copy(cell, from, VALUE_BYTES);
    return true;
  }
  const length = lengthOf(from);
  const block = allocate(length);
  if (block == 0) {
    setAbsent(cell);
    return false;
  }
  memory.copy(block, pointerOf(from), length);
  setString(cell, block, length);
  return true;
}

/** Frees a kept cell's string block; the cell is then absent. */
export function releaseValue(cell: usize): void {
  if (tagOf(cell) == ValueTag.STRING && lengthOf(cell) > 0) release(pointerOf(cell), lengthOf(cell));
  setAbsent(cell);
}
