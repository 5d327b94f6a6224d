/** The executive model's part of the boot gate (docs/gate.md): its rules' first mismatches. */
import type { ExecutiveReport } from "../../models/executive/audit.js";
import { EXECUTIVE_RULE_NAMES } from "../../models/executive/rules.js";
import { executiveBreachText } from "../../report/executive/wording.js";
import { JournalInvariantViolation, type ModelGate } from "../violation.js";

export const executiveGate: ModelGate<ExecutiveReport> = {
  candidates: (report, file) => executiveCandidates(report, file),
};

/** Each broken rule of an executive report at its first mismatch, with what was expected and recorded. */
function executiveCandidates(report: ExecutiveReport, file: string): JournalInvariantViolation[] {
  return EXECUTIVE_RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    if (verdict.holds) return [];
    const why = executiveBreachText(report, rule);
    return [new JournalInvariantViolation(file, rule, verdict, null, why, report)];
  });
}
