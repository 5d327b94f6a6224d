/**
 * The operations model's part of the HTML report (src/report/model-html.ts): its view folds the
 * records up to the last listed finding (view.ts, loaded when a view is first gathered), its body
 * shows each finding in its own terms (render-journal.ts).
 */
import type { OperationsReport } from "../../models/operations/report.js";
import type { ModelHtml } from "../model-html.js";
import { renderOperationsBody } from "./render-journal.js";
import type { OperationsJournalView } from "./view.js";

export const operationsHtml: ModelHtml<OperationsReport> = {
  async gatherView({ file, report, journal, quote }) {
    const { buildOperationsView, operationsLinesToQuote } = await import("./view.js");
    const quoted = await quote(operationsLinesToQuote(report, journal.lines));
    const { events: records, lines } = journal;
    return buildOperationsView({ file, report, records, lines }, quoted);
  },
  // An operations view is one `gatherView` built, or one with only the verdicts.
  css: "",
  renderBody: (view) => renderOperationsBody(view as OperationsJournalView),
};
