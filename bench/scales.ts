/**
 * The journals the benchmarks read, of every model: each model's own, in its folder
 * (bench/<model>/scales.ts), listed by the bench's record of models (bench/models.ts).
 */
import { BENCH_FOLDER, type JournalFile } from "./journal-files.js";
import { benchOf, type Scale } from "./models.js";

export { SCALES, type Scale } from "./models.js";

/** The lines after the header of the scale's whole journal: its events, records or steps. */
export function eventsOf(scale: Scale): number {
  return benchOf(scale).eventsOf(scale);
}

/** The scale's whole journal, of its model, in `folder` (by default the benchmarks' own). */
export function scaleJournal(scale: Scale, folder = BENCH_FOLDER): Promise<JournalFile> {
  return benchOf(scale).journal(scale, folder);
}
