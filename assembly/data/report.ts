/**
 * The report block of a data model's journal (docs/models/data.md, "The report"), which the host
 * reads (bindings/data/read-report.ts); its size follows the model's rules, so it is reserved per
 * journal (`reportPointer`).
 *
 *   0    f64  events
 *   8    f64  integrity index, -1 when none
 *   16   f64  integrity line
 *   24   i32  problem (record.ts Problem)
 *   28   i32  the field of another type, -1 when none
 *   32   i32  limit (Limit), 0 when none
 *   40   f64  the line the limit was reached at
 *   48   f64  torn tail line, 0 when none
 *   56   f64  torn tail byte offset
 *   64   f64  findings (illegal)
 *   72   i32  findings listed
 *   80   per rule, FINDING_BYTES: its first finding, index -1 while it holds
 *   then the first ILLEGAL_LISTED_MAX findings, FINDING_BYTES each
 *
 * A finding, FINDING_BYTES:
 *   0  f64 index   8 f64 line   16 i32 rule   20 i32 reason   24 i32 kind (-1: unknown, its
 *   spelling at 48)   28 i32 entity (-1: none)   32 the key (a kept value cell, absent when
 *   none)   48 u32 an unknown kind's spelling (kept): pointer   52 u32 its length
 */

import { Limit } from "../jsonl";
import { reserve } from "../memory";
import { allocate } from "./alloc";
import { TableHeader, ValueTag, word } from "./layout";
import { putBytes, putF64, putU32, putValue, readFailed, takeF64, takeIndex, takeRaw, takeText, takeU32, takeValue } from "./state-bytes";
import { keepValue, setAbsent } from "./values";

export namespace Reason {
  export const MISSING_KEY: i32 = 0;
  export const DUPLICATE: i32 = 1;
  export const MISSING: i32 = 2;
  export const WRONG_STATE: i32 = 3;
  export const NO_INSTANCE: i32 = 4;
  export const CHECK_FAILED: i32 = 5;
  export const LIMIT: i32 = 6;
  export const UNEXPECTED_KIND: i32 = 7;
  export const NOT_FIRST: i32 = 8;
  export const REPEATED: i32 = 9;
  export const AFTER_LAST: i32 = 10;
  export const UNKNOWN_KIND: i32 = 11;
  export const OUT_OF_SEQUENCE: i32 = 12;
  export const NOT_INCREASING: i32 = 13;
  export const OPEN_AT_END: i32 = 14;
}

const REASON_COUNT: i32 = 15;

export const REPORT_EVENTS: usize = 0;
export const REPORT_INTEGRITY_INDEX: usize = 8;
export const REPORT_INTEGRITY_LINE: usize = 16;
export const REPORT_INTEGRITY_PROBLEM: usize = 24;
export const REPORT_INTEGRITY_FIELD: usize = 28;
export const REPORT_LIMIT: usize = 32;
export const REPORT_LIMIT_LINE: usize = 40;
export const REPORT_TORN_TAIL_LINE: usize = 48;
export const REPORT_TORN_TAIL_OFFSET: usize = 56;
export const REPORT_ILLEGAL: usize = 64;
export const REPORT_ILLEGAL_LISTED: usize = 72;
export const REPORT_RULES: usize = 80;
export const FINDING_BYTES: usize = 56;
export const ILLEGAL_LISTED_MAX: i32 = 10;

/** A finding's words. */
export namespace FindingWord {
  export const INDEX: usize = 0;
  export const LINE: usize = 8;
  export const RULE: usize = 16;
  export const REASON: usize = 20;
  export const KIND: usize = 24;
  export const ENTITY: usize = 28;
  export const KEY: usize = 32;
  export const SPELLING_POINTER: usize = 48;
  export const SPELLING_LENGTH: usize = 52;
}

export let report: usize = 0;
let listAt: usize = 0;

/** Set once the fold has stopped at an integrity fault or a limit; later records are only counted. */
export let stopped = false;

/** Reserves the journal's report block; false when memory is exhausted. */
export function resetReport(): bool {
  stopped = false;
  return newJournalReport();
}

