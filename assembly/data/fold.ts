/**
 * One record folded (docs/models/data.md, "Clauses"): first the journal's checks, in their
 * order — the sequence, the monotone fields, the obligations the record before made (`next`,
 * `last`), an unknown kind — then the clauses of the record's kind, one row at a time. A clause
 * that cannot apply is a finding under its rule (unless `else: ignore`) and changes nothing; the
 * record's other clauses still run. The end of the journal: every kept instance outside its
 * entity's `atEnd`, in creation order.
 *
 * Journal state (per journal, in the journal region):
 *   registers      a kept value cell each
 *   counters       16 bytes each: u64 low, i64 high (exact: a counter without `max` may pass i64)
 *   expected       the sequence's next value, 128 bits as the counters
 *   monotone       16 bytes per field: u32 seen, i64 its last present value
 *   obligations    the clause rows (word index) of the record before's `next` and `last`
 *   seen kinds     a byte per kind: a record of it came (`once`)
 */

import { allocate, release } from "./alloc";
import {
  ClauseOpCode,
  ClauseWord,
  ComparisonCode,
  EntityWord,
  int64At,
  JournalWord,
  OperandFrom,
  TableHeader,
  ValueTag,
  Width,
  word,
} from "./layout";
import {
  createInstance,
  entityAt,
  entityOf,
  findInstance,
  firstCreated,
  forgetInstance,
  freeInstance,
  INSTANCE_KEY,
  isKey,
  keyHash,
  moveInstance,
  nextCreated,
  putSlot,
  slotCell,
  stateOf,
} from "./instances";
import { fieldCell } from "./record";
import { FindingPlace, noteFinding, Reason, REPORT_EVENTS, report, stopped } from "./report";
import { putBytes, putF64, putI64, putU32, putValue, readFailed, takeF64, takeI64, takeIndex, takeRaw, takeText, takeU32, takeValue } from "./state-bytes";
import { intOf, keepValue, setAbsent, setInt, setPacked, tagOf, VALUE_BYTES, valuesEqual } from "./values";

export let registers: usize = 0;
export let counters: usize = 0;
let expectedLow: u64 = 0;
let expectedHigh: i64 = 0;
let monotone: usize = 0;
let obligations: usize = 0;
let obligationCount: i32 = 0;
let madeObligations: usize = 0;
let madeCount: i32 = 0;
let seenKinds: usize = 0;
/** Instances `reuse` forgot during the record: freed at its end (they stay current until then). */
let forgotten: usize = 0;
let forgottenCount: i32 = 0;
let current: usize = 0;
/** The last record's unknown kind spelling, kept for a finding at the journal's end. */
let lastSpelling: usize = 0;
let lastSpellingCapacity: usize = 0;
/** Set when memory ran out inside a record; the line auditor stops there. */
export let outOfMemory = false;

const operandCells = memory.data(2 * <i32>VALUE_BYTES, 8);
const absentCell = memory.data(<i32>VALUE_BYTES, 8);

// @ts-expect-error: decorator
@inline
function journalWord(at: i32): i32 {
  return word(word(TableHeader.JOURNAL_AT) + at);
}

/** Lays out a journal's state; false when memory is exhausted. */
export function resetFold(): bool {
  forgotten = allocate(<usize>word(TableHeader.CLAUSES_MAX) * 4 + 4);
  forgottenCount = 0;
  current = 0;
  outOfMemory = false;
  setAbsent(absentCell);
  return forgotten != 0 && newJournalFold();
}

/**
 * Lays out the state of a journal (one more, for a split stream: journals.ts), beside what every
 * journal shares (the record's scratch); false when memory is exhausted.
 */
