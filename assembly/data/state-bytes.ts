/**
 * A journal's state as bytes (a snapshot's section, bindings/data/engine.ts): each part of the
 * kernel writes its own state with `put…` and reads it back with `take…`. Everything is 4-byte
 * aligned; a value is its tag, length and payload (values.ts), a string's bytes after it. A
 * snapshot is input: a read past the end, or a string that is not WTF-8, sets `readFailed`, and
 * the caller refuses the snapshot.
 */

import { abandon, reserve } from "../memory";
import { isWtf8 } from "../utf8";
import { ValueTag } from "./layout";
import { lengthOf, pointerOf, setAbsent, setBool, setInt, setString, tagOf } from "./values";

let out: usize = 0;
let outCapacity: usize = 0;
let outLength: usize = 0;
/** Set when memory ran out while writing. */
export let writeFailed = false;

/** A new journal: the last snapshot's block went with the last journal's region. */
export function forgetWritten(): void {
  out = 0;
  outCapacity = 0;
  outLength = 0;
}

/** Starts a snapshot; the block of the one before is handed back. */
export function beginWriting(): void {
  if (outCapacity > 0) abandon(out, outCapacity);
  out = 0;
  outCapacity = 0;
  outLength = 0;
  writeFailed = false;
}

export function writtenPointer(): usize {
  return writeFailed ? 0 : out;
}

export function writtenLength(): usize {
  return outLength;
}

/** Room for `bytes` more; false (and `writeFailed`) when memory is exhausted. */
function room(bytes: usize): bool {
  if (writeFailed) return false;
  if (outLength + bytes <= outCapacity) return true;
  let capacity: usize = outCapacity < 4096 ? 4096 : outCapacity << 1;
  while (capacity < outLength + bytes) capacity <<= 1;
  const grown = reserve(capacity);
  if (grown == 0) {
    writeFailed = true;
    return false;
  }
  if (outLength > 0) memory.copy(grown, out, outLength);
  if (outCapacity > 0) abandon(out, outCapacity);
  out = grown;
  outCapacity = capacity;
  return true;
}

export function putU32(value: u32): void {
  if (!room(4)) return;
  store<u32>(out + outLength, value);
  outLength += 4;
}

export function putI64(value: i64): void {
  if (!room(8)) return;
  store<i64>(out + outLength, value);
  outLength += 8;
}

export function putF64(value: f64): void {
  if (!room(8)) return;
  store<f64>(out + outLength, value);
  outLength += 8;
}

/** Bytes, padded to 4 (their length is written before them by the caller). */
export function putBytes(pointer: usize, length: usize): void {
  const padded = (length + 3) & ~3;
  if (!room(padded)) return;
  memory.copy(out + outLength, pointer, length);
  memory.fill(out + outLength + length, 0, padded - length);
  outLength += padded;
}

export function putValue(cell: usize): void {
  const tag = tagOf(cell);
  putU32(tag);
  putU32(<u32>lengthOf(cell));
  if (tag == ValueTag.STRING) putBytes(pointerOf(cell), lengthOf(cell));
  else putI64(load<i64>(cell, 8));
}

let input: usize = 0;
let inputEnd: usize = 0;
export let readFailed = false;

export function beginReading(pointer: usize, length: usize): void {
  input = pointer;
  inputEnd = pointer + length;
  readFailed = false;
}

/** Whether every byte was read (and nothing failed). */
export function readAll(): bool {
  return !readFailed && input == inputEnd;
}

function has(bytes: usize): bool {
  if (readFailed || inputEnd - input < bytes) {
    readFailed = true;
    return false;
  }
  return true;
}

export function takeU32(): u32 {
  if (!has(4)) return 0;
  const value = load<u32>(input);
  input += 4;
  return value;
}

/** A u32 that must be below `bound`; 0 (and `readFailed`) otherwise. */
export function takeIndex(bound: u32): u32 {
  const value = takeU32();
  if (value < bound) return value;
  readFailed = true;
  return 0;
}

export function takeI64(): i64 {
  if (!has(8)) return 0;
  const value = load<i64>(input);
  input += 8;
  return value;
}

export function takeF64(): f64 {
  if (!has(8)) return 0;
  const value = load<f64>(input);
  input += 8;
  return value;
}

/** Where `length` bytes (padded to 4) lie in the input; 0 (and `readFailed`) when they do not. */
export function takeRaw(length: usize): usize {
  const padded = (length + 3) & ~3;
  if (padded < length || !has(padded)) return 0;
  const at = input;
  input += padded;
  return at;
}

/** As `takeRaw`, for a string's bytes: they must be WTF-8. */
export function takeText(length: usize): usize {
  const at = takeRaw(length);
  if (readFailed) return 0;
  if (!isWtf8(at, at + length)) {
    readFailed = true;
    return 0;
  }
  return at;
}

/** A value into `cell`; a string's bytes stay in the input (the caller keeps a copy). */
export function takeValue(cell: usize): void {
  const tag = takeU32();
  const length = <usize>takeU32();
  setAbsent(cell);
  if (tag == ValueTag.STRING) {
    const at = takeText(length);
    if (!readFailed) setString(cell, at, length);
    return;
  }
  const payload = takeI64();
  if (tag == ValueTag.INT) setInt(cell, payload);
  else if (tag == ValueTag.BOOL && <u64>payload <= 1) setBool(cell, payload != 0);
  else if (tag != ValueTag.ABSENT || length != 0) readFailed = true;
}
