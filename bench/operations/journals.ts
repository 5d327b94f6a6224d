/**
 * The operations journals for the benchmarks: the simulated runtime of
 * src/generate/operations/journal.ts.
 */
import { OPERATIONS_FAULT_KINDS } from "../../src/generate/operations/fault-kinds.js";
import { operationsJournalChunks } from "../../src/generate/operations/journal.js";
import { BENCH_FOLDER, type JournalFile, journalFile, suffixOf } from "../journal-files.js";
import type { OperationsMix } from "./scales.js";

/** The operations journal of the mix, in `folder` (by default the benchmarks' own). */
export async function operationsJournal(
  mix: OperationsMix,
  folder = BENCH_FOLDER,
): Promise<JournalFile> {
  const faults = OPERATIONS_FAULT_KINDS.map((kind) => ({ kind, count: mix.faultsOfEachKind }));
  // Pieces of whole lines, line feeds included: the generator's fastest form.
  const pieces = () =>
    operationsJournalChunks({
      events: mix.events,
      seed: mix.seed,
      ...(mix.strands === undefined ? {} : { strands: mix.strands }),
      faults: mix.faultsOfEachKind > 0 ? faults : [],
    });
  return journalFile(folder, operationsName(mix), pieces, "");
}

/** Named as the dag's campaigns (bench/dag/journals.ts): `-t` strands, `-f` faults of each kind. */
function operationsName(mix: OperationsMix): string {
  const optional: [string, number | undefined][] = [
    ["t", mix.strands],
    ["f", mix.faultsOfEachKind],
  ];
  return `operations-e${mix.events}-s${mix.seed}${suffixOf(optional)}`;
}
