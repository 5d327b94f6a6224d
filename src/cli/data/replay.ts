/**
 * `statefold replay` of a journal of a model defined by data: the state its records fold to —
 * each entity's instances by state, the counters and the registers — one line per journal of a
 * split stream.
 */
import type { AnyJournalFile } from "../../journal/index.js";
import { auditDataEntries, type DataEntry } from "../../models/data/audit.js";
import type { CompiledModel } from "../../models/data/compiled.js";
import type { CliOutput } from "../command.js";
import type { FoldStop } from "../model-replay.js";

export function replayData(
  model: CompiledModel,
  journal: AnyJournalFile,
  output: CliOutput,
): FoldStop | null {
  const reports = auditDataEntries(model, journal.events as DataEntry[], journal.tornTail);
  for (const report of reports) {
    const state =
      report.journal === undefined ? report.final : { journal: report.journal, ...report.final };
    output.stdout(`${JSON.stringify(state)}\n`);
  }
  const integrity = reports[0]?.integrity ?? null;
  return integrity === null
    ? null
    : { index: integrity.index, reason: integrity.reason, message: integrity.message };
}
