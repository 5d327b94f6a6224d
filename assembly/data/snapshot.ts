/**
 * A data model's journal state as bytes, for snapshots and resume (bindings/data/engine.ts):
 * `snapshotState` writes the report, the journal's state and its instances (each part writes
 * its own: report.ts, fold.ts, instances.ts, through state-bytes.ts); `restoreState` reads them
 * into a freshly begun journal through the same functions the fold uses. A snapshot is input:
 * every count, index and string is checked, and one that does not hold is refused.
 *
 *   u32 SNAPSHOT_MAGIC, the report, the journal's state, the instances
 *
 * A stream split by `journal.key` (journals.ts) writes every journal's: after the magic, u32 the
 * count of journals, then per journal in order of first appearance its key (a value; absent for
 * the one report of a stream in which no journal began) and its report, state and instances.
 */

import { reserve } from "../memory";
import { allocationFailed } from "./alloc";
import { readFoldState, writeFoldState } from "./fold";
import { readInstances, writeInstances } from "./instances";
import { activeJournal, journalCount, journalKeyPointer, restoreJournal, splitting, useJournal } from "./journals";
import { readReport, stopped, writeReport } from "./report";
import { beginReading, beginWriting, putU32, putValue, readAll, readFailed, takeU32, takeValue, writtenLength, writtenPointer } from "./state-bytes";

const SNAPSHOT_MAGIC: u32 = 0x53444653; // "SFDS"

export namespace Restored {
  export const OK: i32 = 0;
  export const INVALID: i32 = 1;
  export const MEMORY: i32 = 2;
}

/** Writes the state; its pointer, or 0 when memory is exhausted. */
export function snapshotState(): usize {
  beginWriting();
  putU32(SNAPSHOT_MAGIC);
  if (splitting) writeJournals();
  else writeJournal();
  return writtenPointer();
}

function writeJournal(): void {
  writeReport();
  writeFoldState();
  writeInstances();
}

/** A split stream's (journals.ts): the count of journals, then each one's key and state. */
function writeJournals(): void {
  const count = journalCount();
  const left = activeJournal();
  putU32(count);
  for (let journal: u32 = 0; journal < count; journal++) {
    useJournal(journal);
    putValue(journalKeyPointer());
    writeJournal();
  }
  useJournal(left);
}

export function snapshotLength(): usize {
  return writtenLength();
}

/** Room for a snapshot's state of `bytes` (after `beginJsonl`); 0 when memory is exhausted. */
export function restoreRoom(bytes: usize): usize {
  return reserve(bytes);
}

/** Restores the state written at `restoreRoom`'s pointer: a Restored code. */
export function restoreState(pointer: usize, length: usize): i32 {
  beginReading(pointer, length);
  if (takeU32() != SNAPSHOT_MAGIC) return Restored.INVALID;
  if ((splitting ? readJournals() : readJournal()) && readAll()) return Restored.OK;
  return allocationFailed ? Restored.MEMORY : Restored.INVALID;
}

function readJournal(): bool {
  return readReport() && readFoldState() && readInstances();
}

/** Every journal of a split stream; they stopped together (an integrity error) or not at all. */
function readJournals(): bool {
  const count = takeU32();
  if (readFailed || count == 0) return false;
  let stoppedAll = false;
  for (let journal: u32 = 0; journal < count; journal++) {
    takeValue(restoredKey);
    if (readFailed || !restoreJournal(journal, restoredKey) || !readJournal()) return false;
    if (journal == 0) stoppedAll = stopped;
    else if (stopped != stoppedAll) return false;
  }
  return true;
}

const restoredKey = memory.data(16, 8);
