/**
 * A data model's journal state as bytes, for snapshots and resume (bindings/data/engine.ts):
 * `snapshotState` writes the report, the journal's state and its instances (each part writes
 * its own: report.ts, fold.ts, instances.ts, through state-bytes.ts); `restoreState` reads them
 * into a freshly begun journal through the same functions the fold uses. A snapshot is input:
 * every count, index and string is checked, and one that does not hold is refused.
 *
 *   u32 SNAPSHOT_MAGIC, the report, the journal's state, the instances
 */

import { reserve } from "../memory";
import { allocationFailed } from "./alloc";
import { readFoldState, writeFoldState } from "./fold";
import { readInstances, writeInstances } from "./instances";
import { readReport, writeReport } from "./report";
import { beginReading, beginWriting, putU32, readAll, takeU32, writtenLength, writtenPointer } from "./state-bytes";

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
  writeReport();
  writeFoldState();
  writeInstances();
  return writtenPointer();
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
  if (readReport() && readFoldState() && readInstances() && readAll()) return Restored.OK;
  return allocationFailed ? Restored.MEMORY : Restored.INVALID;
}
