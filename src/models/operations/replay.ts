/**
 * `replay(records)`: the state the journal's records fold to (docs/models/operations.md, "State"),
 * up to the first record that fails the integrity checks, which stops the fold there as it stops
 * the audit. Breaking records change what the fold table says they change.
 */
import { foldRecord } from "./fold.js";
import type { IntegrityFault } from "./integrity.js";
import { readRecord } from "./read-record.js";
import { initialState, type OperationsState } from "./state.js";

export interface Replayed {
  readonly state: OperationsState;
  /** The entry that stopped the fold, with its 0-based index; null when none did. */
  readonly fault: { readonly index: number; readonly fault: IntegrityFault } | null;
}

export function replay(records: readonly unknown[]): Replayed {
  let state = initialState();
  for (let index = 0; index < records.length; index++) {
    const read = readRecord(records[index]);
    if (!read.ok) return { state, fault: { index, fault: read.fault } };
    state = foldRecord(state, read.record).state;
  }
  return { state, fault: null };
}