export function newJournalFold(): bool {
  const registerCount = <usize>word(TableHeader.REGISTER_COUNT);
  const counterCount = <usize>word(TableHeader.COUNTER_COUNT);
  const clausesMax = <usize>word(TableHeader.CLAUSES_MAX);
  registers = allocate(registerCount * VALUE_BYTES + 8);
  counters = allocate(counterCount * 16 + 8);
  monotone = allocate(<usize>journalWord(JournalWord.MONOTONE_COUNT) * 16 + 8);
  obligations = allocate(clausesMax * 4 + 4);
  madeObligations = allocate(clausesMax * 4 + 4);
  seenKinds = allocate(<usize>word(TableHeader.KIND_COUNT) + 8);
  if (registers == 0 || counters == 0 || monotone == 0 || obligations == 0 || madeObligations == 0) return false;
  if (seenKinds == 0) return false;
  memory.fill(registers, 0, registerCount * VALUE_BYTES);
  for (let register: usize = 0; register < registerCount; register++) {
    setPacked(operandCells, word(TableHeader.REGISTERS_AT) + <i32>register * Width.VALUE);
    if (!keepValue(registers + register * VALUE_BYTES, operandCells)) return false;
  }
  memory.fill(counters, 0, counterCount * 16);
  memory.fill(monotone, 0, <usize>journalWord(JournalWord.MONOTONE_COUNT) * 16);
  memory.fill(seenKinds, 0, <usize>word(TableHeader.KIND_COUNT));
  expectedLow = <u64>int64At(word(TableHeader.JOURNAL_AT) + JournalWord.SEQUENCE_START_LOW);
  expectedHigh = int64At(word(TableHeader.JOURNAL_AT) + JournalWord.SEQUENCE_START_LOW) < 0 ? -1 : 0;
  obligationCount = 0;
  madeCount = 0;
  lastSpelling = 0;
  lastSpellingCapacity = 0;
  FindingPlace.index = 0;
  FindingPlace.line = 0;
  FindingPlace.kind = -1;
  FindingPlace.spelling = 0;
  FindingPlace.spellingLength = 0;
  return true;
}

// A journal of a split stream keeps its state in its context (journals.ts): the blocks above, the
// sequence's expectation, the obligations' count, and its last record's place (FindingPlace),
// which its end's findings are made at.

export const FOLD_CONTEXT_BYTES: usize = 80;

export function saveFoldContext(at: usize): void {
  store<u32>(at, <u32>registers);
  store<u32>(at, <u32>counters, 4);
  store<u32>(at, <u32>monotone, 8);
  store<u32>(at, <u32>obligations, 12);
  store<i32>(at, obligationCount, 16);
  store<u32>(at, <u32>madeObligations, 20);
  store<u32>(at, <u32>seenKinds, 24);
  store<u32>(at, <u32>lastSpelling, 28);
  store<u32>(at, <u32>lastSpellingCapacity, 32);
  store<i32>(at, FindingPlace.kind, 36);
  store<u64>(at, expectedLow, 40);
  store<i64>(at, expectedHigh, 48);
  store<f64>(at, FindingPlace.index, 56);
  store<f64>(at, FindingPlace.line, 64);
  store<u32>(at, <u32>FindingPlace.spelling, 72);
  store<u32>(at, <u32>FindingPlace.spellingLength, 76);
}

export function loadFoldContext(at: usize): void {
  registers = <usize>load<u32>(at);
  counters = <usize>load<u32>(at, 4);
  monotone = <usize>load<u32>(at, 8);
  obligations = <usize>load<u32>(at, 12);
  obligationCount = load<i32>(at, 16);
  madeObligations = <usize>load<u32>(at, 20);
  seenKinds = <usize>load<u32>(at, 24);
  lastSpelling = <usize>load<u32>(at, 28);
  lastSpellingCapacity = <usize>load<u32>(at, 32);
  FindingPlace.kind = load<i32>(at, 36);
  expectedLow = load<u64>(at, 40);
  expectedHigh = load<i64>(at, 48);
  FindingPlace.index = load<f64>(at, 56);
  FindingPlace.line = load<f64>(at, 64);
  FindingPlace.spelling = <usize>load<u32>(at, 72);
  FindingPlace.spellingLength = <usize>load<u32>(at, 76);
}

