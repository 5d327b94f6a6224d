/**
 * A model defined by data in the HTML report (src/report/model-html.ts): a chip per rule with the
 * model file's description, then each listed finding — and each broken rule's first, when it is
 * not listed — with the record that made it, as written, the instance it concerns with its states
 * before and after that record, and the values it compared: the journal replayed once through
 * the reference interpreter (src/models/data/replay.ts) up to the last of those records.
 */
import type { DataEntry } from "../../models/data/audit.js";
import type { CompiledModel } from "../../models/data/compiled.js";
import type { ReplayedFinding } from "../../models/data/replay.js";
import type { DataFinding, DataReport } from "../../models/data/report.js";
import { UnparseableLine } from "../../models/journal-source.js";
import { formatCount } from "../../text/format-units.js";
import { escapeHtml } from "../escape-html.js";
import type { ModelHtml } from "../model-html.js";
import type { GatheredContext, JournalView } from "../views.js";
import { eventLocation } from "../wording.js";
import {
  type FindingWords,
  findingWords,
  ruleDescription,
  subjectText,
  WHY_DATA_REASON,
} from "./wording.js";

interface DataContext extends GatheredContext {
  /** By listed finding, what the replay shows of it. */
  readonly findings: readonly ShownFinding[];
  /** Each broken rule's first finding that is not listed, by rule, in the order of `invariants`. */
  readonly firstOfRules: readonly (ShownFinding & { readonly finding: DataFinding })[];
}

interface ShownFinding extends FindingWords {
  /** The record it was found at, as the journal writes it; null where it is not a record of JSON. */
  readonly record: string | null;
}

export function dataHtml<Name extends string>(model: CompiledModel): ModelHtml<DataReport<Name>> {
  return {
    async gatherView({ file, report, journal }) {
      const { replayFindings } = await import("../../models/data/replay.js");
      const replayed = replayFindings(model, journal.events as readonly DataEntry[], report);
      if (replayed === null)
        return {
          file,
          report,
          context: {
            gathered: false,
            why: "The journal is not the one audited any more: replayed, it gives other findings",
          },
        };
      const shown = (index: number, finding: ReplayedFinding): ShownFinding => {
        const entry = replayed.entries.get(index);
        const record =
          entry === undefined || entry.parsed instanceof UnparseableLine ? null : entry.parsed.text;
        return { record, ...findingWords(finding) };
      };
      const listed = report.legality.first;
      const findings = replayed.listed.map((finding, place) =>
        shown((listed[place] as DataFinding).index, finding),
      );
      const firstOfRules = Object.entries(report.invariants).flatMap(([rule, verdict]) => {
        const finding = replayed.firstOfRule.get(rule);
        if (verdict.holds || finding === undefined) return [];
        const { holds: _, ...place } = verdict;
        const first = { ...place, rule };
        if (listed.some((other) => other.rule === rule)) return [];
        return [{ ...shown(verdict.index, finding), finding: first }];
      });
      const context: DataContext = { gathered: true, findings, firstOfRules };
      return { file, report, context };
    },
    css: DATA_CSS,
    // A data view is one `gatherView` built, or one with only the verdicts.
    renderBody: (view) =>
      renderDataBody(model, view as unknown as JournalView<DataReport, DataContext>),
  };
}

const DATA_CSS = `table.findings td{vertical-align:top;padding:4px 12px 8px 0}
table.findings th{text-align:left;padding:4px 12px 4px 0}
table.findings .detail{color:var(--muted)}
table.findings .states,table.findings td.compared{font-family:var(--mono);font-size:12.5px}
table.findings pre{margin:0;white-space:pre-wrap;word-break:break-all;font-size:12px}`;

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
  const verdicts = `<div class="verdicts">${chips.join("")}</div>`;
  const unlisted = report.legality.illegal - report.legality.first.length;
  const more =
    unlisted > 0 ? `<p class="note">… and ${formatCount(unlisted)} more, not listed.</p>` : "";
  if (!view.context.gathered) {
    const omitted = `<p class="omitted">${escapeHtml(view.context.why)}</p>`;
    return `${verdicts}${omitted}${findingsTable(model, "Findings", report.legality.first, null)}${more}`;
  }
  const { findings, firstOfRules } = view.context;
  const listed = findingsTable(model, "Findings", report.legality.first, findings);
  const firsts = findingsTable(
    model,
    "The first finding of each rule broken only after those",
    firstOfRules.map(({ finding }) => finding),
    firstOfRules,
  );
  return `${verdicts}${listed}${more}${firsts}`;
}

/** The findings, each with what the replay shows of it when it was replayed (`shown` non-null). */
function findingsTable(
  model: CompiledModel,
  heading: string,
  listed: readonly DataFinding[],
  shown: readonly ShownFinding[] | null,
): string {
  if (listed.length === 0) return "";
  const rows = listed.map((finding, place) => {
    const description = ruleDescription(model, finding.rule);
    const rule = `${escapeHtml(finding.rule)}${description === null ? "" : `<br><span class="detail">${escapeHtml(description)}</span>`}`;
    const why = `${finding.reason}<br><span class="detail">${escapeHtml(WHY_DATA_REASON[finding.reason])}</span>`;
    const where = `<td>${eventLocation(finding.index, finding.line)}</td><td>${escapeHtml(finding.kind)}</td>`;
    const words = shown?.[place];
    if (words === undefined)
      return `<tr>${where}<td>${escapeHtml(subjectText(finding))}</td><td>${rule}</td><td>${why}</td></tr>`;
    const instance =
      words.instance === null
        ? ""
        : `${escapeHtml(words.instance)}<br><span class="states">${escapeHtml(words.states ?? "")}</span>`;
    const compared = words.compared === null ? "" : escapeHtml(words.compared);
    const record = words.record === null ? "" : `<pre>${escapeHtml(words.record)}</pre>`;
    return `<tr>${where}<td>${instance}</td><td>${rule}</td><td>${why}</td><td class="compared">${compared}</td><td>${record}</td></tr>`;
  });
  const replayed = shown === null ? "" : "<th>what it compared</th><th>the record</th>";
  const instance = shown === null ? "instance" : "instance: before → after";
  return `<h3>${heading}</h3>
<table class="findings"><thead><tr><th>where</th><th>kind</th><th>${instance}</th><th>rule</th><th>why</th>${replayed}</tr></thead>
<tbody>${rows.join("\n")}</tbody></table>`;
}
