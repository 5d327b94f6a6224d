/**
 * What a model adds to the HTML report (src/report/render-html-report.ts), which renders the
 * frame every model shares — the summary table, each journal's heading, verdict and facts line —
 * and asks the model for the body of its journal's section, from the view the model gathered.
 * Rendering is pure, so the page renders the same; gathering loads what it needs when asked.
 */

import type { Journal } from "../journal/journal.js";
import type { KernelOptions } from "../models/model.js";
import type { AnyReport } from "../models/report-frame.js";
import type { QuotedLine } from "./quote-lines.js";
import type { JournalView } from "./views.js";

/** A journal read again whole for its view, by the command line or the page. */
export interface JournalReadAgain<Report> {
  readonly file: string;
  readonly report: Report;
  /**
   * Its header, entries and their lines, and the model's own fields it was audited with (its
   * header's, as the model read them, or those given beside the journal: a dag's DAG file).
   */
  readonly journal: {
    readonly header: Journal["header"];
    readonly fields: unknown;
    readonly events: readonly unknown[];
    /** `events[i]` came from the 1-based line `lines[i]`. */
    readonly lines: readonly number[];
  };
  /** The 1-based lines `wanted` of the journal, as written (src/report/quote-lines.ts). */
  quote(wanted: readonly number[]): Promise<ReadonlyMap<number, QuotedLine>>;
  /** How a model whose view replays the journal loads its kernel (the page gives its build). */
  readonly kernel?: KernelOptions;
}

export interface ModelHtml<Report extends AnyReport> {
  /** The view of a journal read again: its findings in context, as far as the model shows them. */
  gatherView(journal: JournalReadAgain<Report>): Promise<JournalView<Report>>;
  /**
   * The body of the journal's section, under its heading and facts line: the model's verdicts,
   * its findings (in context when gathered) and whatever else it draws. The view is one the
   * model gathered, or one with only the verdicts (`context.gathered` false).
   */
  renderBody(view: JournalView<Report>): string;
  /** Style rules of its own, after the page's (src/report/report-css.ts); empty for none. */
  readonly css: string;
}
