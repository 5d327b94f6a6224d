/**
 * `statefold replay` of an operations journal: the state is the reference's to print, as the
 * kernel audits and keeps no such state.
 */
import type { AnyJournalFile } from "../../journal/index.js";
import { integrityMessage } from "../../models/operations/integrity.js";
import { replay } from "../../models/operations/replay.js";
import type { CliOutput } from "../command.js";
import type { FoldStop } from "../model-replay.js";
import { renderOperationsState } from "./render-operations-state.js";

export function replayOperations(journal: AnyJournalFile, output: CliOutput): FoldStop | null {
  const { state, fault } = replay(journal.events);
  output.stdout(renderOperationsState(state));
  if (fault === null) return null;
  return { index: fault.index, reason: fault.fault.reason, message: integrityMessage(fault.fault) };
}
