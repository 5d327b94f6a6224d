/** A model defined by data in the boot gate (docs/gate.md): each broken rule at its first finding. */
import type { CompiledModel } from "../../models/data/compiled.js";
import type { DataReport } from "../../models/data/report.js";
import type { ModelReport } from "../../models/registry.js";
import { ruleDescription, subjectText, WHY_DATA_REASON } from "../../report/data/wording.js";
import { JournalInvariantViolation, type ModelGate } from "../violation.js";

export function dataGate<Name extends string>(model: CompiledModel): ModelGate<DataReport<Name>> {
  return {
    candidates: (report, file) =>
      Object.entries(report.invariants).flatMap(([rule, verdict]) => {
        if (verdict.holds) return [];
        const description = ruleDescription(model, rule);
        const why = `${verdict.kind}: ${verdict.reason} — ${WHY_DATA_REASON[verdict.reason]}${description === null ? "" : ` (${description})`}`;
        const subject = subjectText(verdict);
        return [
          new JournalInvariantViolation(
            file,
            rule,
            verdict,
            null,
            why,
            report as ModelReport,
            subject === "" ? null : subject,
          ),
        ];
      }),
  };
}
