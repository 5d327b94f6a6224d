/**
 * The words statefold uses to explain any model's report to people, shared by the text output
 * (src/cli/render-text.ts) and the HTML report, so that both say the same thing the same way;
 * each model's own words are in its folder (src/report/<model>/wording.ts).
 * Pure: no Node APIs, so a browser page can render with it too.
 */

import { plural } from "../text/format-units.js";

/** What a torn tail is and what became of it. */
export const TORN_TAIL_MEANING = "an unfinished last entry (a crash mid-write?) was left out";

/** What an integrity error at `index` does to the rest of the audit. */
export function integrityConsequence(index: number): string {
  return `the fold stops here; invariants and legality were judged over the ${plural(index, "event")} before it`;
}

/** Where an event is: its journal line when known, always its 0-based index. */
export function eventLocation(index: number, line: number | undefined): string {
  return line === undefined ? `event ${index}` : `line ${line} (event ${index})`;
}

/**
 * How a journal is named to people: its file — and, for a journal of a stream split by a key
 * (docs/models/data.md, "A stream of journals"), that key's value.
 */
export function journalTitle(file: string, report: object): string {
  return "journal" in report ? `${file} [journal ${JSON.stringify(report.journal)}]` : file;
}
