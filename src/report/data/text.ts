/**
 * A model defined by data in the text output (src/report/model-text.ts): each broken rule at its
 * first finding with its description from the model file, the listed findings, and — from the
 * journal replayed, as the HTML report shows them — the instance each concerns with its states
 * before and after the record, and the values it compared.
 */
import type { DataEntry } from "../../models/data/audit.js";
import type { CompiledModel } from "../../models/data/compiled.js";
import type { DataReport } from "../../models/data/report.js";
import { plural } from "../../text/format-units.js";
import type { EntriesReadAgain, FindingNumbers, ModelText } from "../model-text.js";
import { eventLocation as at } from "../wording.js";
import {
  dataFinalLine,
  findingWords,
  findingWordsText,
  ruleDescription,
  subjectText,
  WHY_DATA_REASON,
} from "./wording.js";

export function dataText<Name extends string>(model: CompiledModel): ModelText<DataReport<Name>> {
  const described = (rule: string) => {
    const description = ruleDescription(model, rule);
    return description === null ? "" : ` (${description})`;
  };
  return {
    ruleNames: model.rules.map((rule) => rule.name),
    brokenRules: (report) =>
      Object.entries(report.invariants).flatMap(([rule, verdict]) => {
        if (verdict.holds) return [];
        const subject = subjectText(verdict);
        const where = `${at(verdict.index, verdict.line)}  ${verdict.kind}${subject === "" ? "" : `  ${subject}`}`;
        return [
          {
            rule,
            text: `${where}: ${verdict.reason} — ${WHY_DATA_REASON[verdict.reason]}${described(rule)}`,
          },
        ];
      }),
    listedHeading: ({ legality }) => `${plural(legality.illegal, "finding")}:`,
    listedFinding: (finding) => {
      const subject = subjectText(finding);
      return `${finding.kind}  ${finding.rule}${subject === "" ? "" : ` ${subject}`}: ${finding.reason}`;
    },
    finalLine: (report) => dataFinalLine(report.final),
    findingNumbers: (report, readAgain) => findingNumbers(model, report, readAgain),
  };
}

const NONE: FindingNumbers = new Map();

/** The words of each listed finding, by its place in `legality.first`. */
async function findingNumbers(
  model: CompiledModel,
  report: DataReport,
  readAgain: () => Promise<EntriesReadAgain | null>,
): Promise<FindingNumbers> {
  const listed = report.legality.first;
  if (listed.length === 0) return NONE;
  const journal = await readAgain();
  if (journal === null) return NONE;
  const { replayFindings } = await import("../../models/data/replay.js");
  const replayed = replayFindings(model, journal.entries as readonly DataEntry[], report);
  if (replayed === null) return NONE;
  const said = new Map<number, string>();
  replayed.listed.forEach((finding, place) => {
    const { entity } = listed[place] as DataReport["legality"]["first"][number];
    // The listed line names the instance a finding names: its words need not repeat it.
    const words = findingWordsText(findingWords(finding), entity !== undefined);
    if (words !== null) said.set(place, words);
  });
  return said;
}
