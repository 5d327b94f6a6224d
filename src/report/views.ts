/**
 * The HTML report's view of a journal, for every model: its report, and the context its model
 * gathered around the findings (src/report/model-html.ts) — or why only the verdicts are shown.
 * Every field is JSON-serialisable, so a view can cross a worker boundary.
 */

import type { ModelReport } from "../models/registry.js";
import type { AnyReport } from "../models/report-frame.js";

export interface JournalView<
  Report extends AnyReport = ModelReport,
  Context extends GatheredContext = GatheredContext,
> {
  readonly file: string;
  readonly report: Report;
  readonly context: Context | ContextOmitted;
}

/** What a model gathered of a journal read again; the model says what else it holds. */
export interface GatheredContext {
  readonly gathered: true;
}

/** The journal could not be gathered again (too large, unreadable, changed since the audit). */
export interface ContextOmitted {
  readonly gathered: false;
  /** A sentence for people: why only the verdicts are shown. */
  readonly why: string;
}

/** A journal the audit could not read: its name and why, the message the command line printed. */
export interface UnreadableJournal {
  readonly file: string;
  readonly error: string;
}

/** What the report lists, in the order the journals were given. */
export type ReportedJournal = JournalView | UnreadableJournal;

export function isUnreadable(journal: ReportedJournal): journal is UnreadableJournal {
  return "error" in journal;
}
