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

/**
 * The numbers of each journal of one file — several for a stream split by its model — with the
 * file read again at most once for them all.
 */
export function findingNumbersOfJournals(
  file: string,
  reports: readonly AuditedJournal["report"][],
): Promise<FindingNumbers[]> {
  const [first] = reports;
  if (first === undefined) return Promise.resolve([]);
  const read = once(() => readFileAgain(file, first.model));
  return Promise.all(reports.map((report) => numbersOf(file, report, read)));
}

async function numbersOf(
  file: string,
  report: AuditedJournal["report"],
  read: () => Promise<AnyJournalFile | null>,
): Promise<FindingNumbers> {
  const model: Model = modelNamed(report.model);
  if (model.text.findingNumbers === undefined) return NONE;
  return model.text.findingNumbers(report, async () => entriesOf(file, report, await read()));
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

async function readFileAgain(
  file: string,
  model: AuditedJournal["report"]["model"],
): Promise<AnyJournalFile | null> {
  const bytes = statSync(file, { throwIfNoEntry: false })?.size;
  if (bytes === undefined || tooLargeForContext(bytes) !== null) return null;
  try {
    return await readAnyJournalFile(file, { model });
  } catch (error) {
    if (error instanceof JournalError) return null;
    throw error;
  }
}

function entriesOf(
  file: string,
  report: AuditedJournal["report"],
  journal: AnyJournalFile | null,
): EntriesReadAgain | null {
  if (journal === null) return null;
  // A journal changed since its audit would give numbers for other records. A journal of a stream
  // split by journal.key counts only its own records: its model checks them as it replays them.
  const counted =
    "journal" in report
      ? journal.events.length >= report.events
      : journal.events.length === report.events;
  if (journal.model !== report.model || !counted) return null;
  return { file, entries: journal.events, lines: journal.lines };
}
