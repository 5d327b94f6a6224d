/**
 * The data kernel's exports (docs/models/data.md): numbers and pointers only. A model is
 * `prepareModel` (the host writes its packed table there, bindings/data/pack-model.ts) and
 * `loadModel`; a journal is `beginJsonl` / (`writePointer`, `writeCapacity`, `consume`)* /
 * `finishJsonl`; then the host reads the report block (report.ts) and the final state — of each
 * journal, by `useJournal`, when the model splits its stream (journals.ts).
 */

import { setHashKey } from "../hash";
import { setMemoryCeiling } from "../memory";
import { counters, registers } from "./fold";
import { stateCounts } from "./instances";
import { report, reportListAt } from "./report";

export {
  isHeaderPending,
  LINE_BYTES_MAX,
  prefixBytes,
  prefixLineNumber,
  resumeJsonlAt,
  writeCapacity,
  writePointer,
} from "../jsonl";
export { auditElement, beginElements, elementRoom, finishElements } from "./elements";
export { journalCount, journalKeyPointer, useJournal } from "./journals";
export { beginJsonl, consume, finishJsonl } from "./lines";
export { loadModel, prepareModel } from "./model";
export { restoreRoom, restoreState, snapshotLength, snapshotState } from "./snapshot";
export {
  FINDING_BYTES,
  REPORT_EVENTS,
  REPORT_ILLEGAL,
  REPORT_ILLEGAL_LISTED,
  REPORT_INTEGRITY_FIELD,
  REPORT_INTEGRITY_INDEX,
  REPORT_INTEGRITY_LINE,
  REPORT_INTEGRITY_PROBLEM,
  REPORT_LIMIT,
  REPORT_LIMIT_LINE,
  REPORT_RULES,
  REPORT_TORN_TAIL_LINE,
  REPORT_TORN_TAIL_OFFSET,
} from "./report";

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

/** Where the listed findings start, from the report block's start. */
export function reportListOffset(): usize {
  return reportListAt();
}

/** Per state of every entity, in entity order: the count of kept instances in it (u32 each). */
export function stateCountsPointer(): usize {
  return stateCounts;
}

/** Per counter: its value, u64 low then i64 high. */
export function countersPointer(): usize {
  return counters;
}

/** Per register: its value cell (assembly/data/values.ts). */
export function registersPointer(): usize {
  return registers;
}
