/**
 * A data model's line auditor (docs/models/data.md, "Records"; docs/journals.md for the framing,
 * ../jsonl.ts): each record line is counted, then — unless the fold has stopped — checked (UTF-8
 * and JSON, ../json.ts), its kind and the fields its kind reads typed (record.ts), and folded
 * (fold.ts). A record that is not a JSON object, has no string at its kind path, or a field of
 * the wrong type is the journal's integrity fault: the fold stops there.
 */

import { LineShape } from "../json";
import { beginFraming, checkLine, consume as consumeFramed, finishFraming, Limit, LINE_NOT_UTF8, LINE_UNCHECKED, lineNumber, scratch } from "../jsonl";
import { resetJournalRegion } from "../memory";
import { resetAllocation } from "./alloc";
import { finishFold, foldRecord, outOfMemory, resetFold } from "./fold";
import { resetInstances } from "./instances";
import { enterJournal, finishJournals, noteStreamTornTail, resetJournals, splitting, stopStreamAtIntegrityFault } from "./journals";
import { forgetWritten } from "./state-bytes";
import { JournalWord, TableHeader, Width, word } from "./layout";
import { kindNamed } from "./model";
import { beginScan, levels, memberNode, noteValue } from "./paths";
import {
  beginRecord,
  faultField,
  kindLength,
  kindPointer,
  Problem,
  readKind,
  resetDecoded,
  useKeyScratch,
  Typed,
  typeField,
} from "./record";
import {
  countEvent,
  FindingPlace,
  limitReached,
  noteTornTail,
  report,
  resetReport,
  stopAtIntegrityFault,
  stopAtLimit,
  stopped,
} from "./report";

/** Starts a JSONL journal with the loaded model. Returns a Limit code. */
export function beginJsonl(skipHeader: bool): i32 {
  return beginJournal() ? beginFraming(skipHeader) : Limit.MEMORY;
}

/** Lays out a journal's state anew; false when memory is exhausted. */
export function beginJournal(): bool {
  resetJournalRegion();
  resetAllocation();
  resetDecoded();
  forgetWritten();
  return resetReport() && resetInstances() && resetFold() && resetJournals();
}

/** Ends the journal's fold: the instances open at its end (none after an integrity error). Returns a Limit code. */
export function finishJournal(): i32 {
  if (splitting) return finishJournals();
  finishFold();
  return limitReached();
}

/**
 * A record about to be read: its index in an unsplit journal, counted whether or not the fold has
 * stopped; a split stream's record is counted by the journal it is routed to (`auditRecord`).
 */
// @ts-expect-error: decorator
@inline
export function recordIndex(): f64 {
  return splitting ? 0 : countEvent();
}

/** Audits the complete lines among the `length` bytes the host just wrote. Returns a Limit code. */
export function consume(length: usize): i32 {
  const limit = consumeFramed<DataLines>(length);
  return limit != Limit.NONE ? limit : limitReached();
}

/** Ends the journal: the final unterminated line, then the instances open at the end. Returns a Limit code. */
export function finishJsonl(): i32 {
  useKeyScratch(scratch); // the final line is scanned before it is handed over
  finishFraming<DataLines>();
  return finishJournal();
}

/** The data model's line auditor for the framing (see ../jsonl.ts). */
@final
export class DataLines {
  line(start: usize, end: usize, shape: i32): void {
    const index = recordIndex();
    if (stopped) return;
    useKeyScratch(scratch);
    auditRecord(index, lineNumber, shape == LINE_UNCHECKED ? checkLine<DataLines>(start, end) : shape, start, end);
  }

  // The reader of json.ts: the model's paths, a trie of nodes (paths.ts), read in the same pass.

  // @ts-expect-error: decorator
  @inline
  fieldDepth(): usize {
    return levels;
  }

  // @ts-expect-error: decorator
  @inline
  clearFields(): void {
    beginScan();
  }

  // @ts-expect-error: decorator
  @inline
  member(depth: usize, parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
    return memberNode(parent, keyStart, keyEnd, escaped);
  }

  // @ts-expect-error: decorator
  @inline
  field(node: i32, start: usize, end: usize, escaped: bool): void {
    noteValue(node, start, end);
  }

  tornTail(line: f64, offset: f64): void {
    if (splitting) noteStreamTornTail(line, offset);
    else noteTornTail(report, line, offset);
  }

  limit(limit: i32): void {
    stopAtLimit(limit, lineNumber);
  }
}

/**
 * Audits one record: the verdict of its scan (a LineShape, or LINE_NOT_UTF8), then its kind, its
 * fields, its journal (a split stream's, by its key: journals.ts), its fold. `line` is the file's
 * line it starts on.
 */
export function auditRecord(index: f64, line: f64, shape: i32, start: usize, end: usize): void {
  if (shape == LINE_NOT_UTF8) return stopAtFault(index, line, Problem.INVALID_UTF8, -1);
  if (shape == LineShape.INVALID) return stopAtFault(index, line, Problem.INVALID_JSON, -1);
  if (shape == LineShape.NOT_AN_OBJECT) return stopAtFault(index, line, Problem.NOT_AN_OBJECT, -1);
  beginRecord();
  if (!readKind(start, end)) return stopAtFault(index, line, Problem.KIND_NOT_A_STRING, -1);
  const kind = kindNamed(kindPointer, kindLength);
  const checkedAt =
    kind >= 0
      ? word(TableHeader.KINDS_AT) + kind * Width.KIND + 2
      : word(TableHeader.JOURNAL_AT) + JournalWord.CHECKED_COUNT;
  const checked = word(checkedAt);
  const fields = word(checkedAt + 1);
  for (let i = 0; i < checked; i++) {
    const typed = typeField(start, end, word(fields + i));
    if (typed == Typed.NO_MEMORY) return stopAtLimit(Limit.MEMORY, line);
    if (typed == Typed.FAULT) return stopAtFault(index, line, Problem.WRONG_TYPE, faultField);
  }
  if (splitting) {
    index = enterJournal(line);
    if (index < 0) return;
  }
  // Set once the record's journal is active: until then, the place is its last record's.
  FindingPlace.index = index;
  FindingPlace.line = line;
  FindingPlace.kind = kind;
  FindingPlace.spelling = kindPointer;
  FindingPlace.spellingLength = kindLength;
  foldRecord(kind);
  if (outOfMemory) stopAtLimit(Limit.MEMORY, line);
}

/** The record's integrity fault: its journal's, or a split stream's, which stops every journal. */
function stopAtFault(index: f64, line: f64, problem: i32, field: i32): void {
  if (splitting) stopStreamAtIntegrityFault(line, problem, field);
  else stopAtIntegrityFault(index, line, problem, field);
}
