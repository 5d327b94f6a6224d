/**
 * The numbers behind an `operations` journal's findings that its report does not carry — the
 * retry ladder's sum, the classification's step and class — for the text output, which says them
 * as the HTML report does (src/report/operations/view.ts gathers them by folding the records up
 * to the last listed finding). The journal is read again only when a listed finding has such
 * numbers, and only when it is a file within the size the HTML report reads whole; otherwise the
 * text says what the report says. The operations model's fold is loaded only for such a journal
 * (a dag audit's start loads no other model's machine).
 */
import { statSync } from "node:fs";
import { JournalError, readAnyJournalFile } from "../journal/index.js";
import { numbersSentence } from "../report/operations/wording.js";
import { tooLargeForContext } from "../report/verdicts-only-view.js";
import type { AuditedJournal } from "./engine.js";

/** By the finding's event index, its numbers in words. */
export type FindingNumbers = ReadonlyMap<number, string>;

const NONE: FindingNumbers = new Map();

/** The numbers of the journal file's listed findings, from the file read again. */
export async function findingNumbersOf({ file, report }: AuditedJournal): Promise<FindingNumbers> {
  if (report.model !== "operations") return NONE;
  const { buildOperationsView, REASONS_WITH_NUMBERS } = await import(
    "../report/operations/view.js"
  );
  if (!report.legality.first.some((entry) => REASONS_WITH_NUMBERS.has(entry.reason))) return NONE;
  const bytes = statSync(file, { throwIfNoEntry: false })?.size;
  if (bytes === undefined || tooLargeForContext(bytes) !== null) return NONE;
  let journal: ReturnType<typeof readAnyJournalFile>;
  try {
    journal = readAnyJournalFile(file, { model: "operations" });
  } catch (error) {
    if (error instanceof JournalError) return NONE;
    throw error;
  }
  // A journal changed since its audit would give numbers for other records.
  if (journal.model !== "operations" || journal.events.length !== report.events) return NONE;
  const { lines, events: records } = journal;
  const view = buildOperationsView({ file, report, records, lines }, new Map());
  if (!view.context.gathered) return NONE;
  const numbers = new Map<number, string>();
  for (const finding of view.context.findings) {
    const sentence = numbersSentence(finding);
    if (sentence !== null) numbers.set(finding.index, sentence);
  }
  return numbers;
}