/** Reserves a journal's report block (one more, for a split stream: journals.ts); false when memory is exhausted. */
export function newJournalReport(): bool {
  const rules = <usize>word(TableHeader.RULE_COUNT);
  const bytes = REPORT_RULES + (rules + <usize>ILLEGAL_LISTED_MAX) * FINDING_BYTES;
  report = reserve(bytes);
  if (report == 0) return false;
  memory.fill(report, 0, bytes);
  store<f64>(report + REPORT_INTEGRITY_INDEX, -1);
  store<i32>(report + REPORT_INTEGRITY_PROBLEM, -1);
  store<i32>(report + REPORT_INTEGRITY_FIELD, -1);
  for (let rule: usize = 0; rule < rules; rule++) store<f64>(report + REPORT_RULES + rule * FINDING_BYTES, -1);
  listAt = REPORT_RULES + rules * FINDING_BYTES;
  return true;
}

export function reportListAt(): usize {
  return listAt;
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

/** Notes the stream's torn tail in the report block `block`. */
export function noteTornTail(block: usize, line: f64, offset: f64): void {
  store<f64>(block + REPORT_TORN_TAIL_LINE, line);
  store<f64>(block + REPORT_TORN_TAIL_OFFSET, offset);
}

/** Records the record's integrity fault (a record.ts Problem, and the field it names or -1) and stops the fold. */
export function stopAtIntegrityFault(index: f64, line: f64, problem: i32, field: i32): void {
  noteIntegrityFault(report, index, line, problem, field);
}

/** Records an integrity fault in the report block `block` and stops the fold. */
export function noteIntegrityFault(block: usize, index: f64, line: f64, problem: i32, field: i32): void {
  stopped = true;
  store<f64>(block + REPORT_INTEGRITY_INDEX, index);
  store<f64>(block + REPORT_INTEGRITY_LINE, line);
  store<i32>(block + REPORT_INTEGRITY_PROBLEM, problem);
  store<i32>(block + REPORT_INTEGRITY_FIELD, field);
}

// A journal of a split stream keeps its report block in its context (journals.ts).

export const REPORT_CONTEXT_BYTES: usize = 4;

export function saveReportContext(at: usize): void {
  store<u32>(at, <u32>report);
}

export function loadReportContext(at: usize): void {
  report = <usize>load<u32>(at);
}

/** Where a finding is made: the record's place and kind (its spelling when the kind is unknown). */
export class FindingPlace {
  static index: f64 = 0;
  static line: f64 = 0;
  static kind: i32 = -1;
  static spelling: usize = 0;
  static spellingLength: usize = 0;
}

function writeFinding(finding: usize, rule: i32, reason: i32, entity: i32, key: usize): bool {
  store<f64>(finding + FindingWord.INDEX, FindingPlace.index);
  store<f64>(finding + FindingWord.LINE, FindingPlace.line);
  store<i32>(finding + FindingWord.RULE, rule);
  store<i32>(finding + FindingWord.REASON, reason);
  store<i32>(finding + FindingWord.KIND, FindingPlace.kind);
  store<i32>(finding + FindingWord.ENTITY, entity);
  setAbsent(finding + FindingWord.KEY);
  if (key != 0 && !keepValue(finding + FindingWord.KEY, key)) return false;
  if (FindingPlace.kind >= 0) return true;
  const length = FindingPlace.spellingLength;
  const copy = allocate(length);
  if (copy == 0) return false;
  memory.copy(copy, FindingPlace.spelling, length);
  store<u32>(finding + FindingWord.SPELLING_POINTER, <u32>copy);
  store<u32>(finding + FindingWord.SPELLING_LENGTH, <u32>length);
  return true;
}

/**
 * A finding at the current record: counted, the first of its rule noted, one of the first ten
 * listed. `entity` is -1 and `key` 0 when the finding names none.
 */
export function noteFinding(rule: i32, reason: i32, entity: i32, key: usize): void {
  store<f64>(report + REPORT_ILLEGAL, load<f64>(report + REPORT_ILLEGAL) + 1);
  const first = report + REPORT_RULES + <usize>rule * FINDING_BYTES;
  const keyCell = key != 0 && load<u32>(key) != ValueTag.ABSENT ? key : 0;
  if (load<f64>(first) < 0 && !writeFinding(first, rule, reason, entity, keyCell)) {
    return stopAtLimit(Limit.MEMORY, FindingPlace.line);
  }
  const listed = load<i32>(report + REPORT_ILLEGAL_LISTED);
  if (listed >= ILLEGAL_LISTED_MAX) return;
  if (!writeFinding(report + listAt + <usize>listed * FINDING_BYTES, rule, reason, entity, keyCell)) {
    return stopAtLimit(Limit.MEMORY, FindingPlace.line);
  }
  store<i32>(report + REPORT_ILLEGAL_LISTED, listed + 1);
}


// The report as a snapshot's part (state-bytes.ts): its counts as they lie, then each finding.

export function writeReport(): void {
  const rules = <usize>word(TableHeader.RULE_COUNT);
  putU32(<u32>rules);
  putBytes(report, REPORT_RULES);
  const listed = <usize>load<i32>(report + REPORT_ILLEGAL_LISTED);
  for (let rule: usize = 0; rule < rules; rule++) writeFindingState(report + REPORT_RULES + rule * FINDING_BYTES);
  for (let i: usize = 0; i < listed; i++) writeFindingState(report + listAt + i * FINDING_BYTES);
}

function writeFindingState(finding: usize): void {
  putF64(load<f64>(finding + FindingWord.INDEX));
  if (load<f64>(finding + FindingWord.INDEX) < 0) return;
  putF64(load<f64>(finding + FindingWord.LINE));
  putU32(load<u32>(finding + FindingWord.RULE));
  putU32(load<u32>(finding + FindingWord.REASON));
  putU32(load<u32>(finding + FindingWord.KIND));
  putU32(load<u32>(finding + FindingWord.ENTITY));
  putValue(finding + FindingWord.KEY);
  if (load<i32>(finding + FindingWord.KIND) >= 0) return;
  const length = <usize>load<u32>(finding + FindingWord.SPELLING_LENGTH);
  putU32(<u32>length);
  putBytes(<usize>load<u32>(finding + FindingWord.SPELLING_POINTER), length);
}

/** Reads the report back into the freshly begun journal's block; false when it does not hold. */
export function readReport(): bool {
  const rules = <usize>word(TableHeader.RULE_COUNT);
  if (takeU32() != <u32>rules) return false;
  const counts = takeRaw(REPORT_RULES);
  if (readFailed) return false;
  memory.copy(report, counts, REPORT_RULES);
  const listed = load<i32>(report + REPORT_ILLEGAL_LISTED);
  if (listed < 0 || listed > ILLEGAL_LISTED_MAX || load<i32>(report + REPORT_LIMIT) != Limit.NONE) return false;
  for (let rule: usize = 0; rule < rules; rule++) {
    if (!readFindingState(report + REPORT_RULES + rule * FINDING_BYTES, <i32>rule, false)) return false;
  }
  for (let i: usize = 0; i < <usize>listed; i++) {
    if (!readFindingState(report + listAt + i * FINDING_BYTES, -1, true)) return false;
  }
  stopped = load<f64>(report + REPORT_INTEGRITY_INDEX) >= 0;
  return true;
}

/** One finding: a rule's first (`rule` its slot's), or a listed one. */
function readFindingState(finding: usize, rule: i32, listed: bool): bool {
  const index = takeF64();
  store<f64>(finding + FindingWord.INDEX, index);
  if (index < 0) return !readFailed && !listed;
  store<f64>(finding + FindingWord.LINE, takeF64());
  const ruleOfFinding = <i32>takeIndex(<u32>word(TableHeader.RULE_COUNT));
  if (!listed && ruleOfFinding != rule) return false;
  store<i32>(finding + FindingWord.RULE, ruleOfFinding);
  store<i32>(finding + FindingWord.REASON, <i32>takeIndex(<u32>REASON_COUNT));
  const kind = <i32>takeU32();
  const entity = <i32>takeU32();
  if (kind < -1 || kind >= word(TableHeader.KIND_COUNT) || entity < -1 || entity >= word(TableHeader.ENTITY_COUNT)) return false;
  store<i32>(finding + FindingWord.KIND, kind);
  store<i32>(finding + FindingWord.ENTITY, entity);
  takeValue(keyCell);
  setAbsent(finding + FindingWord.KEY);
  if (readFailed || !keepValue(finding + FindingWord.KEY, keyCell)) return false;
  if (kind >= 0) return true;
  const length = <usize>takeU32();
  const text = takeText(length);
  if (readFailed) return false;
  const copy = allocate(length);
  if (copy == 0) return false;
  memory.copy(copy, text, length);
  store<u32>(finding + FindingWord.SPELLING_POINTER, <u32>copy);
  store<u32>(finding + FindingWord.SPELLING_LENGTH, <u32>length);
  return true;
}

const keyCell = memory.data(16, 8);
