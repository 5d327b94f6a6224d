/**
 * The audit of an `executive` journal (docs/models/executive.md, "The journal and its audit";
 * mirrors src/models/executive/audit.ts): every line's observation is stepped through the machine
 * and the decision the host recorded must equal the machine's as JSON values — key order aside,
 * an extra key a difference. After a mismatch the replay goes on from the machine's own state; a
 * line that is no observation-and-decision object stops it there. The verdicts accumulate in the
 * report block the bindings read (bindings/executive/read-report.ts).
 *
 * Report block (offsets exported by index.ts; f64 holds integers exactly up to 2^53):
 *   0   f64 events            8  f64 integrity index, -1 when none   16 f64 its line
 *   24  i32 its Problem       28 i32 limit (Limit), 0 when none      32 f64 the limit's line
 *   40  f64 torn tail line, 0 when none                             48 f64 its byte offset
 *   56  f64 decisionsMatch's first breach, -1 while it holds        64 f64 its line
 *   72  f64 terminalRespected's first breach, -1 while it holds     80 f64 its line
 *   88  f64 mismatches        96 i32 mismatches listed
 *   104 the listed mismatches, MISMATCH_BYTES each:
 *       0 f64 index  8 f64 line  16 i32 expected tag (DecisionTag)  20 i32 reason  24 i32 budget
 *       28 i32 step  32 f64 seq  40 f64 attempt  48 u32 recorded decision's JSON text (pointer)
 *       52 u32 its length  56 i32 sub-plan steps on the path  64 i32 × FRAMES_MAX those steps
 */

import { isName, scannedEscape, scanString, skipWhitespace } from "../json";
import { Limit as Framing } from "../jsonl";
import { integerValue, isSafeIntegerNumber } from "../number";
import { reserve } from "../memory";
import { decisionHasStranger, Field, fieldEnd, fieldStart, firstByte, isPresent } from "./fields";
import { decodedLength, decodeField, decodeText } from "./observation";
import { Kind, stepIdLength, stepIdPointer, stepKind } from "./spec";
import { FailReason, frameAt, frameCount, frameSubStep, FRAMES_MAX } from "./state";
import { decisionAttempt, decisionBudget, decisionReason, decisionSeq, decisionStep, decisionTag, DecisionTag } from "./step";

export const REPORT_EVENTS: usize = 0;
export const REPORT_INTEGRITY_INDEX: usize = 8;
export const REPORT_INTEGRITY_LINE: usize = 16;
export const REPORT_INTEGRITY_PROBLEM: usize = 24;
export const REPORT_LIMIT: usize = 28;
export const REPORT_LIMIT_LINE: usize = 32;
export const REPORT_TORN_TAIL_LINE: usize = 40;
export const REPORT_TORN_TAIL_OFFSET: usize = 48;
export const REPORT_DECISIONS_MATCH: usize = 56;
export const REPORT_TERMINAL_RESPECTED: usize = 72;
export const REPORT_MISMATCHES: usize = 88;
export const REPORT_MISMATCHES_LISTED: usize = 96;
export const REPORT_MISMATCH_LIST: usize = 104;
export const MISMATCH_BYTES: usize = 64 + 4 * <usize>FRAMES_MAX;
const LISTED_MAX: i32 = 10;
export const REPORT_BYTES: usize = REPORT_MISMATCH_LIST + MISMATCH_BYTES * <usize>LISTED_MAX;

/** Why a line is no observation and its decision, in the reference's order. */
export namespace Problem {
  export const INVALID_UTF8: i32 = 0;
  export const INVALID_JSON: i32 = 1;
  export const NOT_AN_OBJECT: i32 = 2;
  export const NO_OBSERVATION: i32 = 3;
  export const NO_DECISION: i32 = 4;
  export const DECISION_NOT_AN_OBJECT: i32 = 5;
}

export const report = memory.data(<i32>REPORT_BYTES, 8);
/** Set once an integrity fault or a limit stops the replay. */
export let stopped = false;

export function resetReport(): void {
  memory.fill(report, 0, REPORT_BYTES);
  store<f64>(report + REPORT_INTEGRITY_INDEX, -1);
  store<f64>(report + REPORT_DECISIONS_MATCH, -1);
  store<f64>(report + REPORT_TERMINAL_RESPECTED, -1);
  stopped = false;
}

/** Counts a line as an event; returns its index. */
export function countEvent(): f64 {
  const index = load<f64>(report + REPORT_EVENTS);
  store<f64>(report + REPORT_EVENTS, index + 1);
  return index;
}

