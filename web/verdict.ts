/**
 * What the page says of a journal file's reports: one report, or one per journal of a stream that
 * a model defined by data splits by `journal.key` (docs/models/data.md, "A stream of journals"),
 * judged together.
 */
import type { AnyReport } from "../src/models/report-frame.js";

/** The verdict on every journal of a file together, and the events they hold. */
export function verdictOn(reports: readonly AnyReport[]): { verdict: string; events: number } {
  const verdict = reports.every((report) => report.strictlyConformant)
    ? "strictly conformant"
    : reports.every((report) => report.conformant)
      ? "conformant, not strictly"
      : "not conformant";
  const events = reports.reduce((sum, report) => sum + report.events, 0);
  return { verdict, events };
}
