/**
 * A model defined by data in the HTML report (src/report/model-html.ts): a chip per rule with the
 * model file's description, then each listed finding with the record that made it, as written.
 */
import type { DataEntry } from "../../models/data/audit.js";
import type { CompiledModel } from "../../models/data/compiled.js";
import type { DataReport } from "../../models/data/report.js";
import { UnparseableLine } from "../../models/journal-source.js";
import { formatCount } from "../../text/format-units.js";
import { escapeHtml } from "../escape-html.js";
import type { ModelHtml } from "../model-html.js";
import type { GatheredContext, JournalView } from "../views.js";
import { eventLocation } from "../wording.js";
import { ruleDescription, subjectText, WHY_DATA_REASON } from "./wording.js";

interface DataContext extends GatheredContext {
  /** By listed finding, the record it was found at, as the journal writes it; null where it was not read. */
  readonly records: readonly (string | null)[];
}

export function dataHtml<Name extends string>(model: CompiledModel): ModelHtml<DataReport<Name>> {
  return {
    async gatherView({ file, report, journal }) {
      // A split stream's indexes count one journal's records, not the file's entries.
      const unsplit = report.journal === undefined;
      const records = report.legality.first.map((finding) => {
        const entry = unsplit
          ? (journal.events[finding.index] as DataEntry | undefined)
          : undefined;
        return entry === undefined || entry.parsed instanceof UnparseableLine
          ? null
          : entry.parsed.text;
      });
      const context: DataContext = { gathered: true, records };
      return { file, report, context };
    },
    css: "",
    // A data view is one `gatherView` built, or one with only the verdicts.
    renderBody: (view) =>
      renderDataBody(model, view as unknown as JournalView<DataReport, DataContext>),
  };
}

function renderDataBody(model: CompiledModel, view: JournalView<DataReport, DataContext>): string {
  const { report } = view;
  const chips = [
    report.integrity === null
      ? `<span class="chip good">✓ integrity</span>`
      : `<span class="chip bad">✗ integrity <span class="detail">${report.integrity.reason} at ${eventLocation(report.integrity.index, report.integrity.line)}: ${escapeHtml(report.integrity.message)}</span></span>`,
  ];
  for (const [rule, verdict] of Object.entries(report.invariants)) {
    const description = ruleDescription(model, rule);
    const title = description === null ? "" : ` title="${escapeHtml(description)}"`;
    chips.push(
      verdict.holds
        ? `<span class="chip good"${title}>✓ ${escapeHtml(rule)}</span>`
        : `<span class="chip bad"${title}>✗ ${escapeHtml(rule)} <span class="detail">${eventLocation(verdict.index, verdict.line)}: ${verdict.reason}</span></span>`,
    );
  }
  if (report.tornTail !== null)
    chips.push(
      `<span class="chip warn">! torn tail <span class="detail">line ${report.tornTail.line}</span></span>`,
    );
  const records = view.context.gathered ? view.context.records : null;
  const omitted = view.context.gathered
    ? ""
    : `<p class="omitted">${escapeHtml(view.context.why)}</p>`;
  const rows = report.legality.first.map((finding, place) => {
    const description = ruleDescription(model, finding.rule);
    const rule = `${escapeHtml(finding.rule)}${description === null ? "" : `<br><span class="detail">${escapeHtml(description)}</span>`}`;
    const why = `${finding.reason}<br><span class="detail">${escapeHtml(WHY_DATA_REASON[finding.reason])}</span>`;
    const record = records?.[place] ?? null;
    const recordCell =
      records === null
        ? ""
        : `<td>${record === null ? "" : `<pre>${escapeHtml(record)}</pre>`}</td>`;
    return `<tr><td>${eventLocation(finding.index, finding.line)}</td><td>${escapeHtml(finding.kind)}</td><td>${escapeHtml(subjectText(finding))}</td><td>${rule}</td><td>${why}</td>${recordCell}</tr>`;
  });
  const unlisted = report.legality.illegal - report.legality.first.length;
  const more =
    unlisted > 0 ? `<p class="note">… and ${formatCount(unlisted)} more, not listed.</p>` : "";
  const table =
    rows.length === 0
      ? ""
      : `<h3>Findings</h3>
<table class="findings"><thead><tr><th>where</th><th>kind</th><th>instance</th><th>rule</th><th>why</th>${records === null ? "" : "<th>the record</th>"}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>${more}`;
  return `<div class="verdicts">${chips.join("")}</div>${omitted}${table}`;
}
