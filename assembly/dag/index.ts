/**
 * The kernel's exports: numbers and pointers only, so the host needs no loader glue. A session
 * is: `prepareDag` + write the packed DAG + `loadDag` (or `prepareHeader` + write the header line
 * + `loadHeader`), then per journal either
 * `beginJsonl` / (`writePointer`, `writeCapacity`, `consume`)* / `finishJsonl`, or
 * `beginRecords` / (`recordRoom`, `foldRecords`)* / `finishRecords`; then read the report block
 * and the node columns.
 */

import { Limit, report } from "./audit";
import { loadPackedDag, nodeCount, packedDagBytes } from "./dag";
import { loadHeaderDag } from "./header";
import { setHashKey } from "../hash";
import { reserve, resetAll, sealModelRegion } from "../memory";
import {
  depositPhaseAt,
  modeAt,
  phaseAt,
  statusAt,
  validationAt,
} from "./state";

export {
  adoptRestoredReport,
  ILLEGAL_ENTRY_BYTES,
  nextTampered,
  REPORT_EVENTS,
  REPORT_BYTES,
  REPORT_ILLEGAL,
  REPORT_ILLEGAL_LIST,
  REPORT_ILLEGAL_LISTED,
  REPORT_INTEGRITY_DETAIL,
  REPORT_INTEGRITY_INDEX,
  REPORT_INTEGRITY_LINE,
  REPORT_INTEGRITY_REASON,
  REPORT_STATUS_COUNTS,
  REPORT_STEP_INVARIANTS,
  REPORT_SUBJECT_LENGTH,
  REPORT_SUBJECT_POINTER,
  REPORT_TORN_TAIL_LINE,
  REPORT_TORN_TAIL_OFFSET,
  STEP_INVARIANT_BYTES,
} from "./audit";
export { beginJsonl, consume, finishJsonl } from "./lines";
export {
  isHeaderPending,
  LINE_BYTES_MAX,
  prefixBytes,
  prefixLineNumber,
  resumeJsonlAt,
  writeCapacity,
  writePointer,
} from "../jsonl";
export {
  RESTORE_DUPLICATE_PATH,
  RESTORE_MEMORY,
  RESTORED,
  restorePaths,
  restoreRoom,
  restoreSurfaces,
} from "./snapshot";
export { nodeStatesPointer } from "./state";
export {
  pathCountNow,
  pathPointer,
  pathStartsPointer,
  surfaceLengthsPointer,
  surfaceMalformedPointer,
  surfaceArenaPointer,
  surfaceStartsPointer,
} from "./surface";
export { beginRecords, finishRecords, foldRecords, recordRoom } from "./records";

let packedDag: usize = 0;

export function useHashKey(k0: u64, k1: u64): void {
  setHashKey(k0, k1);
}

/** Drops all state and reserves room for a packed DAG of these counts; 0 when memory is exhausted. */
export function prepareDag(nodes: u32, edges: u32, idBytes: u32): usize {
  resetAll();
  packedDag = reserve(packedDagBytes(nodes, edges, idBytes));
  return packedDag;
}

/** Adopts the packed DAG the host wrote; returns a Limit code. */
export function loadDag(): i32 {
  if (!loadPackedDag(packedDag)) return Limit.MEMORY;
  sealModelRegion();
  return Limit.NONE;
}

export { headerModel, prepareHeader } from "../header";

/**
 * Builds the DAG of the header line the host wrote at `prepareHeader`'s pointer, as `loadDag`
 * adopts a packed one; false, and no DAG is loaded, when the host must read the header itself.
 */
export function loadHeader(): bool {
  if (!loadHeaderDag()) return false;
  sealModelRegion();
  return true;
}

/** Where node `node`'s id lies in memory (WTF-8), and its length: for a host that did not write the DAG. */
export { idLength as nodeIdLength, idPointer as nodeIdPointer } from "./dag";

export function reportPointer(): usize {
  return report;
}

export function nodes(): i32 {
  return nodeCount;
}

export function nodeStatus(node: i32): u8 {
  return load<u8>(statusAt(node));
}
export function nodePhase(node: i32): u32 {
  return load<u32>(phaseAt(node));
}
export function nodeValidation(node: i32): u8 {
  return load<u8>(validationAt(node));
}
export function nodeMode(node: i32): u8 {
  return load<u8>(modeAt(node));
}
export function nodeDepositPhase(node: i32): u32 {
  return load<u32>(depositPhaseAt(node));
}
