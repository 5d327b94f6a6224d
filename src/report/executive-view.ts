/**
 * An `executive` journal's view in the HTML report: its report alone, since what a mismatch
 * shows — the machine's decision and the recorded one — is in the report itself.
 */
import type { ExecutiveReport } from "../models/executive/audit.js";
import type { ContextOmitted } from "./journal-view.js";

export interface ExecutiveJournalView {
  readonly file: string;
  readonly report: ExecutiveReport;
  readonly context: { readonly gathered: true } | ContextOmitted;
}
