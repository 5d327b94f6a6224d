/**
 * The audit of one journal (docs/models/operations.md, "The report"; mirrors
 * src/models/operations/audit.ts): each record is read (integrity), judged and folded in order;
 * an integrity fault stops the fold there. The verdicts accumulate in the report block the
 * bindings read (bindings/operations/read-report.ts).
 *
 * Report block (offsets exported by index.ts; f64 holds integers exactly up to 2^53):
 *   0    f64  events
 *   8    f64  integrity index, -1 when none
 *   16   f64  integrity line
 *   24   i32  integrity reason (Integrity), -1 when none
 *   28   i32  problem (Problem)
 *   32   i32  field (Path)
 *   36   i32  expected type (FieldType)
 *   40   i32  companion (Path)
 *   44   u32  unknown kind's text pointer (decoded, WTF-8)
 *   48   u32  its length
 *   52   i32  limit (Limit), 0 when none
 *   56   f64  the line the limit was reached at
 *   64   f64  torn tail line, 0 when none
 *   72   f64  torn tail byte offset
 *   80   f64  illegal records
 *   88   i32  illegal records listed
 *   96   final, f64 each: operations running, cancelled, completed, failed, aborted; steps
 *        pending, ok, failed, retryWait, unknown; effects; strands
 *   192  rules, FINDING_BYTES each (Rule order): their first breach, index -1 while it holds
 *   768  listed illegal records, FINDING_BYTES each
 * A finding, FINDING_BYTES:
 *   0  f64 index   8 f64 line   16 i32 kind   20 i32 reason
 *   24 u32 subject pointer (the op, or a lease's strand)   28 u32 subject length
 *   32 u32 effect pointer   36 u32 effect length   40 i32 flags (FindingFlag)
 */

import { Limit } from "../jsonl";
import { reserve } from "../memory";
import { keep } from "./alloc";
import { Integrity } from "./integrity";
import { Kind, Path, text, textLength } from "./records";
import { Rule, ruleOf } from "./report";
import { effectsReserved, operationCount, OpCount, stepCount, StepStatus, strandsNamed } from "./state";

export const REPORT_EVENTS: usize = 0;
export const REPORT_INTEGRITY_INDEX: usize = 8;
export const REPORT_INTEGRITY_LINE: usize = 16;
export const REPORT_INTEGRITY_REASON: usize = 24;
export const REPORT_INTEGRITY_PROBLEM: usize = 28;
export const REPORT_INTEGRITY_FIELD: usize = 32;
export const REPORT_INTEGRITY_EXPECTED: usize = 36;
export const REPORT_INTEGRITY_COMPANION: usize = 40;
export const REPORT_INTEGRITY_KIND_POINTER: usize = 44;
export const REPORT_INTEGRITY_KIND_LENGTH: usize = 48;
export const REPORT_LIMIT: usize = 52;
export const REPORT_LIMIT_LINE: usize = 56;
export const REPORT_TORN_TAIL_LINE: usize = 64;
export const REPORT_TORN_TAIL_OFFSET: usize = 72;
export const REPORT_ILLEGAL: usize = 80;
export const REPORT_ILLEGAL_LISTED: usize = 88;
export const REPORT_FINAL: usize = 96;
const FINAL_COUNTS: i32 = 12;
export const REPORT_RULES: usize = REPORT_FINAL + 8 * <usize>FINAL_COUNTS;
export const FINDING_BYTES: usize = 48;
export const REPORT_ILLEGAL_LIST: usize = REPORT_RULES + FINDING_BYTES * <usize>Rule.COUNT;
/** Mirrors ILLEGAL_RECORDS_LISTED_MAX. */
export const ILLEGAL_RECORDS_LISTED_MAX: i32 = 10;
export const REPORT_BYTES: usize = REPORT_ILLEGAL_LIST + FINDING_BYTES * <usize>ILLEGAL_RECORDS_LISTED_MAX;

export namespace FindingFlag {
  export const STRAND: i32 = 1;
  export const EFFECT: i32 = 2;
}

export const report = memory.data(<i32>REPORT_BYTES, 8);

/** Set once the fold has stopped at an integrity fault or a limit; later records are only counted. */
export let stopped = false;

export function resetReport(): void {
  memory.fill(report, 0, REPORT_BYTES);
  store<f64>(report + REPORT_INTEGRITY_INDEX, -1);
  store<i32>(report + REPORT_INTEGRITY_REASON, Integrity.NONE);
  for (let rule = 0; rule < Rule.COUNT; rule++) {
    store<f64>(report + REPORT_RULES + <usize>rule * FINDING_BYTES, -1);
  }
  stopped = false;
}

/** A restored snapshot's: whether its fold had stopped (snapshot.ts). */
export function adoptStopped(flag: bool): void {
  stopped = flag;
}

