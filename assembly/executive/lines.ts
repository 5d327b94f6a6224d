/**
 * The `executive` model's line auditor (docs/models/executive.md, "The journal and its audit";
 * docs/journals.md for the framing, ../jsonl.ts): each line is counted, then — unless the replay
 * has stopped — checked (UTF-8 and JSON, json.ts, which hands this auditor the fields it reads in
 * the same pass), its observation stepped through the machine and the recorded decision judged.
 */

import { LineShape } from "../json";
import { beginFraming, checkLine, consume as consumeFramed, finishFraming, Limit, LINE_NOT_UTF8, LINE_UNCHECKED, lineNumber, scratch } from "../jsonl";
import { resetJournalRegion } from "../memory";
import { countEvent, judgeDecision, limitReached, noteTornTail, Problem, resetReport, stopAtIntegrityFault, stopAtLimit, stopped } from "./audit";
import { clearFields, Field, fieldOfMember, firstByte, isPresent, setField } from "./fields";
import { readObservation, useDecodeBuffer } from "./observation";
import { Field as StateField, i32At, resetState, Status } from "./state";
import { stepState } from "./step";

/** Starts a journal from the ready state of the loaded spec. Returns a Limit code. */
export function beginJsonl(skipHeader: bool): i32 {
  resetJournalRegion();
  resetReport();
  resetState();
  return beginFraming(skipHeader);
}

/** Audits the complete lines among the `length` bytes the host just wrote. Returns a Limit code. */
export function consume(length: usize): i32 {
  const limit = consumeFramed<ExecutiveLines>(length);
  return limit != Limit.NONE ? limit : limitReached();
}

/** Ends the journal (the final unterminated line). Returns a Limit code. */
export function finishJsonl(): i32 {
  finishFraming<ExecutiveLines>();
  return limitReached();
}

/** The executive model's line auditor for the framing (see ../jsonl.ts). */
@final
class ExecutiveLines {
  line(start: usize, end: usize, shape: i32): void {
    const index = countEvent();
    if (stopped) return;
    auditLine(index, shape == LINE_UNCHECKED ? checkLine<ExecutiveLines>(start, end) : shape);
  }

  // The reader of json.ts: `observation`, `decision` and their members (fields.ts).

  // @ts-expect-error: decorator
  @inline
  fieldDepth(): usize {
    return 2;
  }

  // @ts-expect-error: decorator
  @inline
  clearFields(): void {
    clearFields();
  }

  // @ts-expect-error: decorator
  @inline
  member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
    return fieldOfMember(depth, parent, keyStart, keyEnd, escaped);
  }

  // @ts-expect-error: decorator
  @inline
  field(field: i32, start: usize, end: usize, escaped: bool): void {
    setField(field, start, end, escaped);
  }

  tornTail(line: f64, offset: f64): void {
    noteTornTail(line, offset);
  }

  limit(limit: i32): void {
    stopAtLimit(limit, lineNumber);
  }
}

function auditLine(index: f64, shape: i32): void {
  const line = lineNumber;
  if (shape == LINE_NOT_UTF8) return stopAtIntegrityFault(index, line, Problem.INVALID_UTF8);
  if (shape == LineShape.INVALID) return stopAtIntegrityFault(index, line, Problem.INVALID_JSON);
  if (shape == LineShape.NOT_AN_OBJECT) return stopAtIntegrityFault(index, line, Problem.NOT_AN_OBJECT);
  if (!isPresent(Field.OBSERVATION)) return stopAtIntegrityFault(index, line, Problem.NO_OBSERVATION);
  if (!isPresent(Field.DECISION)) return stopAtIntegrityFault(index, line, Problem.NO_DECISION);
  if (firstByte(Field.DECISION) != 0x7b) return stopAtIntegrityFault(index, line, Problem.DECISION_NOT_AN_OBJECT);
  useDecodeBuffer(scratch);
  const status = i32At(StateField.STATUS);
  readObservation();
  stepState();
  judgeDecision(index, line, status == Status.COMPLETED || status == Status.FAILED);
}
