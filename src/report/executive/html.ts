/**
 * The executive model's part of the HTML report (src/report/model-html.ts): its view replays the
 * run's observations for the frames behind each mismatch (view.ts, loaded with the machine when a
 * view is first gathered), its body sets each mismatch beside them (render-journal.ts).
 */
import type { ExecutiveReport } from "../../models/executive/audit.js";
import type { ModelHtml } from "../model-html.js";
import { renderExecutiveBody } from "./render-journal.js";
import type { ExecutiveJournalView } from "./view.js";

export const executiveHtml: ModelHtml<ExecutiveReport> = {
  async gatherView({ file, report, journal }) {
    const [{ executiveRunOf }, { buildExecutiveView }] = await Promise.all([
      import("../../models/executive/engine.js"),
      import("./view.js"),
    ]);
    return buildExecutiveView(
      { file, report },
      executiveRunOf(journal.header, file),
      journal.events,
    );
  },
  // An executive view is one `gatherView` built, or one with only the verdicts.
  css: "",
  renderBody: (view) => renderExecutiveBody(view as ExecutiveJournalView),
};
