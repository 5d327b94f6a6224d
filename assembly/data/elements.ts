/**
 * The records of a journal that is one JSON document (docs/models/data.md, `records.source`
 * `{"array": PATH}`): the host's reader of the document (src/journal/json-array-source.ts, the
 * reference's own) validates it whole as it streams and hands over each element of the records
 * array with the line it starts on; the element is written into the block `elementRoom` gives and
 * audited as a record (lines.ts) — scanned again, for its paths, and folded. There is no header
 * and no torn tail. Memory holds the largest element, not the document.
 */

import { useContainerStack, scanLine } from "../json";
import { Limit } from "../jsonl";
import { abandon, reserve } from "../memory";
import { auditRecord, beginJournal, DataLines, finishJournal, recordIndex } from "./lines";
import { useKeyScratch } from "./record";
import { limitReached, stopAtLimit, stopped } from "./report";

let element: usize = 0;
let elementScratch: usize = 0;
let elementStack: usize = 0;
let capacity: usize = 0;

/** Starts a journal whose records are an array's elements. Returns a Limit code. */
export function beginElements(): i32 {
  capacity = 0;
  return beginJournal() ? Limit.NONE : Limit.MEMORY;
}

/** Where to write an element of `bytes`; 0 when memory is exhausted (a limit at `line`). */
export function elementRoom(bytes: usize, line: f64): usize {
  if (bytes <= capacity) return element;
  let grown: usize = capacity < 4096 ? 4096 : capacity;
  while (grown < bytes) grown <<= 1;
  const block = reserve(grown);
  const scratch = reserve(grown);
  const stack = reserve((grown >> 3) + 1);
  if (block == 0 || scratch == 0 || stack == 0) {
    stopAtLimit(Limit.MEMORY, line);
    return 0;
  }
  if (capacity > 0) {
    abandon(element, capacity);
    abandon(elementScratch, capacity);
    abandon(elementStack, (capacity >> 3) + 1);
  }
  element = block;
  elementScratch = scratch;
  elementStack = stack;
  capacity = grown;
  return element;
}

/** Audits the element of `length` bytes written at `elementRoom`'s pointer. Returns a Limit code. */
export function auditElement(length: usize, line: f64): i32 {
  const index = recordIndex();
  if (stopped) return limitReached();
  useContainerStack(elementStack);
  useKeyScratch(elementScratch);
  // The document's reader checked UTF-8 and JSON; the scan reads the element's paths.
  auditRecord(index, line, scanLine<DataLines>(element, element + length), element, element + length);
  return limitReached();
}

/** Ends the journal: the instances open at its end. Returns a Limit code. */
export function finishElements(): i32 {
  return finishJournal();
}
