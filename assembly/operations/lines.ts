/**
 * The `operations` model's line auditor (docs/models/operations.md, "Records" and "Integrity";
 * docs/journals.md for the framing, ../jsonl.ts): each record line is counted, then — unless the
 * fold has stopped — checked (UTF-8 and JSON, json.ts, which hands this auditor the fields it
 * reads in the same pass), its fields checked (integrity.ts), and judged and folded (fold.ts). Memory exhausted on a record stops the audit at its line.
 */

import { LineShape } from "../json";
import { beginFraming, checkLine, consume as consumeFramed, finishFraming, Limit, LINE_NOT_UTF8, LINE_UNCHECKED, lineNumber, scratch } from "../jsonl";
import { resetAll } from "../memory";
import {
  countEvent,
  countFinal,
  limitReached,
  noteIllegal,
  noteTornTail,
  resetReport,
  stopAtIntegrityFault,
  stopAtLimit,
  stopped,
} from "./audit";
import { foldRecord } from "./fold";
import {
  checkFields,
  decodeText,
  faultCompanion,
  faultExpected,
  faultPath,
  faultProblem,
  Integrity,
  kindCode,
  Problem,
  pathOfMember,
  useDecodeBuffer,
} from "./integrity";
import { clearSlots, isPresent, Json, jsonKind, Kind, Path, setSlot, text, textHash, textLength, valueStart } from "./records";
import { Reason } from "./report";
import { useRecord } from "./rules";
import { findEffect, findOp, outOfMemory, resetState } from "./state";

/** Starts a journal: all state is dropped and laid out again. Returns a Limit code. */
export function beginJsonl(skipHeader: bool): i32 {
  resetAll();
  resetReport();
  if (!resetState()) return Limit.MEMORY;
  return beginFraming(skipHeader);
}

/** Audits the complete lines among the `length` bytes the host just wrote. Returns a Limit code. */
export function consume(length: usize): i32 {
  const limit = consumeFramed<OperationsLines>(length);
  return limit != Limit.NONE ? limit : limitReached();
}

/** Ends the journal (the final unterminated line, the `final` counts). Returns a Limit code. */
export function finishJsonl(): i32 {
  finishFraming<OperationsLines>();
  countFinal();
  return limitReached();
}

/** The operations model's line auditor for the framing (see ../jsonl.ts). */
@final
class OperationsLines {
  line(start: usize, end: usize, shape: i32): void {
    const index = countEvent();
    if (stopped) return;
    auditLine(index, shape == LINE_UNCHECKED ? checkLine<OperationsLines>(start, end) : shape);
  }

  // The reader of json.ts: the record's fields and those of its nested objects, into the slots
  // of records.ts (integrity.ts names them).

  // @ts-expect-error: decorator
  @inline
  fieldDepth(): usize {
    return 3; // response.handle.id
  }

  // @ts-expect-error: decorator
  @inline
  clearFields(): void {
    clearSlots(0, Path.COUNT - 1);
  }

  // @ts-expect-error: decorator
  @inline
  member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
    return pathOfMember(depth, parent, keyStart, keyEnd, escaped);
  }

  // @ts-expect-error: decorator
  @inline
  field(path: i32, start: usize, end: usize, escaped: bool): void {
    setSlot(path, start, end, escaped);
  }

  tornTail(line: f64, offset: f64): void {
    noteTornTail(line, offset);
  }

  limit(limit: i32): void {
    stopAtLimit(limit, lineNumber);
  }
}

function malformed(index: f64, problem: i32): void {
  stopAtIntegrityFault(index, lineNumber, Integrity.MALFORMED_EVENT, problem, Path.NONE, 0, Path.NONE, 0, 0);
}

function auditLine(index: f64, shape: i32): void {
  if (shape == LINE_NOT_UTF8) return malformed(index, Problem.INVALID_UTF8);
  if (shape == LineShape.INVALID) return malformed(index, Problem.INVALID_JSON);
  if (shape == LineShape.NOT_AN_OBJECT) return malformed(index, Problem.NOT_AN_OBJECT);
  useDecodeBuffer(scratch);
  if (!isPresent(Path.KIND) || jsonKind(valueStart(Path.KIND)) != Json.STRING) {
    return malformed(index, Problem.KIND_NOT_A_STRING);
  }
  decodeText(Path.KIND);
  const kind = kindCode(text(Path.KIND), textLength(Path.KIND));
  if (kind < 0) {
    return stopAtIntegrityFault(
      index, lineNumber, Integrity.UNKNOWN_KIND, 0, Path.NONE, 0, Path.NONE, text(Path.KIND), textLength(Path.KIND),
    );
  }
  if (!checkFields(kind)) {
    return stopAtIntegrityFault(
      index, lineNumber, Integrity.MALFORMED_EVENT, faultProblem, faultPath, faultExpected, faultCompanion, 0, 0,
    );
  }
  const op: usize = kind == Kind.LEASE ? 0 : findOp(text(Path.OP), textLength(Path.OP), textHash(Path.OP));
  const hasEffect = kind == Kind.INTENT || kind == Kind.SETTLED || kind == Kind.READBACK;
  const effect = hasEffect ? findEffect(text(Path.EFFECT), textLength(Path.EFFECT), textHash(Path.EFFECT)) : 0;
  useRecord(kind, op, effect);
  const reason = foldRecord();
  if (reason != Reason.NONE) noteIllegal(index, lineNumber, kind, reason);
  if (outOfMemory) stopAtLimit(Limit.MEMORY, lineNumber);
}