/** Folds the record whose fields are read (record.ts); `kind` is -1 when the model has none of its spelling. */
export function foldRecord(kind: i32): void {
  checkSequence();
  checkMonotone();
  checkObligations(kind);
  obligationCount = 0;
  const knownKindsRule = journalWord(JournalWord.KNOWN_KINDS_RULE);
  if (kind < 0 && knownKindsRule >= 0) noteFinding(knownKindsRule, Reason.UNKNOWN_KIND, -1, 0);
  current = 0;
  if (kind >= 0) runClauses(kind);
  endRecord(kind);
}

function endRecord(kind: i32): void {
  if (kind >= 0) store<u8>(seenKinds + <usize>kind, 1);
  for (let i = 0; i < forgottenCount; i++) freeInstance(<usize>load<u32>(forgotten + (<usize>i << 2)));
  forgottenCount = 0;
  const swap = obligations;
  obligations = madeObligations;
  madeObligations = swap;
  obligationCount = madeCount;
  madeCount = 0;
  if (kind < 0) keepLastSpelling();
}

function keepLastSpelling(): void {
  const length = FindingPlace.spellingLength;
  if (length > lastSpellingCapacity) {
    const block = allocate(length);
    if (block == 0) {
      outOfMemory = true;
      return;
    }
    release(lastSpelling, lastSpellingCapacity);
    lastSpelling = block;
    lastSpellingCapacity = length;
  }
  memory.copy(lastSpelling, FindingPlace.spelling, length);
  FindingPlace.spelling = lastSpelling;
}

// The journal's checks, before the kind's clauses.

function checkSequence(): void {
  const journal = word(TableHeader.JOURNAL_AT);
  if (word(journal + JournalWord.HAS_SEQUENCE) == 0) return;
  const cell = fieldCell(word(journal + JournalWord.SEQUENCE_FIELD));
  const present = tagOf(cell) == ValueTag.INT;
  const value = intOf(cell);
  if (!present || <u64>value != expectedLow || (value < 0 ? -1 : 0) != expectedHigh) {
    noteFinding(word(journal + JournalWord.SEQUENCE_RULE), Reason.OUT_OF_SEQUENCE, -1, 0);
  }
  if (present) {
    expectedLow = <u64>value;
    expectedHigh = value < 0 ? -1 : 0;
  }
  const step = int64At(journal + JournalWord.SEQUENCE_STEP_LOW);
  const low = expectedLow + <u64>step;
  expectedHigh += (step < 0 ? -1 : 0) + (low < expectedLow ? 1 : 0);
  expectedLow = low;
}

function checkMonotone(): void {
  const journal = word(TableHeader.JOURNAL_AT);
  const count = word(journal + JournalWord.MONOTONE_COUNT);
  const fields = word(journal + JournalWord.MONOTONE_AT);
  for (let i = 0; i < count; i++) {
    const cell = fieldCell(word(fields + i * 2));
    if (tagOf(cell) != ValueTag.INT) continue;
    const value = intOf(cell);
    const last = monotone + (<usize>i << 4);
    const previous = load<i64>(last, 8);
    const strict = word(fields + i * 2 + 1) != 0;
    if (load<u32>(last) != 0 && (strict ? value <= previous : value < previous)) {
      noteFinding(word(journal + JournalWord.MONOTONE_RULE), Reason.NOT_INCREASING, -1, 0);
    }
    store<u32>(last, 1);
    store<i64>(last, value, 8);
  }
}

function checkObligations(kind: i32): void {
  for (let i = 0; i < obligationCount; i++) {
    const clause = load<i32>(obligations + (<usize>i << 2));
    const rule = word(clause + ClauseWord.RULE);
    if (word(clause + ClauseWord.OP) == ClauseOpCode.LAST) {
      noteFinding(rule, Reason.AFTER_LAST, -1, 0);
    } else if (!isAmong(kind, word(clause + ClauseWord.C), word(clause + ClauseWord.B))) {
      noteFinding(rule, Reason.UNEXPECTED_KIND, -1, 0);
    }
  }
}

