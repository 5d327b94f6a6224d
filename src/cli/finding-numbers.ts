/**
 * The numbers behind a journal's findings that its report does not carry, for the text output
 * (src/report/model-text.ts, `findingNumbers`): asked of the journal's model, which says whether
 * it needs the journal read again. The journal is read again only when it is a file within the
 * size the HTML report reads whole, and still holds the events audited; otherwise the text says
 * what the report says.
 */
import { statSync } from "node:fs";
import { type AnyJournalFile, JournalError, readAnyJournalFile } from "../journal/index.js";
import type { Model } from "../models/model.js";
import { modelNamed } from "../models/registry.js";
import type { EntriesReadAgain, FindingNumbers } from "../report/model-text.js";
import { tooLargeForContext } from "../report/verdicts-only-view.js";
import type { AuditedJournal } from "./engine.js";

export type { FindingNumbers } from "../report/model-text.js";

const NONE: FindingNumbers = new Map();

/** The numbers of the journal file's listed findings, from the file read again when need be. */
export async function findingNumbersOf({ file, report }: AuditedJournal): Promise<FindingNumbers> {
  const model: Model = modelNamed(report.model);
  if (model.text.findingNumbers === undefined) return NONE;
  return model.text.findingNumbers(report, () => readAgain(file, report));
}

async function readAgain(
  file: string,
  report: AuditedJournal["report"],
): Promise<EntriesReadAgain | null> {
  const bytes = statSync(file, { throwIfNoEntry: false })?.size;
  if (bytes === undefined || tooLargeForContext(bytes) !== null) return null;
  let journal: AnyJournalFile;
  try {
    journal = await readAnyJournalFile(file, { model: report.model });
  } catch (error) {
    if (error instanceof JournalError) return null;
    throw error;
  }
  // A journal changed since its audit would give numbers for other records. A journal of a stream
  // split by journal.key counts only its own records: its model checks them as it replays them.
  const counted =
    "journal" in report
      ? journal.events.length >= report.events
      : journal.events.length === report.events;
  if (journal.model !== report.model || !counted) return null;
  return { file, entries: journal.events, lines: journal.lines };
}
