/**
 * `gatherJournalView`: the HTML report's view of a journal file the command line has audited. It
 * reads the journal again with the reference readers and hands it to the journal's model, which
 * quotes the lines its findings need and gathers their context (src/report/model-html.ts).
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
import { JournalError, readAnyJournalFile } from "../journal/index.js";
import type { ModelFlagValues } from "../journal/model-command-line.js";
import { readFileChunks } from "../journal/read-file-bytes.js";
import type { Model } from "../models/model.js";
import { type ModelReport, modelNamed } from "../models/registry.js";
import { quoteLines } from "./quote-lines.js";
import { tooLargeForContext, verdictsOnlyView } from "./verdicts-only-view.js";
import type { JournalView } from "./views.js";

export { CONTEXT_JOURNAL_BYTES_MAX, verdictsOnlyView } from "./verdicts-only-view.js";

export async function gatherJournalView(
  audited: { readonly file: string; readonly report: ModelReport },
  modelFlags: ModelFlagValues,
): Promise<JournalView> {
  const { file, report } = audited;
  const verdictsOnly = (why: string) => verdictsOnlyView(audited, why);
  const bytes = statSync(file, { throwIfNoEntry: false })?.size;
  if (bytes === undefined) return verdictsOnly("The journal can no longer be read");
  const tooLarge = tooLargeForContext(bytes);
  if (tooLarge !== null) return verdictsOnly(tooLarge);
  try {
    const journal = await readAnyJournalFile(file, { modelFlags, model: report.model });
    if (journal.model !== report.model) {
      return verdictsOnly("The journal is not of the model it was audited as any more");
    }
    const model: Model = modelNamed(report.model);
    // The model's view carries the report it is given, this journal's.
    return (await model.html.gatherView({
      file,
      report,
      journal,
      quote: (wanted) => quoteLines(readFileChunks(file), wanted),
    })) as JournalView;
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return verdictsOnly(`Reading the journal again failed (${error.message})`);
  }
}
