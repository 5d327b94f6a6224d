/** The HTML report's view of a journal of any model; `report.model` tells which. */

import type { DagJournalView } from "./dag/journal-view.js";
import type { ExecutiveJournalView } from "./executive/view.js";
import type { OperationsJournalView } from "./operations/view.js";

export type JournalView = DagJournalView | OperationsJournalView | ExecutiveJournalView;

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
