/**
 * The body of an `executive` journal's section in the HTML report: a chip per rule, then each
 * listed mismatch with the machine's decision and the recorded one side by side, and the frame
 * stack the machine then held, each budget a bar of used against limit. Pure.
 */

import { EXECUTIVE_RULE_NAMES } from "../../models/executive/rules.js";
import { COUNTERS } from "../../models/executive/spec.js";
import { formatCount } from "../../text/format-units.js";
import { escapeHtml } from "../escape-html.js";
import { eventLocation } from "../wording.js";
import type { ExecutiveJournalView, FrameBudgets } from "./view.js";
import { recordedText, WHY_EXECUTIVE } from "./wording.js";

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
  const frames = view.context.gathered ? view.context.frames : null;
  const rows = report.legality.first.map((entry, i) => {
    const recorded = recordedText(entry, 1);
    const stack = frames === null ? "" : `<td>${frameStack(frames[i] ?? [])}</td>`;
    return `<tr><td>${eventLocation(entry.index, entry.line)}</td><td><pre>${escapeHtml(JSON.stringify(entry.expected, null, 1))}</pre></td><td><pre>${escapeHtml(recorded)}</pre></td>${stack}</tr>`;
  });
  const unlisted = report.legality.illegal - report.legality.first.length;
  const more =
    unlisted > 0 ? `<p class="note">… and ${formatCount(unlisted)} more, not listed.</p>` : "";
  const table =
    rows.length === 0
      ? ""
      : `<h3>Where the recorded decisions differ from the machine's</h3>
<table class="mismatches"><thead><tr><th>where</th><th>the machine decides</th><th>the host recorded</th>${frames === null ? "" : "<th>the machine's frames then</th>"}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>${more}`;
  return `<div class="verdicts">${chips.join("")}</div>${omitted}${table}`;
}

/**
 * The frames, root first, each budget a bar: full (and marked ✗) when nothing is left; a zero
 * budget nothing was charged to was never granted, and draws as such rather than as spent.
 */
function frameStack(frames: readonly FrameBudgets[]): string {
  return frames
    .map((frame) => {
      const name =
        frame.id === null ? "root plan" : `sub-plan <code>${escapeHtml(frame.id)}</code>`;
      const bars = COUNTERS.map((counter) =>
        budgetBar(counter, frame.used[counter], frame.limits[counter]),
      );
      const deadline = `<div class="budget"><span class="counter">deadline</span><span></span><span class="num">${frame.limits.deadline}</span></div>`;
      return `<div class="frame"><div class="frame-name">${name}</div>${bars.join("")}${deadline}</div>`;
    })
    .join("");
}

function budgetBar(counter: string, used: number, limit: number): string {
  const bar = (state: string, width: number, label: string, figures: string) =>
    `<div class="budget${state}"><span class="counter">${label}</span><span class="bar"><span style="width:${width.toFixed(1)}%"></span></span><span class="num">${figures}</span></div>`;
  if (limit === 0 && used === 0) return bar(" unused", 0, counter, "0 / 0, none granted");
  const full = used >= limit;
  const width = Math.min(100, (100 * used) / limit);
  return bar(full ? " full" : "", width, `${full ? "✗ " : ""}${counter}`, `${used} / ${limit}`);
}
