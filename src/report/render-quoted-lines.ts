/**
 * Journal lines quoted in a finding's card, as written, for every model whose findings quote
 * them. Pure.
 */
import { plural } from "../text/format-units.js";
import { escapeJournalText } from "./escape-html.js";
import type { QuotedEvent } from "./quote-lines.js";

/**
 * Journal lines as written, the one with index `offending` marked (null marks a torn tail's line,
 * which is not an event and has no index).
 */
export function renderQuotedLines(
  quoted: readonly QuotedEvent[],
  offending: number | null,
): string {
  const rows = quoted.map((event) => {
    const isOffending = event.index === offending;
    const gutter = event.line === undefined ? `#${event.index}` : String(event.line);
    const cut = event.cut
      ? `<span class="cut" title="the line goes on">… (${plural(event.bytes, "byte")} in all)</span>`
      : "";
    return `<li${isOffending ? ' class="offending"' : ""}><span class="gutter">${gutter}</span><code>${escapeJournalText(event.text)}${cut}</code></li>`;
  });
  const caption =
    quoted.length > 1 ? "the journal up to it, as written" : "the journal line, as written";
  return `<figure class="quote"><figcaption>${caption}</figcaption><ol class="lines">${rows.join("")}</ol></figure>`;
}
