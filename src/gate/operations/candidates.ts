/** The operations model's part of the boot gate (docs/gate.md): its rules' first breaches. */
import { type OperationsReport, RULE_NAMES } from "../../models/operations/report.js";
import { reasonOfBreach, subjectText, WHY_REASON } from "../../report/operations/wording.js";
import { JournalInvariantViolation, type ModelGate } from "../violation.js";

export const operationsGate: ModelGate<OperationsReport> = {
  candidates: (report, file) => operationsCandidates(report, file),
};

/** Every rule of an operations report is a legality rule: its first breach is its candidate. */
function operationsCandidates(report: OperationsReport, file: string): JournalInvariantViolation[] {
  return RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    if (verdict.holds) return [];
    const reason = reasonOfBreach(report, rule);
    const why = reason === null ? "the rule's first breach" : `${reason}: ${WHY_REASON[reason]}`;
    return [
      new JournalInvariantViolation(file, rule, verdict, null, why, report, subjectText(verdict)),
    ];
  });
}