/** Whether `value` is among the `count` words from `at`. */
function isAmong(value: i32, at: i32, count: i32): bool {
  for (let i = 0; i < count; i++) {
    if (word(at + i) == value) return true;
  }
  return false;
}

// The kind's clauses.

function runClauses(kind: i32): void {
  const kindAt = word(TableHeader.KINDS_AT) + kind * Width.KIND;
  const count = word(kindAt);
  const rows = word(kindAt + 1);
  for (let i = 0; i < count && !outOfMemory; i++) {
    runClause(rows + i * Width.CLAUSE, kind);
  }
}

function runClause(clause: i32, kind: i32): void {
  const op = word(clause + ClauseWord.OP);
  if (op <= ClauseOpCode.NEED) {
    instanceClause(clause, op);
  } else if (op == ClauseOpCode.PUT) {
    put(clause);
  } else if (op == ClauseOpCode.CHECK) {
    const left = operand(clause + ClauseWord.OPERAND_1, operandCells);
    const right = operand(clause + ClauseWord.OPERAND_2, operandCells + VALUE_BYTES);
    if (!compare(word(clause + ClauseWord.A), left, right)) fail(clause, Reason.CHECK_FAILED, -1, 0);
  } else if (op == ClauseOpCode.COUNT) {
    count(clause);
  } else if (op == ClauseOpCode.NEXT || op == ClauseOpCode.LAST) {
    if (word(clause + ClauseWord.ELSE_IGNORE) == 0) {
      store<i32>(madeObligations + (<usize>madeCount << 2), clause);
      madeCount++;
    }
  } else if (op == ClauseOpCode.FIRST) {
    if (FindingPlace.index != 0) fail(clause, Reason.NOT_FIRST, -1, 0);
  } else if (load<u8>(seenKinds + <usize>kind) != 0) {
    fail(clause, Reason.REPEATED, -1, 0); // once
  }
}

function fail(clause: i32, reason: i32, entity: i32, key: usize): void {
  if (word(clause + ClauseWord.ELSE_IGNORE) == 0) noteFinding(word(clause + ClauseWord.RULE), reason, entity, key);
}

/** The cell an operand's value is in: a field's, a slot's, a register's, or `scratch` set to it. */
function operand(at: i32, scratch: usize): usize {
  const from = word(at);
  if (from == OperandFrom.FIELD) return fieldCell(word(at + 1));
  if (from == OperandFrom.SLOT) return current == 0 ? absentCell : slotCell(current, word(at + 1));
  if (from == OperandFrom.REGISTER) return registers + <usize>word(at + 1) * VALUE_BYTES;
  if (from == OperandFrom.INDEX) setInt(scratch, <i64>FindingPlace.index);
  else setPacked(scratch, at + 1);
  return scratch;
}

/** new, step and need: the instance their key names; it becomes the current one when they apply. */
function instanceClause(clause: i32, op: i32): void {
  const entity = word(clause + ClauseWord.A);
  const key = operand(clause + ClauseWord.OPERAND_1, operandCells);
  current = 0;
  if (!isKey(key)) return fail(clause, Reason.MISSING_KEY, entity, 0); // a bool is no key: none is named
  const hash = keyHash(key);
  const found = findInstance(entity, key, hash);
  if (op == ClauseOpCode.NEW) {
    if (found != 0) return fail(clause, Reason.DUPLICATE, entity, key);
    const created = createInstance(entity, key, hash, word(clause + ClauseWord.B));
    if (created == 0) {
      outOfMemory = true;
      return;
    }
    current = created;
    forgetIfDone(created);
    return;
  }
  if (found == 0) return fail(clause, Reason.MISSING, entity, key);
  const place = placeIn(stateOf(found), word(clause + ClauseWord.C), word(clause + ClauseWord.B));
  if (place < 0) return fail(clause, Reason.WRONG_STATE, entity, key);
  current = found;
  if (op == ClauseOpCode.STEP) {
    moveInstance(found, word(word(clause + ClauseWord.D) + place));
    forgetIfDone(found);
  }
}

