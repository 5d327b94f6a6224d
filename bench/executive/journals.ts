/** The benchmarks' executive journals: the faithful host of src/generate/executive/journal.ts. */
import { EXECUTIVE_FAULT_KINDS, executiveJournal } from "../../src/generate/executive/journal.js";
import { BENCH_FOLDER, type JournalFile, journalFile } from "../journal-files.js";
import type { ExecutiveMix } from "./scales.js";

/** The executive journal of the mix, in `folder` (by default the benchmarks' own). */
export async function executiveJournalFile(
  mix: ExecutiveMix,
  folder = BENCH_FOLDER,
): Promise<JournalFile> {
  // Lines with their line feeds, the header first.
  const lines = () =>
    executiveJournal({ events: mix.events, seed: mix.seed, faults: executiveFaults(mix) });
  return journalFile(folder, executiveName(mix), lines, "");
}

/** The mix's faults, in the generator's order of kinds. */
function executiveFaults(mix: ExecutiveMix) {
  return EXECUTIVE_FAULT_KINDS.flatMap((kind) => {
    const count = mix.faults[kind] ?? 0;
    return count > 0 ? [{ kind, count }] : [];
  });
}

/**
 * Named as the operations journals are (bench/operations/journals.ts): each kind injected by its
 * words' initials and its count, in the generator's order (`-ws10` wrong-seq, `-aobo10`
 * attempt-off-by-one, `-aat100` accepted-after-terminal, ...).
 */
function executiveName(mix: ExecutiveMix): string {
  const faults = executiveFaults(mix).map(
    ({ kind, count }) =>
      `-${kind
        .split("-")
        .map((word) => word[0])
        .join("")}${count}`,
  );
  return `executive-e${mix.events}-s${mix.seed}${faults.join("")}`;
}
