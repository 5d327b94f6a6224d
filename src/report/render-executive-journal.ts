/**
 * The body of an `executive` journal's section in the HTML report: a chip per rule, then each
 * listed mismatch with the machine's decision and the recorded one side by side. Pure.
 */
import { EXECUTIVE_RULE_NAMES } from "../models/executive/audit.js";
import { escapeHtml } from "./escape-html.js";
import type { ExecutiveJournalView } from "./executive-view.js";
import { WHY_EXECUTIVE } from "./executive-wording.js";
import { eventLocation } from "./wording.js";

export function renderExecutiveBody(view: ExecutiveJournalView): string {
  const { report } = view;
  const chips = [
    report.integrity === null
      ? `<span class="chip good">✓ integrity</span>`
      : `<span class="chip bad">✗ integrity <span class="detail">${report.integrity.reason} at ${eventLocation(report.integrity.index, report.integrity.line)}: ${escapeHtml(report.integrity.message)}</span></span>`,
  ];
  for (const rule of EXECUTIVE_RULE_NAMES) {
    const verdict = report.invariants[rule];
    chips.push(
      verdict.holds
        ? `<span class="chip good">✓ ${rule}</span>`
        : `<span class="chip bad">✗ ${rule} <span class="detail">${eventLocation(verdict.index, verdict.line)}: ${escapeHtml(WHY_EXECUTIVE[rule])}</span></span>`,
    );
  }
  if (report.tornTail !== null) {
    chips.push(
      `<span class="chip warn">! torn tail <span class="detail">line ${report.tornTail.line}</span></span>`,
    );
  }
  const omitted = view.context.gathered
    ? ""
    : `<p class="omitted">${escapeHtml(view.context.why)}</p>`;
  const rows = report.legality.first.map((entry) => {
    const recorded =
      "recordedBytes" in entry
        ? `a decision of ${entry.recordedBytes} bytes`
        : JSON.stringify(entry.recorded, null, 1);
    return `<tr><td>${eventLocation(entry.index, entry.line)}</td><td><pre>${escapeHtml(JSON.stringify(entry.expected, null, 1))}</pre></td><td><pre>${escapeHtml(recorded)}</pre></td></tr>`;
  });
  const unlisted = report.legality.illegal - report.legality.first.length;
  const more = unlisted > 0 ? `<p class="note">… and ${unlisted} more, not listed.</p>` : "";
  const table =
    rows.length === 0
      ? ""
      : `<h3>Where the recorded decisions differ from the machine's</h3>
<table class="mismatches"><thead><tr><th>where</th><th>the machine decides</th><th>the host recorded</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table>${more}`;
  return `<div class="verdicts">${chips.join("")}</div>${omitted}${table}`;
}