/** Where `value` is among the `count` words from `at`, or -1. */
function placeIn(value: i32, at: i32, count: i32): i32 {
  for (let i = 0; i < count; i++) {
    if (word(at + i) == value) return i;
  }
  return -1;
}

/** An instance of a `reuse` entity that reached a final state is forgotten (freed at the record's end). */
function forgetIfDone(instance: usize): void {
  const entityAtWord = entityAt(entityOf(instance));
  if (word(entityAtWord + EntityWord.REUSE) == 0) return;
  if (word(word(entityAtWord + EntityWord.FINAL_AT) + stateOf(instance)) == 0) return;
  forgetInstance(instance);
  store<u32>(forgotten + (<usize>forgottenCount << 2), <u32>instance);
  forgottenCount++;
}

function put(clause: i32): void {
  const value = operand(clause + ClauseWord.OPERAND_1, operandCells);
  const target = word(clause + ClauseWord.B);
  let kept: bool;
  if (word(clause + ClauseWord.A) == 0) {
    if (current == 0) return fail(clause, Reason.NO_INSTANCE, -1, 0);
    kept = putSlot(current, target, value);
  } else {
    kept = keepValue(registers + <usize>target * VALUE_BYTES, value);
  }
  if (!kept) outOfMemory = true;
}

function compare(comparison: i32, left: usize, right: usize): bool {
  if (comparison == ComparisonCode.EQUAL) return valuesEqual(left, right);
  if (comparison == ComparisonCode.NOT_EQUAL) return !valuesEqual(left, right);
  if (tagOf(left) != ValueTag.INT || tagOf(right) != ValueTag.INT) return false;
  const a = intOf(left);
  const b = intOf(right);
  if (comparison == ComparisonCode.LESS) return a < b;
  if (comparison == ComparisonCode.LESS_OR_EQUAL) return a <= b;
  if (comparison == ComparisonCode.GREATER) return a > b;
  return a >= b;
}

/** `count`: applies when 0 ≤ value + by ≤ max (128-bit sums: exact for any i64 `by`). */
function count(clause: i32): void {
  const counter = word(clause + ClauseWord.A);
  const cell = counters + (<usize>counter << 4);
  const by = int64At(clause + ClauseWord.B);
  const low = load<u64>(cell);
  const sumLow = low + <u64>by;
  const sumHigh = load<i64>(cell, 8) + (by < 0 ? -1 : 0) + (sumLow < low ? 1 : 0);
  const counterAt = word(TableHeader.COUNTERS_AT) + counter * Width.COUNTER;
  const aboveMax = word(counterAt) != 0 && (sumHigh > 0 || (sumHigh == 0 && sumLow > <u64>int64At(counterAt + 1)));
  if (sumHigh < 0 || aboveMax) return fail(clause, Reason.LIMIT, -1, 0);
  store<u64>(cell, sumLow);
  store<i64>(cell, sumHigh, 8);
}

/** A journal ends: its instances open at its end, unless it has no record or its fold stopped. */
export function finishFold(): void {
  if (!stopped && load<f64>(report + REPORT_EVENTS) > 0) checkAtEnd();
}

/** At the journal's end (its last record is FindingPlace's): every kept instance outside its entity's `atEnd`. */
function checkAtEnd(): void {
  for (let instance = firstCreated; instance != 0; instance = nextCreated(instance)) {
    const entity = entityOf(instance);
    const at = entityAt(entity);
    const atEnd = word(at + EntityWord.AT_END_AT);
    if (atEnd < 0 || word(atEnd + stateOf(instance)) != 0) continue;
    noteFinding(word(at + EntityWord.AT_END_RULE), Reason.OPEN_AT_END, entity, instance + INSTANCE_KEY);
  }
}


