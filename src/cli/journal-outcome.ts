/**
 * What auditing one journal came to, in a shape that crosses a worker thread cheaply: its output
 * already rendered and the few figures the totals need — or the one-line reason it could not be
 * read (bad input is an answer, not a crash). Any other failure is a bug in statefold and is
 * thrown. The report itself travels only when asked for (an HTML report is written from them):
 * copying thousands of reports between threads cost the main thread more than auditing them.
 */
import { JournalError } from "../journal/errors.js";
import type { ModelAnswer } from "../models/registry.js";
import { journalReports } from "../models/report-frame.js";
import { passes } from "../report/verdict.js";
import { type PrinterOptions, renderJournalOutput } from "./audit-printer.js";
import { type AuditOptions, type AuditRun, auditJournalFile, auditJsonlStream } from "./engine.js";
import { type FindingNumbers, findingNumbersOfJournals } from "./finding-numbers.js";

export interface OutcomeOptions extends AuditOptions {
  readonly printer: PrinterOptions;
  /** Whether the outcome carries the report itself, beside its rendering. */
  readonly keepReport: boolean;
}

export type JournalOutcome =
  | {
      readonly file: string;
      readonly bytesRead: number;
      readonly events: number;
      /** Its journals: one, or — a stream split by its model — each of the stream's. */
      readonly journals: number;
      /** How many of them do not pass, under the printer's `strict`. */
      readonly failing: number;
      /** From `renderJournalOutput`. */
      readonly output: string;
      /** Null unless `keepReport`. */
      readonly report: ModelAnswer | null;
    }
  | { readonly file: string; readonly unreadable: string };

export async function auditFileOutcome(
  path: string,
  listedBytes: number | null,
  options: OutcomeOptions,
): Promise<JournalOutcome> {
  return outcomeOf(path, options, () => auditJournalFile(path, options, listedBytes), true);
}

export async function auditStreamOutcome(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: OutcomeOptions,
): Promise<JournalOutcome> {
  return outcomeOf(file, options, () => auditJsonlStream(file, chunks, options), false);
}

async function outcomeOf(
  file: string,
  options: OutcomeOptions,
  audit: () => Promise<AuditRun>,
  /** Whether the journal can be read again, for the numbers behind its findings. */
  rereadable: boolean,
): Promise<JournalOutcome> {
  let run: AuditRun;
  try {
    run = await audit();
  } catch (error) {
    if (error instanceof JournalError) return { file, unreadable: error.message };
    throw error;
  }
  const { report, bytesRead } = run;
  const journals = journalReports(report);
  return {
    file: run.file,
    bytesRead,
    events: journals.reduce((sum, journal) => sum + journal.events, 0),
    journals: journals.length,
    failing: journals.filter((journal) => !passes(journal, options.printer.strict)).length,
    output: renderJournalOutput(
      { ...run, numbers: await numbersFor(run, options, rereadable) },
      options.printer,
    ),
    report: options.keepReport ? report : null,
  };
}

/** Only the text output says the numbers behind findings; the JSON formats are the report. */
async function numbersFor(
  run: AuditRun,
  options: OutcomeOptions,
  rereadable: boolean,
): Promise<FindingNumbers[]> {
  if (!rereadable || options.printer.format !== "text") return [];
  return findingNumbersOfJournals(run.file, journalReports(run.report));
}