export function countEvent(): f64 {
  const index = load<f64>(report + REPORT_EVENTS);
  store<f64>(report + REPORT_EVENTS, index + 1);
  return index;
}

export function stopAtLimit(limit: i32, line: f64): void {
  stopped = true;
  if (load<i32>(report + REPORT_LIMIT) != Limit.NONE) return;
  store<i32>(report + REPORT_LIMIT, limit);
  store<f64>(report + REPORT_LIMIT_LINE, line);
}

export function limitReached(): i32 {
  return load<i32>(report + REPORT_LIMIT);
}

export function noteTornTail(line: f64, offset: f64): void {
  store<f64>(report + REPORT_TORN_TAIL_LINE, line);
  store<f64>(report + REPORT_TORN_TAIL_OFFSET, offset);
}

/**
 * Records an integrity fault and stops the fold. An unknown kind's text is copied (it lies in
 * the line buffer, which the next chunk overwrites).
 */
export function stopAtIntegrityFault(
  index: f64, line: f64, reason: i32, problem: i32, field: i32, expected: i32, companion: i32,
  kindText: usize, kindLength: usize,
): void {
  stopped = true;
  store<f64>(report + REPORT_INTEGRITY_INDEX, index);
  store<f64>(report + REPORT_INTEGRITY_LINE, line);
  store<i32>(report + REPORT_INTEGRITY_REASON, reason);
  store<i32>(report + REPORT_INTEGRITY_PROBLEM, problem);
  store<i32>(report + REPORT_INTEGRITY_FIELD, field);
  store<i32>(report + REPORT_INTEGRITY_EXPECTED, expected);
  store<i32>(report + REPORT_INTEGRITY_COMPANION, companion);
  if (reason != Integrity.UNKNOWN_KIND) return;
  const copy = reserve(kindLength);
  if (copy == 0) return stopAtLimit(Limit.MEMORY, line);
  memory.copy(copy, kindText, kindLength);
  store<u32>(report + REPORT_INTEGRITY_KIND_POINTER, <u32>copy);
  store<u32>(report + REPORT_INTEGRITY_KIND_LENGTH, <u32>kindLength);
}

/** A copy of the bytes the report keeps; false when memory is exhausted. */
function keepCopy(finding: usize, offset: usize, from: usize, length: usize): bool {
  const copy = keep(length);
  if (copy == 0) return false;
  memory.copy(copy, from, length);
  store<u32>(finding + offset, <u32>copy);
  store<u32>(finding + offset + 4, <u32>length);
  return true;
}

function writeFinding(finding: usize, index: f64, line: f64, kind: i32, reason: i32): bool {
  store<f64>(finding, index);
  store<f64>(finding, line, 8);
  store<i32>(finding, kind, 16);
  store<i32>(finding, reason, 20);
  let flags = 0;
  const subject = kind == Kind.LEASE ? Path.STRAND : Path.OP;
  if (kind == Kind.LEASE) flags |= FindingFlag.STRAND;
  if (!keepCopy(finding, 24, text(subject), textLength(subject))) return false;
  if (kind == Kind.INTENT || kind == Kind.SETTLED || kind == Kind.READBACK) {
    flags |= FindingFlag.EFFECT;
    if (!keepCopy(finding, 32, text(Path.EFFECT), textLength(Path.EFFECT))) return false;
  }
  store<i32>(finding, flags, 40);
  return true;
}

/** Counts an illegal record; the first breach of its rule, and one of the first ten, are noted. */
export function noteIllegal(index: f64, line: f64, kind: i32, reason: i32): void {
  store<f64>(report + REPORT_ILLEGAL, load<f64>(report + REPORT_ILLEGAL) + 1);
  const rule = report + REPORT_RULES + <usize>ruleOf(reason) * FINDING_BYTES;
  if (load<f64>(rule) < 0 && !writeFinding(rule, index, line, kind, reason)) return stopAtLimit(Limit.MEMORY, line);
  const listed = load<i32>(report + REPORT_ILLEGAL_LISTED);
  if (listed >= ILLEGAL_RECORDS_LISTED_MAX) return;
  const entry = report + REPORT_ILLEGAL_LIST + <usize>listed * FINDING_BYTES;
  if (!writeFinding(entry, index, line, kind, reason)) return stopAtLimit(Limit.MEMORY, line);
  store<i32>(report + REPORT_ILLEGAL_LISTED, listed + 1);
}

/** The `final` counts, over the state the fold reached. */
export function countFinal(): void {
  const at = report + REPORT_FINAL;
  for (let i = 0; i < OpCount.COUNT; i++) store<f64>(at + <usize>i * 8, <f64>operationCount(i));
  for (let i = 0; i < StepStatus.COUNT; i++) store<f64>(at + <usize>(OpCount.COUNT + i) * 8, <f64>stepCount(i));
  store<f64>(at + 80, <f64>effectsReserved());
  store<f64>(at + 88, <f64>strandsNamed());
}
