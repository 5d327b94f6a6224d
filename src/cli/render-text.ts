/**
 * The text rendering of audit reports, for people: a verdict line per journal, then only what
 * went wrong — the integrity error, each broken invariant with its line, event and node, a torn
 * tail, the illegal events — and the final status counts. Colour only marks the verdicts.
 */
import { INVARIANT_NAMES, type InvariantsReport, type Report } from "../models/dag/report.js";
import type { ExecutiveReport } from "../models/executive/audit.js";
import { EXECUTIVE_RULE_NAMES } from "../models/executive/rules.js";
import { type OperationsReport, RULE_NAMES } from "../models/operations/report.js";
import type { ModelReport } from "../models/registry.js";
import { executiveFinal, mismatchText, WHY_EXECUTIVE } from "../report/executive/wording.js";
import {
  brokenRules,
  operationsFinal,
  reasonOfBreach,
  subjectText,
  WHY_REASON,
} from "../report/operations/wording.js";
import { passes } from "../report/verdict.js";
import {
  eventLocation as at,
  finalCounts,
  illegalMeaning,
  integrityConsequence,
  TORN_TAIL_MEANING,
  WHY_BROKEN,
  WHY_TAMPERED,
} from "../report/wording.js";
import { formatCount, nounFor, plural } from "../text/format-units.js";
import type { AuditedJournal } from "./engine.js";
import type { FindingNumbers } from "./finding-numbers.js";

export { passes } from "../report/verdict.js";

export interface TextOptions {
  /** Whether a journal passes only when strictly conformant. */
  readonly strict: boolean;
  readonly colour: boolean;
}

/** Wide enough for the longest rule name of each model, so that locations line up. */
const LABEL_WIDTH = {
  dag: Math.max(...INVARIANT_NAMES.map((name) => name.length)) + 2,
  operations: Math.max(...RULE_NAMES.map((name) => name.length)) + 2,
  executive: Math.max(...EXECUTIVE_RULE_NAMES.map((name) => name.length)) + 2,
} as const;
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
  const label = (text: string) => text.padEnd(LABEL_WIDTH[report.model]);
  const lines = [verdictLine(file, report, strict, style)];
  if (report.integrity !== null) lines.push(...integrityLines(report.integrity, style, label));
  lines.push(...brokenLines(report, style, label));
  if (report.tornTail !== null) {
    const { line, offset } = report.tornTail;
    const where = `line ${line}, byte ${offset}`;
    lines.push(`${INDENT}${style.warn("!")} ${label("torn tail")}${where}: ${TORN_TAIL_MEANING}`);
  }
  lines.push(
    ...(report.model === "executive"
      ? mismatchLines(report, style)
      : illegalLines(report, numbers, style)),
  );
  lines.push(`${INDENT}${finalLine(report)}`);
  return lines;
}

function brokenLines(report: ModelReport, style: Style, label: Label): string[] {
  switch (report.model) {
    case "dag":
      return brokenInvariantLines(report, style, label);
    case "operations":
      return brokenRuleLines(report, style, label);
    default:
      return brokenExecutiveLines(report, style, label);
  }
}

function finalLine(report: ModelReport): string {
  switch (report.model) {
    case "dag":
      return finalCounts(report);
    case "operations":
      return operationsFinal(report);
    default:
      return executiveFinal(report);
  }
}

function brokenExecutiveLines(report: ExecutiveReport, style: Style, label: Label): string[] {
  return EXECUTIVE_RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    if (verdict.holds) return [];
    const where = at(verdict.index, verdict.line);
    return [`${INDENT}${style.bad("✗")} ${label(rule)}${where}  ${WHY_EXECUTIVE[rule]}`];
  });
}

function mismatchLines(report: ExecutiveReport, style: Style): string[] {
  const { legality } = report;
  if (legality.illegal === 0) return [];
  const differ = legality.illegal === 1 ? "differs" : "differ";
  const heading = `${INDENT}${style.warn("!")} ${plural(legality.illegal, "decision")} ${differ} from the machine's:`;
  const listed = legality.first.map(
    (entry) => `${INDENT}    ${at(entry.index, entry.line)}  ${mismatchText(entry)}`,
  );
  const more = legality.illegal - legality.first.length;
  return more > 0
    ? [heading, ...listed, `${INDENT}    … and ${formatCount(more)} more`]
    : [heading, ...listed];
}

