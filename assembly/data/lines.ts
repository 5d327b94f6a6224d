/**
 * A data model's line auditor (docs/models/data.md, "Records"; docs/journals.md for the framing,
 * ../jsonl.ts): each record line is counted, then — unless the fold has stopped — checked (UTF-8
 * and JSON, ../json.ts), its kind and the fields its kind reads typed (record.ts), and folded
 * (fold.ts). A record that is not a JSON object, has no string at its kind path, or a field of
 * the wrong type is the journal's integrity fault: the fold stops there.
 */

import { LineShape, NO_FIELD } from "../json";
import { beginFraming, checkLine, consume as consumeFramed, finishFraming, Limit, LINE_NOT_UTF8, LINE_UNCHECKED, lineNumber } from "../jsonl";
import { resetJournalRegion } from "../memory";
import { resetAllocation } from "./alloc";
import { checkAtEnd, foldRecord, outOfMemory, resetFold } from "./fold";
import { resetInstances } from "./instances";
import { forgetWritten } from "./state-bytes";
import { JournalWord, TableHeader, Width, word } from "./layout";
import { kindNamed } from "./model";
import {
  beginRecord,
  faultField,
  kindLength,
  kindPointer,
  Problem,
  readKind,
  resetDecoded,
  Typed,
  typeField,
} from "./record";
import {
  countEvent,
  FindingPlace,
  limitReached,
  noteTornTail,
  REPORT_EVENTS,
  report,
  resetReport,
  stopAtIntegrityFault,
  stopAtLimit,
  stopped,
} from "./report";

/** Starts a journal with the loaded model: its state laid out anew. Returns a Limit code. */
export function beginJsonl(skipHeader: bool): i32 {
  resetJournalRegion();
  resetAllocation();
  resetDecoded();
  forgetWritten();
  if (!resetReport() || !resetInstances() || !resetFold()) return Limit.MEMORY;
  return beginFraming(skipHeader);
}

/** Audits the complete lines among the `length` bytes the host just wrote. Returns a Limit code. */
export function consume(length: usize): i32 {
  const limit = consumeFramed<DataLines>(length);
  return limit != Limit.NONE ? limit : limitReached();
}

/** Ends the journal: the final unterminated line, then the instances open at the end. Returns a Limit code. */
export function finishJsonl(): i32 {
  finishFraming<DataLines>();
  if (!stopped && load<f64>(report + REPORT_EVENTS) > 0) checkAtEnd();
  return limitReached();
}

/** The data model's line auditor for the framing (see ../jsonl.ts). */
@final
class DataLines {
  line(start: usize, end: usize, shape: i32): void {
    const index = countEvent();
    if (stopped) return;
    auditLine(index, shape == LINE_UNCHECKED ? checkLine<DataLines>(start, end) : shape, start, end);
  }

  // The reader of json.ts: the line is only validated here; record.ts walks the paths after.

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
    return NO_FIELD;
  }

  // @ts-expect-error: decorator
  @inline
  field(field: i32, start: usize, end: usize, escaped: bool): void {}

  tornTail(line: f64, offset: f64): void {
    noteTornTail(line, offset);
  }

  limit(limit: i32): void {
    stopAtLimit(limit, lineNumber);
  }
}

function malformed(index: f64, problem: i32): void {
  stopAtIntegrityFault(index, lineNumber, problem, -1);
}

function auditLine(index: f64, shape: i32, start: usize, end: usize): void {
  if (shape == LINE_NOT_UTF8) return malformed(index, Problem.INVALID_UTF8);
  if (shape == LineShape.INVALID) return malformed(index, Problem.INVALID_JSON);
  if (shape == LineShape.NOT_AN_OBJECT) return malformed(index, Problem.NOT_AN_OBJECT);
  auditRecord(index, start, end);
}

/** Audits one record: its kind, its fields, its fold. */
export function auditRecord(index: f64, start: usize, end: usize): void {
  beginRecord();
  if (!readKind(start, end)) return malformed(index, Problem.KIND_NOT_A_STRING);
  const kind = kindNamed(kindPointer, kindLength);
  FindingPlace.index = index;
  FindingPlace.line = lineNumber;
  FindingPlace.kind = kind;
  FindingPlace.spelling = kindPointer;
  FindingPlace.spellingLength = kindLength;
  const checkedAt =
    kind >= 0
      ? word(TableHeader.KINDS_AT) + kind * Width.KIND + 2
      : word(TableHeader.JOURNAL_AT) + JournalWord.CHECKED_COUNT;
  const checked = word(checkedAt);
  const fields = word(checkedAt + 1);
  for (let i = 0; i < checked; i++) {
    const typed = typeField(start, end, word(fields + i));
    if (typed == Typed.NO_MEMORY) return stopAtLimit(Limit.MEMORY, lineNumber);
    if (typed == Typed.FAULT) {
      return stopAtIntegrityFault(index, lineNumber, Problem.WRONG_TYPE, faultField);
    }
  }
  foldRecord(kind);
  if (outOfMemory) stopAtLimit(Limit.MEMORY, lineNumber);
}