// The journal state as a snapshot's part (state-bytes.ts), taken between records.

export function writeFoldState(): void {
  putI64(<i64>expectedLow);
  putI64(expectedHigh);
  const registerCount = <usize>word(TableHeader.REGISTER_COUNT);
  for (let register: usize = 0; register < registerCount; register++) putValue(registers + register * VALUE_BYTES);
  putBytes(counters, <usize>word(TableHeader.COUNTER_COUNT) << 4);
  putBytes(monotone, <usize>journalWord(JournalWord.MONOTONE_COUNT) << 4);
  putBytes(seenKinds, <usize>word(TableHeader.KIND_COUNT));
  putU32(<u32>obligationCount);
  for (let i = 0; i < obligationCount; i++) putU32(load<u32>(obligations + (<usize>i << 2)));
  putF64(FindingPlace.index);
  putF64(FindingPlace.line);
  putU32(<u32>FindingPlace.kind);
  if (FindingPlace.kind >= 0) return;
  putU32(<u32>FindingPlace.spellingLength);
  putBytes(FindingPlace.spelling, FindingPlace.spellingLength);
}

/** Reads the journal state back into the freshly begun journal; false when it does not hold. */
export function readFoldState(): bool {
  expectedLow = <u64>takeI64();
  expectedHigh = takeI64();
  const registerCount = <usize>word(TableHeader.REGISTER_COUNT);
  for (let register: usize = 0; register < registerCount; register++) {
    takeValue(operandCells);
    if (readFailed || !keepValue(registers + register * VALUE_BYTES, operandCells)) return false;
  }
  if (!takeInto(counters, <usize>word(TableHeader.COUNTER_COUNT) << 4)) return false;
  if (!takeInto(monotone, <usize>journalWord(JournalWord.MONOTONE_COUNT) << 4)) return false;
  if (!takeInto(seenKinds, <usize>word(TableHeader.KIND_COUNT))) return false;
  obligationCount = <i32>takeIndex(<u32>word(TableHeader.CLAUSES_MAX) + 1);
  for (let i = 0; i < obligationCount; i++) {
    const clause = <i32>takeU32();
    if (!isObligingClause(clause)) return false;
    store<i32>(obligations + (<usize>i << 2), clause);
  }
  FindingPlace.index = takeF64();
  FindingPlace.line = takeF64();
  FindingPlace.kind = <i32>takeU32();
  if (FindingPlace.kind < -1 || FindingPlace.kind >= word(TableHeader.KIND_COUNT)) return false;
  if (FindingPlace.kind >= 0) return !readFailed;
  FindingPlace.spellingLength = <usize>takeU32();
  FindingPlace.spelling = takeText(FindingPlace.spellingLength);
  if (readFailed) return false;
  keepLastSpelling();
  return !outOfMemory;
}

function takeInto(block: usize, bytes: usize): bool {
  const at = takeRaw(bytes);
  if (readFailed) return false;
  memory.copy(block, at, bytes);
  return true;
}

/** Whether `clause` is the row of a `next` or `last` clause of some kind (an obligation). */
function isObligingClause(clause: i32): bool {
  const kinds = word(TableHeader.KIND_COUNT);
  for (let kind = 0; kind < kinds; kind++) {
    const kindAt = word(TableHeader.KINDS_AT) + kind * Width.KIND;
    const rows = word(kindAt + 1);
    const offset = clause - rows;
    if (offset < 0 || offset >= word(kindAt) * Width.CLAUSE || offset % Width.CLAUSE != 0) continue;
    const op = word(clause + ClauseWord.OP);
    return op == ClauseOpCode.NEXT || op == ClauseOpCode.LAST;
  }
  return false;
}