type Label = (text: string) => string;

function verdictLine(file: string, report: ModelReport, strict: boolean, style: Style): string {
  const mark = passes(report, strict) ? style.good("✓") : style.bad("✗");
  return `${mark} ${file}: ${verdict(report, strict, style)} (${plural(report.events, "event")})`;
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

function brokenInvariantLines(report: Report, style: Style, label: Label): string[] {
  return INVARIANT_NAMES.flatMap((name) => {
    const line = brokenInvariantLine(name, report.invariants, style, label);
    return line === null ? [] : [line];
  });
}

/**
 * Each broken rule at its first breach, in line order: where, whom it names, the reason and what
 * it means.
 */
function brokenRuleLines(report: OperationsReport, style: Style, label: Label): string[] {
  return brokenRules(report).map(({ rule, verdict }) => {
    const reason = reasonOfBreach(report, rule);
    const why = reason === null ? "" : `: ${reason} — ${WHY_REASON[reason]}`;
    const where = at(verdict.index, verdict.line);
    return `${INDENT}${style.bad("✗")} ${label(rule)}${where}  ${subjectText(verdict)}${why}`;
  });
}

function brokenInvariantLine(
  name: keyof InvariantsReport,
  invariants: InvariantsReport,
  style: Style,
  label: Label,
): string | null {
  const cross = `${INDENT}${style.bad("✗")} ${label(name)}`;
  if (name === "tamperEvident") {
    const verdict = invariants.tamperEvident;
    if (verdict.holds) return null;
    const nodes = verdict.nodes.map((id) => JSON.stringify(id)).join(", ");
    return `${cross}${nounFor(verdict.nodes.length, "node")} ${nodes}: ${WHY_TAMPERED}`;
  }
  const verdict = invariants[name];
  if (verdict.holds) return null;
  return `${cross}${at(verdict.index, verdict.line)}  node ${JSON.stringify(verdict.node)}: ${WHY_BROKEN[name]}`;
}

/** The listed illegal events, each with the numbers behind it where they were gathered. */
function illegalLines(
  report: Report | OperationsReport,
  numbers: FindingNumbers,
  style: Style,
): string[] {
  const { legality } = report;
  if (legality.illegal === 0) return [];
  const heading =
    report.model === "dag"
      ? `${INDENT}${style.warn("!")} ${plural(legality.illegal, "illegal event")} (${illegalMeaning(legality.illegal)}):`
      : `${INDENT}${style.warn("!")} ${plural(legality.illegal, "record")} broke a rule:`;
  const listed = (legality.first as readonly IllegalEntry[]).map((entry) => {
    const said = numbers.get(entry.index);
    const why = said === undefined ? "" : ` — ${said}`;
    return `${INDENT}    ${at(entry.index, entry.line)}  ${entry.kind}  ${whomOf(entry)}: ${entry.reason}${why}`;
  });
  const more = legality.illegal - legality.first.length;
  return more > 0
    ? [heading, ...listed, `${INDENT}    … and ${formatCount(more)} more`]
    : [heading, ...listed];
}

type IllegalEntry = (Report | OperationsReport)["legality"]["first"][number];

function whomOf(entry: IllegalEntry): string {
  return "node" in entry ? `node ${JSON.stringify(entry.node)}` : subjectText(entry);
}

const NO_NUMBERS: FindingNumbers = new Map();

const PLAIN: Style = { good: (text) => text, bad: (text) => text, warn: (text) => text };

const ANSI: Style = {
  good: (text) => `\u001b[32m${text}\u001b[39m`,
  bad: (text) => `\u001b[1;31m${text}\u001b[22;39m`,
  warn: (text) => `\u001b[33m${text}\u001b[39m`,
};