export function stopAtIntegrityFault(index: f64, line: f64, problem: i32): void {
  store<f64>(report + REPORT_INTEGRITY_INDEX, index);
  store<f64>(report + REPORT_INTEGRITY_LINE, line);
  store<i32>(report + REPORT_INTEGRITY_PROBLEM, problem);
  stopped = true;
}

export function stopAtLimit(limit: i32, line: f64): void {
  if (load<i32>(report + REPORT_LIMIT) != Framing.NONE) return;
  store<i32>(report + REPORT_LIMIT, limit);
  store<f64>(report + REPORT_LIMIT_LINE, line);
  stopped = true;
}

export function limitReached(): i32 {
  return load<i32>(report + REPORT_LIMIT);
}

export function noteTornTail(line: f64, offset: f64): void {
  store<f64>(report + REPORT_TORN_TAIL_LINE, line);
  store<f64>(report + REPORT_TORN_TAIL_OFFSET, offset);
}

/** Judges the decision just made against the line's recorded one; `wasTerminal`: the state was before the step. */
export function judgeDecision(index: f64, line: f64, wasTerminal: bool): void {
  if (recordedMatches()) return;
  const mismatches = load<f64>(report + REPORT_MISMATCHES);
  store<f64>(report + REPORT_MISMATCHES, mismatches + 1);
  if (load<f64>(report + REPORT_DECISIONS_MATCH) < 0) {
    store<f64>(report + REPORT_DECISIONS_MATCH, index);
    store<f64>(report + REPORT_DECISIONS_MATCH + 8, line);
  }
  if (wasTerminal && load<f64>(report + REPORT_TERMINAL_RESPECTED) < 0) {
    store<f64>(report + REPORT_TERMINAL_RESPECTED, index);
    store<f64>(report + REPORT_TERMINAL_RESPECTED + 8, line);
  }
  const listed = load<i32>(report + REPORT_MISMATCHES_LISTED);
  if (listed < LISTED_MAX) listMismatch(listed, index, line);
}

function listMismatch(listed: i32, index: f64, line: f64): void {
  const start = fieldStart(Field.DECISION);
  const length = fieldEnd(Field.DECISION) - start;
  const recorded = reserve(length);
  if (recorded == 0) return stopAtLimit(Framing.MEMORY, line);
  memory.copy(recorded, start, length);
  const at = report + REPORT_MISMATCH_LIST + <usize>listed * MISMATCH_BYTES;
  store<f64>(at, index);
  store<f64>(at, line, 8);
  store<i32>(at, decisionTag, 16);
  store<i32>(at, decisionReason, 20);
  store<i32>(at, decisionBudget, 24);
  store<i32>(at, decisionStep, 28);
  store<f64>(at, <f64>decisionSeq, 32);
  store<f64>(at, <f64>decisionAttempt, 40);
  store<u32>(at, <u32>recorded, 48);
  store<u32>(at, <u32>length, 52);
  const subPlans = frameCount() - 1;
  store<i32>(at, subPlans, 56);
  for (let i = 0; i < subPlans; i++) store<i32>(at + 64 + (<usize>i << 2), frameSubStep(frameAt(i + 1)));
  store<i32>(report + REPORT_MISMATCHES_LISTED, listed + 1);
}

// @ts-expect-error: decorator
@inline
function bit(field: i32): i32 {
  return 1 << field;
}

/** The members the machine's decision has, as bits of Field. */
function expectedMembers(): i32 {
  const tagAndSeq = bit(Field.DECISION_TAG) | bit(Field.DECISION_SEQ);
  if (decisionTag == DecisionTag.EXECUTE) {
    return tagAndSeq | bit(Field.DECISION_PATH) | bit(Field.DECISION_EFFECT) | bit(Field.DECISION_ATTEMPT);
  }
  if (decisionTag == DecisionTag.REJECT) return bit(Field.DECISION_TAG) | bit(Field.DECISION_REASON);
  if (decisionTag != DecisionTag.FAIL) return tagAndSeq;
  const reason = tagAndSeq | bit(Field.DECISION_REASON);
  return decisionReason == FailReason.BUDGET_EXHAUSTED ? reason | bit(Field.DECISION_BUDGET) : reason;
}

