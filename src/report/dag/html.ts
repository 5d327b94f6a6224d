/**
 * The dag model's part of the HTML report (src/report/model-html.ts): a chip per check, each
 * finding in context with its node's state before and after, and the DAG by layers coloured by
 * status. The view replays the journal on the dag kernel, loaded when a view is first gathered.
 */
import type { Dag } from "../../models/dag/dag.js";
import type { Report } from "../../models/dag/report.js";
import { INVARIANT_NAMES } from "../../models/dag/report.js";
import type { KernelOptions } from "../../models/model.js";
import { plural } from "../../text/format-units.js";
import { escapeHtml, escapeQuotedId } from "../escape-html.js";
import type { JournalReadAgain, ModelHtml } from "../model-html.js";
import { verdictsOnlyView } from "../verdicts-only-view.js";
import type { JournalView } from "../views.js";
import { eventLocation } from "../wording.js";
import type { Replayer } from "./build-journal-view.js";
import type { DagJournalView, DagView, Finding } from "./journal-view.js";
import { renderDag, renderStatusLegend } from "./render-dag.js";
import { renderFinding } from "./render-finding.js";
import { statusColourCss } from "./status-colours.js";
import { WHY_BROKEN, WHY_ILLEGAL, WHY_TAMPERED } from "./wording.js";

export const dagHtml: ModelHtml<Report> = {
  gatherView,
  // A dag view is one `gatherView` built, or one with only the verdicts.
  renderBody: (view) => renderDagBody(view as DagJournalView),
  css: `${statusColourCss()}\n`,
};

async function gatherView(read: JournalReadAgain<Report>): Promise<JournalView<Report>> {
  const { file, report, journal } = read;
  const dag = journal.fields as Dag | null;
  if (dag === null) return verdictsOnlyView(read, "The journal's DAG is not known");
  const { buildJournalView, linesToQuote } = await import("./build-journal-view.js");
  const quoted = await read.quote(linesToQuote(report, journal.lines));
  const { events, lines } = journal;
  return buildJournalView(
    { file, report, dag, events, lines },
    quoted,
    await replayer(read.kernel),
  );
}

let loadedReplayer: Promise<Replayer> | undefined;

/** The dag kernel, loaded once: it replays each finding's node far faster than the reference. */
function replayer(options: KernelOptions | undefined): Promise<Replayer> {
  loadedReplayer ??= import("../../../bindings/dag/engine.js").then((engine) =>
    engine.loadEngine(options),
  );
  return loadedReplayer;
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
