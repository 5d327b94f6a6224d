/**
 * `gatherJournalView`: the HTML report's view of a journal file the command line has audited. It
 * reads the journal again with the reference readers, quotes the lines its findings need, and
 * replays with the engine it is given (journal-view.ts says what the view holds).
 *
 * Reading a journal whole is what bounds this. Measured on a 2-core machine: a 125 MB JSONL
 * campaign (886 k events, a 200 k-node DAG) reads in 6–8 s and takes 470 MB more resident
 * memory (about 3.7 × its size), and the replay to its final state 3 s more; a 244 MB one peaked
 * at 765 MB for the read alone. So a journal above `CONTEXT_JOURNAL_BYTES_MAX` = 128 MiB gets
 * only its verdicts — at most about 500 MB and 15 s for the page — and the page says why. Journals
 * are gathered one at a time, so the bound holds for any number of them; the verdicts themselves
 * come from the streaming audit, whatever the size.
 */
import { statSync } from "node:fs";
import { JournalError, type ReadJournalOptions, readAnyJournalFile } from "../journal/index.js";
import { readFileChunks } from "../journal/read-file-bytes.js";
import { executiveRunOf } from "../models/executive/engine.js";
import type { ModelReport } from "../models/registry.js";
import { buildJournalView, linesToQuote, type Replayer } from "./dag/build-journal-view.js";
import { buildExecutiveView } from "./executive/view.js";
import { buildOperationsView, operationsLinesToQuote } from "./operations/view.js";
import { quoteLines } from "./quote-lines.js";
import { tooLargeForContext, verdictsOnlyView } from "./verdicts-only-view.js";
import type { JournalView } from "./views.js";

export { CONTEXT_JOURNAL_BYTES_MAX, verdictsOnlyView } from "./verdicts-only-view.js";

export async function gatherJournalView(
  audited: { readonly file: string; readonly report: ModelReport },
  options: ReadJournalOptions,
  engine: Replayer,
): Promise<JournalView> {
  const { file, report } = audited;
  const verdictsOnly = (why: string) => verdictsOnlyView(audited, why);
  const bytes = statSync(file, { throwIfNoEntry: false })?.size;
  if (bytes === undefined) return verdictsOnly("The journal can no longer be read");
  const tooLarge = tooLargeForContext(bytes);
  if (tooLarge !== null) return verdictsOnly(tooLarge);
  try {
    const journal = readAnyJournalFile(file, { ...options, model: report.model });
    if (journal.model === "dag" && report.model === "dag") {
      const quoted = await quoteLines(readFileChunks(file), linesToQuote(report, journal.lines));
      return buildJournalView({ ...journal, report }, quoted, engine);
    }
    if (journal.model === "operations" && report.model === "operations") {
      const wanted = operationsLinesToQuote(report, journal.lines);
      const quoted = await quoteLines(readFileChunks(file), wanted);
      return buildOperationsView({ ...journal, report, records: journal.events }, quoted);
    }
    if (journal.model === "executive" && report.model === "executive") {
      const run = executiveRunOf(journal.header, file);
      return buildExecutiveView({ file, report }, run, journal.events);
    }
    return verdictsOnly("The journal is not of the model it was audited as any more");
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return verdictsOnly(`Reading the journal again failed (${error.message})`);
  }
}
