/** A model defined by data in the text output (src/report/model-text.ts). */
import type { CompiledModel } from "../../models/data/compiled.js";
import type { DataReport } from "../../models/data/report.js";
import { plural } from "../../text/format-units.js";
import type { ModelText } from "../model-text.js";
import { eventLocation as at } from "../wording.js";
import { dataFinalLine, ruleDescription, subjectText, WHY_DATA_REASON } from "./wording.js";

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
  };
}
