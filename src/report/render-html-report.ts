/**
 * `renderHtmlReport`: one self-contained HTML page for a set of journal views — a summary table
 * at the top, then per journal its heading and facts, and the body its model renders (its
 * verdicts, each finding in context, whatever else it draws: src/report/model-html.ts). Inline
 * CSS and SVG only; a Content-Security-Policy forbids every script and every fetch, so the page
 * works offline and nothing in a journal can make it load anything. A pure function of its data
 * (no Node APIs), so a browser page renders the same view.
 */

import type { Model } from "../models/model.js";
import { MODELS, type ModelReport, modelNamed } from "../models/registry.js";
import { formatCount, plural } from "../text/format-units.js";
import { escapeHtml } from "./escape-html.js";
import { REPORT_CSS } from "./report-css.js";
import { passes } from "./verdict.js";
import {
  isUnreadable,
  type JournalView,
  type ReportedJournal,
  type UnreadableJournal,
} from "./views.js";
import { journalTitle } from "./wording.js";

export interface HtmlReportOptions {
  /** Whether a journal passes only when strictly conformant (the CLI's `--strict`). */
  readonly strict: boolean;
  /** What made the page, for its footer: "statefold 0.1.0". */
  readonly generator?: string;
}

/** No script, no fetch of any kind; inline style and the empty data: favicon are all it uses. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * `journals` in the order they were given: each audited journal's view, and each one that could
 * not be read, which is a row of the summary and counted as the text output counts it.
 */
export function renderHtmlReport(
  journals: readonly ReportedJournal[],
  options: HtmlReportOptions,
): string {
  const views = journals.filter((journal): journal is JournalView => !isUnreadable(journal));
  const passing = views.filter((view) => passes(view.report, options.strict)).length;
  const verdict = options.strict ? "strictly conformant" : "conformant";
  const title = `statefold audit: ${formatCount(passing)} of ${plural(journals.length, "journal")} ${verdict}${unreadableClause(journals.length - views.length)}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${REPORT_CSS}${MODELS.map((model) => model.html.css).join("")}</style>
</head>
<body>
${renderPageHead(journals, views, passing, options.strict)}
<main>
${renderSummaryTable(journals, options.strict)}
${journals.flatMap((journal, position) => (isUnreadable(journal) ? [] : [renderJournal(journal, position, options.strict)])).join("\n")}
</main>
<footer>${escapeHtml(options.generator ?? "statefold")} · a self-contained page: no scripts, nothing fetched.</footer>
</body>
</html>
`;
}

/** `, 5 could not be read`, as the text output's closing line says it; empty for none. */
function unreadableClause(unreadable: number): string {
  return unreadable === 0 ? "" : `, ${unreadable} could not be read`;
}

function renderPageHead(
  journals: readonly ReportedJournal[],
  views: readonly JournalView[],
  passing: number,
  strict: boolean,
): string {
  const failing = views.length - passing;
  const unreadable = journals.length - views.length;
  const events = views.reduce((sum, view) => sum + view.report.events, 0);
  const judged = strict ? "strict conformance (--strict)" : "conformance";
  const pills = [
    passing > 0
      ? `<span class="pill good">✓ ${formatCount(passing)} ${strict ? "strictly " : ""}conformant</span>`
      : "",
    failing > 0
      ? `<span class="pill bad">✗ ${formatCount(failing)} not ${strict ? "strictly " : ""}conformant</span>`
      : "",
    unreadable > 0 ? `<span class="pill bad">✗ ${unreadable} could not be read</span>` : "",
  ].join(" ");
  return `<header class="page-head"><div>
<h1><span class="brand">statefold</span> audit report</h1>
<p class="tally">${pills} <span>${plural(journals.length, "journal")}, ${plural(events, "event")}, judged for ${judged}</span></p>
</div></header>`;
}

function renderSummaryTable(journals: readonly ReportedJournal[], strict: boolean): string {
  const rows = journals.map((view, position) => {
    if (isUnreadable(view)) return renderUnreadableRow(view);
    const { report } = view;
    const pass = passes(report, strict);
    const broken = brokenRuleNames(report);
    return `<tr>
<td class="mark ${pass ? "good" : "bad"}">${pass ? "✓" : "✗"}</td>
<td class="file"><a href="#${journalAnchor(position)}">${escapeHtml(journalTitle(view.file, report))}</a></td>
<td>${verdictPill(report, strict)}</td>
<td class="num">${formatCount(report.events)}</td>
<td class="num">${formatCount(report.legality.illegal)}</td>
<td>${broken.length === 0 ? `<span class="muted">—</span>` : broken.map((name) => `<code>${name}</code>`).join(", ")}</td>
</tr>`;
  });
  return `<section class="card summary"><table>
<thead><tr><th></th><th>journal</th><th>verdict</th><th class="num">events</th><th class="num">illegal</th><th>broken</th></tr></thead>
<tbody>${rows.join("\n")}</tbody>
</table></section>`;
}

/** A journal that could not be read: a row of the summary with the reason, and nothing more. */
function renderUnreadableRow(journal: UnreadableJournal): string {
  const none = `<td class="num"><span class="muted">—</span></td>`;
  return `<tr class="unreadable">
<td class="mark bad">✗</td>
<td class="file">${escapeHtml(journal.file)}</td>
<td><span class="pill bad">could not be read</span></td>
${none}
${none}
<td>${escapeHtml(journal.error)}</td>
</tr>`;
}

/** The rules a report says are broken: integrity, then the model's rules in report order. */
function brokenRuleNames(report: ModelReport): string[] {
  const names: string[] =
    report.integrity === null ? [] : [`integrity: ${report.integrity.reason}`];
  for (const [name, verdict] of Object.entries(report.invariants)) {
    if (!verdict.holds) names.push(name);
  }
  return names;
}

function verdictPill(report: ModelReport, strict: boolean): string {
  if (report.strictlyConformant) return `<span class="pill good">strictly conformant</span>`;
  if (!report.conformant) return `<span class="pill bad">not conformant</span>`;
  return `<span class="pill ${strict ? "bad" : "warn"}">conformant, not strictly</span>`;
}

function journalAnchor(position: number): string {
  return `journal-${position + 1}`;
}

function renderJournal(view: JournalView, position: number, strict: boolean): string {
  const { report } = view;
  const pass = passes(report, strict);
  const tone = !pass
    ? "fails"
    : report.strictlyConformant && report.tornTail === null
      ? "passes"
      : "passes-with-warnings";
  const model: Model = modelNamed(report.model);
  return `<section class="card journal ${tone}" id="${journalAnchor(position)}">
<h2><span class="mark ${pass ? "good" : "bad"}">${pass ? "✓" : "✗"}</span><span class="file">${escapeHtml(journalTitle(view.file, report))}</span>${verdictPill(report, strict)}</h2>
<p class="facts">${plural(report.events, "event")} · ${escapeHtml(model.text.finalLine(report))}</p>
${model.html.renderBody(view)}
</section>`;
}
