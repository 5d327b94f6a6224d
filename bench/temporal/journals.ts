/**
 * The benchmarks' Temporal histories (./history.ts) as files: JSONL, a header and then one event a
 * line, and a `{"events": [...]}` document written one event a line between the lines that open
 * and close its array — the records the same bytes in both, so that the two forms measure the
 * cost of the form.
 */

import { BENCH_FOLDER, type JournalFile, journalFile } from "../journal-files.js";
import { DOCUMENT_CLOSE, DOCUMENT_EXTENSION, DOCUMENT_OPEN } from "../json-document.js";
import { temporalHistory } from "./history.js";
import type { TemporalMix } from "./scales.js";

/** A JSONL journal's header: a journal of the temporal model (docs/models/data.md, "Journals"). */
export const TEMPORAL_HEADER = '{"statefold":"journal","version":1,"model":"temporal"}';

/** The history of the mix in its form, in `folder` (by default the benchmarks' own). */
export function temporalJournalFile(mix: TemporalMix, folder = BENCH_FOLDER): Promise<JournalFile> {
  const name = `temporal-e${mix.events}-s${mix.seed}${mix.lean === true ? "-lean" : ""}`;
  if (mix.form === "jsonl") return journalFile(folder, name, () => jsonlLines(mix), "\n");
  return journalFile(folder, name, () => documentLines(mix), "\n", DOCUMENT_EXTENSION);
}

/** The JSONL journal's lines, without their line feeds. */
export function* jsonlLines(mix: TemporalMix): Generator<string> {
  yield TEMPORAL_HEADER;
  for (const event of temporalHistory(mix)) yield JSON.stringify(event);
}

/** The document's lines, without their line feeds: every event but the last followed by a comma. */
export function* documentLines(mix: TemporalMix): Generator<string> {
  yield DOCUMENT_OPEN;
  let previous: string | null = null;
  for (const event of temporalHistory(mix)) {
    if (previous !== null) yield `${previous},`;
    previous = JSON.stringify(event);
  }
  if (previous !== null) yield previous;
  yield DOCUMENT_CLOSE;
}
