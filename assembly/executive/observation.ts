/**
 * Observations of the `executive` model (docs/models/executive.md, "Observations and
 * decisions"; mirrors src/models/executive/observation.ts): the observation `step` reads, from
 * one of two sources. A journal line's `observation` is read here from the fields json.ts
 * located (fields.ts), as the reference reads the value JSON.parse makes of it; a value a host
 * passes to `step` is read by the host with the reference's reader — only a host can read a
 * JavaScript value as plain data — and handed over with `observe` or `observeUnreadable`.
 */

import { decodeString, isName } from "../json";
import { integerValue, isSafeIntegerNumber } from "../number";
import { Field, fieldEnd, fieldStart, firstByte, isEscaped, isPresent, observationHasStranger } from "./fields";
import { DETAIL_BYTES_MAX } from "./state";

export namespace ObservationTag {
  export const START: i32 = 0;
  export const RESULT: i32 = 1;
  export const CHECKPOINTED: i32 = 2;
  export const TICK: i32 = 3;
  export const CANCEL: i32 = 4;
}

/** How the observation read: OK, or the reject reason it earns (step.ts's RejectReason). */
export namespace Observed {
  export const OK: i32 = -1;
  export const MALFORMED: i32 = 2;
  export const UNKNOWN_TAG: i32 = 3;
  export const OVERSIZED: i32 = 4;
}

export let observed: i32 = Observed.OK;
export let observedTag: i32 = 0;
export let observedNow: i64 = 0;
export let observedSeq: i64 = 0;
export let observedBytes: i64 = 0;
export let observedOk = false;
export let observedRetryable = false;
/** The detail's WTF-8 bytes, or -1 for none. */
export let observedDetail: usize = 0;
export let observedDetailLength: i32 = -1;

/** Where a host writes an observation's detail before `observe`. */
export const hostDetail = memory.data(<i32>DETAIL_BYTES_MAX);

/** An observation a host read (its detail at `hostDetail`, -1 for none). */
export function observe(tag: i32, seq: f64, now: f64, ok: bool, retryable: bool, bytes: f64, detailLength: i32): void {
  observed = Observed.OK;
  observedTag = tag;
  observedSeq = <i64>seq;
  observedNow = <i64>now;
  observedOk = ok;
  observedRetryable = retryable;
  observedBytes = <i64>bytes;
  observedDetail = hostDetail;
  observedDetailLength = detailLength;
}

/** An observation a host could not read: `reason` is the reject reason it earns. */
export function observeUnreadable(reason: i32): void {
  observed = reason;
}

const JSON_TRUE: u32 = 0x74;
const JSON_FALSE: u32 = 0x66;
const QUOTE: u32 = 0x22;
const MINUS: u32 = 0x2d;

/** Each tag's fields (required, then optional), as bits of Field. */
function requiredFields(tag: i32): i32 {
  if (tag == ObservationTag.RESULT) return bit(Field.SEQ) | bit(Field.OUTCOME) | bit(Field.BYTES) | bit(Field.NOW);
  if (tag == ObservationTag.CHECKPOINTED) return bit(Field.SEQ) | bit(Field.NOW);
  return bit(Field.NOW);
}

function optionalFields(tag: i32): i32 {
  return tag == ObservationTag.RESULT ? bit(Field.RETRYABLE) | bit(Field.DETAIL) : 0;
}

// @ts-expect-error: decorator
@inline
function bit(field: i32): i32 {
  return 1 << field;
}

/** Where decoded strings of the line go (a buffer as long as the line); bumped per string. */
let decodeTop: usize = 0;

export function useDecodeBuffer(at: usize): void {
  decodeTop = at;
}

/** Decodes the string field's content to WTF-8; returns its pointer (`decodedLength` bytes). */
export function decodeField(field: i32): usize {
  return decodeText(fieldStart(field) + 1, fieldEnd(field) - 1, isEscaped(field));
}

/** The string content [start, end) as WTF-8 (in place when it holds no escape); `decodedLength` bytes. */
export function decodeText(start: usize, end: usize, escaped: bool): usize {
  if (!escaped) {
    decodedLength = end - start;
    return start;
  }
  const out = decodeTop;
  decodedLength = decodeString(start, end, out);
  decodeTop += decodedLength;
  return out;
}

export let decodedLength: usize = 0;

/** Reads the line's `observation` (present; the caller checked the line) into the observed globals. */
export function readObservation(): void {
  observed = Observed.MALFORMED;
  if (firstByte(Field.OBSERVATION) != 0x7b) return; // not an object
  if (!isPresent(Field.TAG) || firstByte(Field.TAG) != QUOTE) return;
  const tagText = decodeField(Field.TAG);
  const tag = tagOf(tagText, decodedLength);
  if (tag < 0) {
    observed = Observed.UNKNOWN_TAG;
    return;
  }
  if (observationHasStranger) return;
  const required = requiredFields(tag);
  const allowed = required | optionalFields(tag);
  let present = 0;
  for (let field = Field.NOW; field <= Field.DETAIL; field++) if (isPresent(field)) present |= bit(field);
  if ((present & required) != required || (present & ~allowed) != 0) return;
  if (!readCount(Field.NOW, false)) return;
  observedNow = integerValue;
  if ((present & bit(Field.SEQ)) != 0) {
    if (!readCount(Field.SEQ, true)) return;
    observedSeq = integerValue;
  }
  observedDetailLength = -1;
  if (tag == ObservationTag.RESULT) {
    if (!readCount(Field.BYTES, false)) return;
    observedBytes = integerValue;
    if (firstByte(Field.OUTCOME) != QUOTE) return;
    const outcome = decodeField(Field.OUTCOME);
    if (isName(outcome, decodedLength, "ok")) observedOk = true;
    else if (isName(outcome, decodedLength, "error")) observedOk = false;
    else return;
    observedRetryable = false;
    if (isPresent(Field.RETRYABLE)) {
      const literal = firstByte(Field.RETRYABLE);
      if (literal != JSON_TRUE && literal != JSON_FALSE) return;
      observedRetryable = literal == JSON_TRUE;
    }
    if (isPresent(Field.DETAIL)) {
      if (firstByte(Field.DETAIL) != QUOTE) return;
      observedDetail = decodeField(Field.DETAIL);
      if (decodedLength > DETAIL_BYTES_MAX) {
        observed = Observed.OVERSIZED;
        return;
      }
      observedDetailLength = <i32>decodedLength;
    }
  }
  observedTag = tag;
  observed = Observed.OK;
}

/** Whether the field is a safe integer (≥ 0 unless `signed`), then in `integerValue`. */
function readCount(field: i32, signed: bool): bool {
  const c = firstByte(field);
  if (c != MINUS && c - 0x30 > 9) return false;
  if (!isSafeIntegerNumber(fieldStart(field), fieldEnd(field))) return false;
  return signed || integerValue >= 0;
}

function tagOf(text: usize, length: usize): i32 {
  if (isName(text, length, "start")) return ObservationTag.START;
  if (isName(text, length, "result")) return ObservationTag.RESULT;
  if (isName(text, length, "checkpointed")) return ObservationTag.CHECKPOINTED;
  if (isName(text, length, "tick")) return ObservationTag.TICK;
  if (isName(text, length, "cancel")) return ObservationTag.CANCEL;
  return -1;
}
