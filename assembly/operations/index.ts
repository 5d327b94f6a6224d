/**
 * The `operations` kernel's exports (docs/models/operations.md): numbers and pointers only, so
 * the host needs no loader glue. A journal is `beginJsonl` / (`writePointer`, `writeCapacity`,
 * `consume`)* / `finishJsonl`; then the host reads the report block (audit.ts).
 */

import { setHashKey } from "../hash";
import { setMemoryCeiling } from "../memory";
import { report } from "./audit";

export {
  FINDING_BYTES,
  REPORT_BYTES,
  REPORT_EVENTS,
  REPORT_FINAL,
  REPORT_ILLEGAL,
  REPORT_ILLEGAL_LIST,
  REPORT_ILLEGAL_LISTED,
  REPORT_INTEGRITY_COMPANION,
  REPORT_INTEGRITY_EXPECTED,
  REPORT_INTEGRITY_FIELD,
  REPORT_INTEGRITY_INDEX,
  REPORT_INTEGRITY_KIND_LENGTH,
  REPORT_INTEGRITY_KIND_POINTER,
  REPORT_INTEGRITY_LINE,
  REPORT_INTEGRITY_PROBLEM,
  REPORT_INTEGRITY_REASON,
  REPORT_LIMIT,
  REPORT_LIMIT_LINE,
  REPORT_RULES,
  REPORT_TORN_TAIL_LINE,
  REPORT_TORN_TAIL_OFFSET,
} from "./audit";
export {
  isHeaderPending,
  LINE_BYTES_MAX,
  prefixBytes,
  prefixLineNumber,
  resumeJsonlAt,
  writeCapacity,
  writePointer,
} from "../jsonl";
export { restoreRoom, restoreState, snapshotLength, snapshotState } from "./snapshot";
export { beginJsonl, consume, finishJsonl } from "./lines";

export function useHashKey(k0: u64, k1: u64): void {
  setHashKey(k0, k1);
}

/** Caps the module's memory below its 4 GiB maximum (for tests of the memory limit). */
export function limitMemory(pages: i32): void {
  setMemoryCeiling(pages);
}

export function reportPointer(): usize {
  return report;
}
