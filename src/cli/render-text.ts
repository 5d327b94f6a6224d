/**
 * The text rendering of audit reports, for people: a verdict line per journal, then only what
 * went wrong — the integrity error, each broken rule with where it broke and why, a torn tail,
 * the listed findings — and the final summary. The frame is every model's; the words inside it
 * are the model's (its `text`, src/report/model-text.ts). Colour only marks the verdicts.
 */
import type { Model } from "../models/model.js";
import { type ModelReport, modelNamed } from "../models/registry.js";
import type { FindingNumbers } from "../report/model-text.js";
import { passes } from "../report/verdict.js";
import {
  eventLocation as at,
  integrityConsequence,
  journalTitle,
  TORN_TAIL_MEANING,
} from "../report/wording.js";
import { formatCount, plural } from "../text/format-units.js";
import type { AuditedJournal } from "./engine.js";

export { passes } from "../report/verdict.js";

export interface TextOptions {
  /** Whether a journal passes only when strictly conformant. */
  readonly strict: boolean;
  readonly colour: boolean;
}

const INDENT = "  ";

type Paint = (text: string) => string;

interface Style {
  readonly good: Paint;
  readonly bad: Paint;
  readonly warn: Paint;
}

/** A journal to render: its report, and the numbers behind its findings when they were gathered. */
export interface TextJournal extends AuditedJournal {
  readonly numbers?: FindingNumbers;
}

export function renderAuditText(audited: readonly TextJournal[], options: TextOptions): string {
  const style = options.colour ? ANSI : PLAIN;
  const blocks = audited.map((journal) => renderJournal(journal, options.strict, style).join("\n"));
  return `${blocks.join("\n\n")}\n`;
}

/** The closing line when several journals were given. */
export function renderSummary(
  given: number,
  readable: number,
  passing: number,
  strict: boolean,
): string {
  const unreadable = given - readable;
  const verdict = strict ? "strictly conformant" : "conformant";
  const unread = unreadable === 0 ? "" : `, ${formatCount(unreadable)} could not be read`;
  return `\n${formatCount(passing)} of ${plural(given, "journal")} ${verdict}${unread}\n`;
}

/** The lines of one journal: the frame every model shares, the findings in the model's words. */
function renderJournal(
  { file, report, numbers = NO_NUMBERS }: TextJournal,
  strict: boolean,
  style: Style,
): string[] {
  const model: Model = modelNamed(report.model);
  const width = Math.max(...model.text.ruleNames.map((name) => name.length)) + 2;
  const label = (text: string) => text.padEnd(width);
  const lines = [verdictLine(file, report, strict, style)];
  if (report.integrity !== null) lines.push(...integrityLines(report.integrity, style, label));
  for (const { rule, text } of model.text.brokenRules(report)) {
    lines.push(`${INDENT}${style.bad("✗")} ${label(rule)}${text}`);
  }
  if (report.tornTail !== null) {
    const { line, offset } = report.tornTail;
    const where = `line ${line}, byte ${offset}`;
    lines.push(`${INDENT}${style.warn("!")} ${label("torn tail")}${where}: ${TORN_TAIL_MEANING}`);
  }
  lines.push(...listedLines(model, report, numbers, style));
  lines.push(`${INDENT}${model.text.finalLine(report)}`);
  return lines;
}

/** The listed findings under the model's heading, each with the numbers behind it where gathered. */
function listedLines(
  model: Model,
  report: ModelReport,
  numbers: FindingNumbers,
  style: Style,
): string[] {
  const { legality } = report;
  if (legality.illegal === 0) return [];
  const heading = `${INDENT}${style.warn("!")} ${model.text.listedHeading(report)}`;
  const listed = (legality.first as readonly ListedFinding[]).map((entry, place) => {
    const said = numbers.get(place);
    const why = said === undefined ? "" : ` — ${said}`;
    return `${INDENT}    ${at(entry.index, entry.line)}  ${model.text.listedFinding(entry)}${why}`;
  });
  const more = legality.illegal - legality.first.length;
  return more > 0
    ? [heading, ...listed, `${INDENT}    … and ${formatCount(more)} more`]
    : [heading, ...listed];
}

type ListedFinding = ModelReport["legality"]["first"][number];

type Label = (text: string) => string;

function verdictLine(file: string, report: ModelReport, strict: boolean, style: Style): string {
  const mark = passes(report, strict) ? style.good("✓") : style.bad("✗");
  const title = journalTitle(file, report);
  return `${mark} ${title}: ${verdict(report, strict, style)} (${plural(report.events, "event")})`;
}

function verdict(report: ModelReport, strict: boolean, style: Style): string {
  if (report.strictlyConformant) return style.good("strictly conformant");
  if (!report.conformant) return style.bad("NOT CONFORMANT");
  const illegal = plural(report.legality.illegal, "illegal event");
  if (strict) return style.bad(`conformant, but NOT strictly: ${illegal}`);
  return `${style.good("conformant")}, but not strictly: ${illegal}`;
}

function integrityLines(
  integrity: ModelReport["integrity"] & object,
  style: Style,
  label: Label,
): string[] {
  const where = at(integrity.index, integrity.line);
  return [
    `${INDENT}${style.bad("✗")} ${label("integrity")}${where}  ${integrity.reason}: ${integrity.message}`,
    `${INDENT}  ${label("")}${integrityConsequence(integrity.index)}`,
  ];
}

const NO_NUMBERS: FindingNumbers = new Map();

const PLAIN: Style = { good: (text) => text, bad: (text) => text, warn: (text) => text };

const ANSI: Style = {
  good: (text) => `\u001b[32m${text}\u001b[39m`,
  bad: (text) => `\u001b[1;31m${text}\u001b[22;39m`,
  warn: (text) => `\u001b[33m${text}\u001b[39m`,
};
