/**
 * The body of an `operations` journal's section in the HTML report: a chip per rule, then each
 * finding in its own terms — the record's lines as written, its op's steps before and after it,
 * the retry ladder's sum or the classification's inputs where the rule is arithmetic
 * (operations-view.ts gathers them). Pure.
 */

import { RULE_NAMES } from "../../models/operations/report.js";
import { plural } from "../../text/format-units.js";
import { escapeHtml } from "../escape-html.js";
import { renderQuotedLines } from "../render-quoted-lines.js";
import { eventLocation } from "../wording.js";
import type { LadderView, OperationsFinding, OperationsJournalView, StepView } from "./view.js";
import {
  brokenRules,
  classificationSentence,
  ladderSentence,
  reasonOfBreach,
  subjectText,
  WHY_REASON,
} from "./wording.js";

export function renderOperationsBody(view: OperationsJournalView): string {
  const { report } = view;
  const chips = renderChips(view);
  if (!view.context.gathered) {
    return `${chips}<p class="omitted">${escapeHtml(view.context.why)}</p>${renderFromReport(view)}`;
  }
  const cards = view.context.findings.map(renderFinding);
  const unlisted = report.legality.illegal - report.legality.first.length;
  if (unlisted > 0) {
    cards.push(
      `<p class="note">… and ${plural(unlisted, "more record")} that broke a rule, not listed (the report lists the first ${report.legality.first.length}).</p>`,
    );
  }
  return `${chips}${cards.length === 0 ? "" : `<h3>What went wrong</h3>\n${cards.join("\n")}`}`;
}

function renderChips({ report }: OperationsJournalView): string {
  const chips = [
    report.integrity === null
      ? `<span class="chip good">✓ integrity</span>`
      : `<span class="chip bad">✗ integrity <span class="detail">${report.integrity.reason} at ${eventLocation(report.integrity.index, report.integrity.line)}</span></span>`,
  ];
  for (const rule of RULE_NAMES) {
    const verdict = report.invariants[rule];
    chips.push(
      verdict.holds
        ? `<span class="chip good">✓ ${rule}</span>`
        : `<span class="chip bad">✗ ${rule} <span class="detail">${eventLocation(verdict.index, verdict.line)}, ${escapeHtml(subjectText(verdict))}</span></span>`,
    );
  }
  if (report.tornTail !== null) {
    chips.push(
      `<span class="chip warn">! torn tail <span class="detail">line ${report.tornTail.line}</span></span>`,
    );
  }
  return `<div class="verdicts">${chips.join("")}</div>`;
}

/** When the journal could not be read again: each broken rule at its first breach, in line order. */
function renderFromReport({ report }: OperationsJournalView): string {
  const items = brokenRules(report).map(({ rule, verdict }) => {
    const reason = reasonOfBreach(report, rule);
    const why = reason === null ? "" : `: ${reason} — ${escapeHtml(WHY_REASON[reason])}`;
    return `<li><span class="rule bad">✗ ${rule}</span> ${eventLocation(verdict.index, verdict.line)}, ${escapeHtml(subjectText(verdict))}${why}</li>`;
  });
  return items.length === 0
    ? ""
    : `<h3>What went wrong</h3><ul class="rules">${items.join("")}</ul>`;
}

function renderFinding(finding: OperationsFinding): string {
  const where = [
    finding.line === undefined ? null : `<span class="at-line">line ${finding.line}</span>`,
    `<span>event ${finding.index}</span>`,
    `<code>${escapeHtml(finding.recordKind)}</code>`,
    `<span>${escapeHtml(finding.subject)}</span>`,
  ].filter((part) => part !== null);
  const rule = `<li><span class="rule bad">✗ ${finding.rule}: ${finding.reason}</span> ${escapeHtml(WHY_REASON[finding.reason])}</li>`;
  return `<article class="finding grave">
<header><div class="where">${where.join('<span class="dot">·</span>')}</div>
<ul class="rules">${rule}</ul></header>
<div class="finding-body">
${renderQuotedLines(finding.quoted, finding.index)}
${finding.ladder === null ? "" : renderLadder(finding.ladder)}
${finding.classification === null ? "" : renderClassification(finding.classification)}
${renderSteps(finding)}
</div>
</article>`;
}

function renderLadder(ladder: LadderView): string {
  const { policy } = ladder;
  return `<p class="note"><strong>${escapeHtml(ladderSentence(ladder))}</strong> — the jittered wait after attempt ${ladder.attempt} of effect <code>${escapeHtml(JSON.stringify(ladder.effect))}</code> under base ${policy.baseDelayMs} ms, cap ${policy.maxDelayMs} ms, and the provider's hint.</p>`;
}

function renderClassification(view: NonNullable<OperationsFinding["classification"]>): string {
  const rows = [
    ["control", view.control],
    ["stop", view.stop],
    ["errorMessage", view.errorMessage === null ? "—" : JSON.stringify(view.errorMessage)],
    ["outputTokens", String(view.outputTokens)],
    ["toolCalls", String(view.toolCalls)],
    ["outputLimit (intent)", String(view.outputLimit)],
  ].map(([name, value]) => `<tr><th>${name}</th><td>${escapeHtml(value as string)}</td></tr>`);
  return `<table class="states"><caption>${classificationSentence(view, (className) => `<code>${escapeHtml(className)}</code>`)}</caption>
<tbody>${rows.join("")}</tbody></table>`;
}

function renderSteps(finding: OperationsFinding): string {
  if (finding.op === null) return "";
  const before = finding.stepsBefore;
  const after = finding.stepsAfter;
  if (before === null && after === null) {
    return `<p class="note">No op ${escapeHtml(JSON.stringify(finding.op))} is known at this record, so there are no steps to show.</p>`;
  }
  const keys = [...new Set([...(before ?? []), ...(after ?? [])].map((step) => step.key))];
  const cell = (steps: readonly StepView[] | null, key: string) => {
    const step = steps?.find((candidate) => candidate.key === key);
    return step === undefined ? "—" : stepText(step);
  };
  const rows = keys.map((key) => {
    const was = cell(before, key);
    const now = cell(after, key);
    return `<tr><th><code>${escapeHtml(key)}</code></th><td>${escapeHtml(was)}</td><td${was === now ? "" : ' class="changed"'}>${escapeHtml(now)}</td></tr>`;
  });
  const body = rows.length === 0 ? `<tr><td colspan="3">no live steps</td></tr>` : rows.join("");
  return `<table class="states"><caption>op ${escapeHtml(JSON.stringify(finding.op))}: its steps around the record</caption>
<thead><tr><th>step</th><th>before</th><th>after</th></tr></thead>
<tbody>${body}</tbody></table>`;
}

function stepText(step: StepView): string {
  const notBefore = step.notBefore === null ? "" : `, not before ${step.notBefore}`;
  return `${step.status}: attempt ${step.attempt}, effect ${JSON.stringify(step.effect)}${notBefore}`;
}