/** Whether the recorded decision equals the machine's as a JSON value. */
function recordedMatches(): bool {
  if (decisionHasStranger) return false;
  const expected = expectedMembers();
  let present = 0;
  for (let field = Field.DECISION_TAG; field <= Field.DECISION_BUDGET; field++) if (isPresent(field)) present |= bit(field);
  if (present != expected) return false;
  if (!isString(Field.DECISION_TAG, tagName(decisionTag))) return false;
  if ((expected & bit(Field.DECISION_SEQ)) != 0 && !isInteger(Field.DECISION_SEQ, decisionSeq)) return false;
  if ((expected & bit(Field.DECISION_REASON)) != 0) {
    const reason = decisionTag == DecisionTag.REJECT ? rejectReasonName(decisionReason) : failReasonName(decisionReason);
    if (!isString(Field.DECISION_REASON, reason)) return false;
  }
  if ((expected & bit(Field.DECISION_BUDGET)) != 0 && !isString(Field.DECISION_BUDGET, budgetName(decisionBudget))) return false;
  if (decisionTag != DecisionTag.EXECUTE) return true;
  return (
    isString(Field.DECISION_EFFECT, effectName(stepKind(decisionStep))) &&
    isInteger(Field.DECISION_ATTEMPT, decisionAttempt) &&
    isExpectedPath()
  );
}

function isString(field: i32, name: string): bool {
  if (firstByte(field) != 0x22) return false;
  const text = decodeField(field);
  return isName(text, decodedLength, name);
}

function isInteger(field: i32, value: i64): bool {
  const c = firstByte(field);
  if (c != 0x2d && c - 0x30 > 9) return false;
  return isSafeIntegerNumber(fieldStart(field), fieldEnd(field)) && integerValue == value;
}

/** Whether the recorded `path` is the array of the frames' sub-plan step ids, then the effect step's. */
function isExpectedPath(): bool {
  if (firstByte(Field.DECISION_PATH) != 0x5b) return false;
  const end = fieldEnd(Field.DECISION_PATH);
  let at = fieldStart(Field.DECISION_PATH) + 1;
  const count = frameCount();
  for (let i = 1; i <= count; i++) {
    const step = i < count ? frameSubStep(frameAt(i)) : decisionStep;
    at = skipWhitespace(at, end);
    if (load<u8>(at) != 0x22) return false;
    const after = scanString(at, end);
    if (!isIdAt(at + 1, after - 1, scannedEscape, step)) return false;
    at = skipWhitespace(after, end);
    if (load<u8>(at) != (i < count ? 0x2c : 0x5d)) return false;
    at++;
  }
  return true;
}

function isIdAt(start: usize, end: usize, escaped: bool, step: i32): bool {
  const text = decodeText(start, end, escaped);
  return decodedLength == stepIdLength(step) && memory.compare(text, stepIdPointer(step), decodedLength) == 0;
}

function tagName(tag: i32): string {
  switch (tag) {
    case DecisionTag.EXECUTE: return "execute";
    case DecisionTag.CHECKPOINT: return "checkpoint";
    case DecisionTag.WAIT: return "wait";
    case DecisionTag.COMPLETE: return "complete";
    case DecisionTag.FAIL: return "fail";
    default: return "reject";
  }
}

function rejectReasonName(reason: i32): string {
  switch (reason) {
    case 0: return "invalid-state";
    case 1: return "terminal";
    case 2: return "malformed-observation";
    case 3: return "unknown-tag";
    case 4: return "oversized";
    case 5: return "already-started";
    case 6: return "not-started";
    case 7: return "stale-decision";
    default: return "clock-regressed";
  }
}

function failReasonName(reason: i32): string {
  switch (reason) {
    case FailReason.CANCELLED: return "cancelled";
    case FailReason.DEADLINE: return "deadline";
    case FailReason.EFFECT_FAILED: return "effect-failed";
    default: return "budget-exhausted";
  }
}

function budgetName(budget: i32): string {
  switch (budget) {
    case 0: return "steps";
    case 1: return "modelCalls";
    case 2: return "toolCalls";
    case 3: return "contextOps";
    case 4: return "retries";
    case 5: return "outputBytes";
    default: return "depth";
  }
}

function effectName(kind: i32): string {
  if (kind == Kind.MODEL) return "model";
  if (kind == Kind.TOOL) return "tool";
  return "context";
}


// Resuming an audit from a snapshot (the host checks the block it hands back).

/** Takes the report block from the REPORT_BYTES at `from`, as a snapshot kept it. */
export function restoreReport(from: usize): void {
  memory.copy(report, from, REPORT_BYTES);
  stopped = load<f64>(report + REPORT_INTEGRITY_INDEX) >= 0 || load<i32>(report + REPORT_LIMIT) != Framing.NONE;
}

/** Room for listed mismatch `listed`'s recorded decision of `length` bytes; 0 when memory cannot grow. */
export function recordedRoom(listed: i32, length: usize): usize {
  const room = reserve(length);
  if (room == 0) return 0;
  const at = report + REPORT_MISMATCH_LIST + <usize>listed * MISMATCH_BYTES;
  store<u32>(at, <u32>room, 48);
  store<u32>(at, <u32>length, 52);
  return room;
}
