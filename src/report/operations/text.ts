/**
 * The operations model's words in the text output (src/report/model-text.ts): each broken rule
 * at its first breach, the records that broke one, and — read from the journal again — the
 * numbers behind a finding whose rule is arithmetic (the retry ladder's sum, the
 * classification's step), as the HTML report shows them.
 */
import type { OperationsReport } from "../../models/operations/report.js";
import { RULE_NAMES } from "../../models/operations/report.js";
import { plural } from "../../text/format-units.js";
import type { EntriesReadAgain, FindingNumbers, ModelText } from "../model-text.js";
import { eventLocation as at } from "../wording.js";
import {
  brokenRules,
  numbersSentence,
  operationsFinal,
  reasonOfBreach,
  subjectText,
  WHY_REASON,
} from "./wording.js";

export const operationsText: ModelText<OperationsReport> = {
  ruleNames: RULE_NAMES,
  brokenRules: (report) =>
    brokenRules(report).map(({ rule, verdict }) => {
      const reason = reasonOfBreach(report, rule);
      const why = reason === null ? "" : `: ${reason} — ${WHY_REASON[reason]}`;
      return { rule, text: `${at(verdict.index, verdict.line)}  ${subjectText(verdict)}${why}` };
    }),
  listedHeading: ({ legality }) => `${plural(legality.illegal, "record")} broke a rule:`,
  listedFinding: (entry) => `${entry.kind}  ${subjectText(entry)}: ${entry.reason}`,
  finalLine: operationsFinal,
  findingNumbers,
};

const NONE: FindingNumbers = new Map();

/**
 * The numbers are gathered as the HTML report's view gathers them, by folding the records up to
 * the last listed finding; the fold is loaded only for a journal that has such a finding.
 */
async function findingNumbers(
  report: OperationsReport,
  readAgain: () => Promise<EntriesReadAgain | null>,
): Promise<FindingNumbers> {
  const { buildOperationsView, REASONS_WITH_NUMBERS } = await import("./view.js");
  if (!report.legality.first.some((entry) => REASONS_WITH_NUMBERS.has(entry.reason))) return NONE;
  const journal = await readAgain();
  if (journal === null) return NONE;
  const { file, entries: records, lines } = journal;
  const view = buildOperationsView({ file, report, records, lines }, new Map());
  if (!view.context.gathered) return NONE;
  const byRecord = new Map<number, string>();
  for (const finding of view.context.findings) {
    const sentence = numbersSentence(finding);
    if (sentence !== null) byRecord.set(finding.index, sentence);
  }
  const numbers = new Map<number, string>();
  report.legality.first.forEach((entry, place) => {
    const sentence = byRecord.get(entry.index);
    if (sentence !== undefined) numbers.set(place, sentence);
  });
  return numbers;
}
