/**
 * `renderHtmlReport`: one self-contained HTML page for a set of journal views — a summary table
 * at the top, then per journal its verdicts, each finding in context and the DAG by layers. Inline
 * CSS and SVG only; a Content-Security-Policy forbids every script and every fetch, so the page
 * works offline and nothing in a journal can make it load anything. A pure function of its data
 * (no Node APIs), so a browser page renders the same view.
 */

import { INVARIANT_NAMES, type Report } from "../models/dag/report.js";
import type { ModelReport } from "../models/registry.js";
import { formatCount, plural } from "../text/format-units.js";
import type { DagJournalView, DagView, Finding } from "./dag/journal-view.js";
import { renderDag, renderStatusLegend } from "./dag/render-dag.js";
import { escapeHtml, escapeQuotedId } from "./escape-html.js";
import { renderExecutiveBody } from "./executive/render-journal.js";
import type { ExecutiveJournalView } from "./executive/view.js";
import { executiveFinal } from "./executive/wording.js";
import { renderOperationsBody } from "./operations/render-journal.js";
import type { OperationsJournalView } from "./operations/view.js";
import { operationsFinal } from "./operations/wording.js";
import { renderFinding } from "./render-finding.js";
import { REPORT_CSS } from "./report-css.js";
import { passes } from "./verdict.js";
import {
  isUnreadable,
  type JournalView,
  type ReportedJournal,
  type UnreadableJournal,
} from "./views.js";
import { eventLocation, finalCounts, WHY_BROKEN, WHY_ILLEGAL, WHY_TAMPERED } from "./wording.js";

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
<style>${REPORT_CSS}</style>
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
<td class="file"><a href="#${journalAnchor(position)}">${escapeHtml(view.file)}</a></td>
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
  const final =
    report.model === "dag"
      ? finalCounts(report)
      : report.model === "operations"
        ? operationsFinal(report)
        : executiveFinal(report);
  return `<section class="card journal ${tone}" id="${journalAnchor(position)}">
<h2><span class="mark ${pass ? "good" : "bad"}">${pass ? "✓" : "✗"}</span><span class="file">${escapeHtml(view.file)}</span>${verdictPill(report, strict)}</h2>
<p class="facts">${plural(report.events, "event")} · ${escapeHtml(final)}</p>
${renderBody(view)}
</section>`;
}

function renderBody(view: JournalView): string {
  switch (view.report.model) {
    case "dag":
      return renderDagBody(view as DagJournalView);
    case "operations":
      return renderOperationsBody(view as OperationsJournalView);
    default:
      return renderExecutiveBody(view as ExecutiveJournalView);
  }
}

function renderDagBody(view: DagJournalView): string {
  const { report } = view;
  const body = view.context.gathered
    ? renderFindingsAndDag(view.context.findings, view.context.dag, report)
    : `<p class="omitted">${escapeHtml(view.context.why)}</p>${renderFindingsWithoutContext(report)}`;
  return `${renderVerdictChips(report)}
${body}`;
}

/** One chip per check: integrity, the six invariants, legality, and a torn tail if there is one. */
function renderVerdictChips(report: Report): string {
  const chips: string[] = [];
  const { integrity } = report;
  chips.push(
    integrity === null
      ? `<span class="chip good">✓ integrity</span>`
      : `<span class="chip bad">✗ integrity <span class="detail">${integrity.reason} at ${eventLocation(integrity.index, integrity.line)}</span></span>`,
  );
  for (const name of INVARIANT_NAMES) {
    const verdict = report.invariants[name];
    if (verdict.holds) {
      chips.push(`<span class="chip good">✓ ${name}</span>`);
      continue;
    }
    const detail =
      "nodes" in verdict
        ? `${verdict.nodes.map((id) => escapeQuotedId(id)).join(", ")}`
        : `${eventLocation(verdict.index, verdict.line)}, node ${escapeQuotedId(verdict.node)}`;
    chips.push(`<span class="chip bad">✗ ${name} <span class="detail">${detail}</span></span>`);
  }
  const { illegal } = report.legality;
  chips.push(
    illegal === 0
      ? `<span class="chip good">✓ every event legal</span>`
      : `<span class="chip warn">! ${plural(illegal, "illegal event")}</span>`,
  );
  if (report.tornTail !== null) {
    chips.push(
      `<span class="chip warn">! torn tail <span class="detail">line ${report.tornTail.line}</span></span>`,
    );
  }
  return `<div class="verdicts">${chips.join("")}</div>`;
}

function renderFindingsAndDag(findings: readonly Finding[], dag: DagView, report: Report): string {
  const flagged = flaggedNodes(findings);
  const illegalNotListed = report.legality.illegal - report.legality.first.length;
  // The note on unlisted illegal events goes right after the event findings, before the ones
  // about the final state and the torn tail.
  const cards = findings.map(renderFinding);
  if (illegalNotListed > 0) {
    const events = findings.filter((finding) => finding.kind === "event").length;
    cards.splice(
      events,
      0,
      `<p class="note">… and ${plural(illegalNotListed, "more illegal event")}, not listed (the report lists the first ${report.legality.first.length}).</p>`,
    );
  }
  const heading = findings.length === 0 ? "" : `<h3>What went wrong</h3>\n${cards.join("\n")}`;
  const when = dag.beforeIntegrityError ? "status before the integrity error" : "final status";
  return `${heading}
<h3>The DAG by layers, coloured by ${when}</h3>
${renderStatusLegend(report.final.counts, flagged.size > 0)}
${renderDag(dag, flagged)}`;
}

/** The nodes a finding names, ringed in red in the DAG. */
function flaggedNodes(findings: readonly Finding[]): Set<string> {
  const flagged = new Set<string>();
  for (const finding of findings) {
    switch (finding.kind) {
      case "event":
        if (finding.node !== null) flagged.add(finding.node);
        break;
      case "tamper":
        for (const { id } of finding.nodes) flagged.add(id);
        break;
      case "torn-tail":
        break;
      default: {
        const unreachable: never = finding;
        return unreachable;
      }
    }
  }
  return flagged;
}

/** When the journal could not be read again: what the report alone says broke, and where. */
function renderFindingsWithoutContext(report: Report): string {
  const items: string[] = [];
  const { integrity } = report;
  if (integrity !== null) {
    items.push(
      `<li><span class="rule bad">✗ integrity: ${integrity.reason}</span> ${eventLocation(integrity.index, integrity.line)}: ${escapeHtml(integrity.message)}</li>`,
    );
  }
  for (const name of INVARIANT_NAMES) {
    const verdict = report.invariants[name];
    if (verdict.holds) continue;
    items.push(
      "nodes" in verdict
        ? `<li><span class="rule bad">✗ ${name}</span> ${verdict.nodes.map((id) => escapeQuotedId(id)).join(", ")}: ${escapeHtml(WHY_TAMPERED)}</li>`
        : `<li><span class="rule bad">✗ ${name}</span> ${eventLocation(verdict.index, verdict.line)}, node ${escapeQuotedId(verdict.node)}: ${escapeHtml(WHY_BROKEN[name as Exclude<typeof name, "tamperEvident">])}</li>`,
    );
  }
  for (const event of report.legality.first) {
    items.push(
      `<li><span class="rule warn">! illegal: ${event.reason}</span> ${eventLocation(event.index, event.line)}, <code>${escapeHtml(event.kind)}</code> node ${escapeQuotedId(event.node)}: ${escapeHtml(WHY_ILLEGAL[event.reason])}</li>`,
    );
  }
  return items.length === 0
    ? ""
    : `<h3>What went wrong</h3><ul class="rules">${items.join("")}</ul>`;
}
