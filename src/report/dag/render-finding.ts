/**
 * A finding of a journal view as an HTML card: what broke (rule, line, node and why, in the words
 * of the text output), the journal lines up to the offending one as written, and the node's
 * state before and after it with what changed marked. Pure.
 */

import type { Deposit } from "../../models/dag/state.js";
import { formatCount, nounFor } from "../../text/format-units.js";
import { escapeHtml, escapeJournalText, escapeQuotedId } from "../escape-html.js";
import { renderQuotedLines } from "../render-quoted-lines.js";
import { integrityConsequence, TORN_TAIL_MEANING } from "../wording.js";
import type {
  BrokenRule,
  EventFinding,
  Finding,
  NodeStateView,
  SurfaceChange,
  SurfaceView,
  TamperFinding,
  TornTailFinding,
} from "./journal-view.js";
import { illegalMeaning, WHY_BROKEN, WHY_ILLEGAL, WHY_TAMPERED } from "./wording.js";

export function renderFinding(finding: Finding): string {
  switch (finding.kind) {
    case "event":
      return renderEventFinding(finding);
    case "tamper":
      return renderTamperFinding(finding);
    case "torn-tail":
      return renderTornTailFinding(finding);
    default: {
      const unreachable: never = finding;
      return unreachable;
    }
  }
}

/** A finding is grave when it breaks conformance, a warning when it only breaks strictness. */
function severity(broken: readonly BrokenRule[]): "grave" | "warning" {
  return broken.some((rule) => rule.rule !== "illegal") ? "grave" : "warning";
}

function renderEventFinding(finding: EventFinding): string {
  const where = [
    finding.line === undefined ? null : `<span class="at-line">line ${finding.line}</span>`,
    `<span>event ${finding.index}</span>`,
    finding.eventKind === null ? null : `<code>${escapeJournalText(finding.eventKind)}</code>`,
    finding.node === null
      ? null
      : `<span>node <code class="id">${escapeQuotedId(finding.node)}</code></span>`,
  ].filter((part) => part !== null);
  const rules = finding.broken.map((rule) => `<li>${renderRule(rule, finding.index)}</li>`);
  return `<article class="finding ${severity(finding.broken)}">
<header><div class="where">${where.join('<span class="dot">·</span>')}</div>
<ul class="rules">${rules.join("")}</ul></header>
<div class="finding-body">
${renderQuotedLines(finding.quoted, finding.index)}
${renderStates(finding)}
</div>
</article>`;
}

function renderRule(rule: BrokenRule, index: number): string {
  switch (rule.rule) {
    case "invariant":
      return `<span class="rule bad">✗ ${rule.name}</span> ${escapeHtml(WHY_BROKEN[rule.name])}`;
    case "illegal":
      return `<span class="rule warn">! illegal: ${rule.reason}</span> ${escapeHtml(WHY_ILLEGAL[rule.reason])} — ${illegalMeaning(1)}`;
    case "integrity":
      return `<span class="rule bad">✗ integrity: ${rule.reason}</span> ${escapeHtml(rule.message)} — ${escapeHtml(integrityConsequence(index))}`;
    default: {
      const unreachable: never = rule;
      return unreachable;
    }
  }
}

function renderStates(finding: EventFinding): string {
  const { before, after, node } = finding;
  if (node === null) {
    return `<p class="note">The event names no node, so there is no node state to show.</p>`;
  }
  if (before === null) {
    return `<p class="note">The DAG has no node ${escapeQuotedId(node)}, so there is no node state to show.</p>`;
  }
  const afterCell = (cell: (state: NodeStateView) => string) =>
    after === null ? `<td class="stopped">—</td>` : changedCell(cell(before), cell(after));
  const rows = [
    ["status", statusPill(before.status), afterCell((state) => statusPill(state.status))],
    ["phase", String(before.phase), afterCell((state) => String(state.phase))],
    ["deposit", depositText(before.deposit), afterCell((state) => depositText(state.deposit))],
    [
      "surface",
      surfaceHtml(before.surface),
      after === null
        ? `<td class="stopped">—</td>`
        : changedCell(
            surfaceHtml(before.surface),
            surfaceHtml(after.surface, finding.surfaceChange),
          ),
    ],
  ].map(([name, was, now]) => `<tr><th>${name}</th><td>${was}</td>${now}</tr>`);
  if (finding.dependencies !== null) rows.push(dependenciesRow(finding.dependencies));
  const afterHeading = after === null ? "after (the fold stops here)" : "after";
  return `<table class="states"><caption>node ${escapeQuotedId(node)} around the event</caption>
<thead><tr><th></th><th>before</th><th>${afterHeading}</th></tr></thead>
<tbody>${rows.join("")}</tbody></table>`;
}

