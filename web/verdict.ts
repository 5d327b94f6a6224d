/**
 * What the page says of a journal file's reports: one report, or one per journal of a stream that
 * a model defined by data splits by `journal.key` (docs/models/data.md, "A stream of journals"),
 * shown as `statefold audit --format json` prints them and judged together.
 */
import type { DataJournalsReport } from "../src/models/data/report.js";
import type { ModelReport } from "../src/models/registry.js";

/** A journal file's report as the page shows it: `{"journals": [...]}` for a split stream. */
export type ShownReport = ModelReport | DataJournalsReport;

/** The reports of the journals a file holds, in order. */
export function journalReports(report: ShownReport): readonly ModelReport[] {
  // A split stream's journals are each a report of the model the stream was audited with.
  return "journals" in report ? (report.journals as readonly ModelReport[]) : [report];
}

/** The verdict on every journal of a file together, and the events they hold. */
export function verdictOn(reports: readonly ModelReport[]): { verdict: string; events: number } {
  const verdict = reports.every((report) => report.strictlyConformant)
    ? "strictly conformant"
    : reports.every((report) => report.conformant)
      ? "conformant, not strictly"
      : "not conformant";
  const events = reports.reduce((sum, report) => sum + report.events, 0);
  return { verdict, events };
}