/** The dependencies a dispatch needed proven, as they stood just before it. */
function dependenciesRow(dependencies: NonNullable<EventFinding["dependencies"]>): string {
  const pills = dependencies.map(
    ({ id, status }) =>
      `<span class="dependency"><code class="id">${escapeQuotedId(id)}</code> ${statusPill(status)}</span>`,
  );
  return `<tr><th>deps before</th><td colspan="2">${pills.join(" ")}</td></tr>`;
}

function changedCell(was: string, now: string): string {
  return now === was ? `<td>${now}</td>` : `<td class="changed">${now}</td>`;
}

function statusPill(status: NodeStateView["status"]): string {
  return `<span class="pill s-${status}">${status}</span>`;
}

function depositText(deposit: Deposit | null): string {
  if (deposit === null) return `<span class="muted">none</span>`;
  return `${deposit.validation} · ${deposit.mode} · phase ${deposit.phase}`;
}

function surfaceHtml(surface: SurfaceView, change: SurfaceChange | null = null): string {
  if (surface.well === "malformed") {
    return `<span class="rule bad">not a list of paths</span> <code>${escapeJournalText(surface.json)}</code>`;
  }
  const added = new Set(change?.added ?? []);
  const paths = surface.paths.map(
    (path) =>
      `<code class="path${added.has(path) ? " added" : ""}">${added.has(path) ? "+ " : ""}${escapeJournalText(path)}</code>`,
  );
  if (surface.total > surface.paths.length) {
    paths.push(
      `<span class="muted">and ${formatCount(surface.total - surface.paths.length)} more</span>`,
    );
  }
  if (change !== null && change.droppedTotal > 0) {
    const dropped = change.dropped.map(
      (path) => `<code class="path dropped">− ${escapeJournalText(path)}</code>`,
    );
    const more = change.droppedTotal - change.dropped.length;
    if (more > 0) dropped.push(`<span class="muted">and ${formatCount(more)} more dropped</span>`);
    paths.push(...dropped);
  }
  return paths.length === 0 ? `<span class="muted">empty</span>` : paths.join(" ");
}

function renderTamperFinding(finding: TamperFinding): string {
  const rows = finding.nodes.map(({ id, final }) => {
    const state =
      final === null
        ? ""
        : `${statusPill(final.status)} phase ${final.phase} · deposit ${depositText(final.deposit)}`;
    return `<li><code class="id">${escapeQuotedId(id)}</code> ${state}</li>`;
  });
  return `<article class="finding grave">
<header><div class="where"><span>the final state</span></div>
<ul class="rules"><li><span class="rule bad">✗ tamperEvident</span> ${nounFor(finding.nodes.length, "a node", "nodes")} ${escapeHtml(WHY_TAMPERED)}</li></ul></header>
<div class="finding-body"><ul class="tampered">${rows.join("")}</ul></div>
</article>`;
}

function renderTornTailFinding(finding: TornTailFinding): string {
  return `<article class="finding warning">
<header><div class="where"><span class="at-line">line ${finding.line}</span><span class="dot">·</span><span>byte ${finding.offset}</span></div>
<ul class="rules"><li><span class="rule warn">! torn tail</span> ${escapeHtml(TORN_TAIL_MEANING)}</li></ul></header>
<div class="finding-body">${renderQuotedLines(finding.quoted, null)}</div>
</article>`;
}
