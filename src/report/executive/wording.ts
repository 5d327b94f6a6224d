/**
 * The `executive` model's findings in words (docs/models/executive.md, "The journal and its
 * audit"), shared by the text report and the boot gate.
 */

import type { DecisionMismatch, ExecutiveReport } from "../../models/executive/audit.js";
import type { ExecutiveRuleName } from "../../models/executive/rules.js";
import { COUNTERS } from "../../models/executive/spec.js";
import { formatCount, plural } from "../../text/format-units.js";

export const WHY_EXECUTIVE: Readonly<Record<ExecutiveRuleName, string>> = {
  decisionsMatch: "the decision the host recorded is not the one the machine makes",
  terminalRespected:
    "the run had ended, and the host recorded a decision other than reject terminal (a resurrection)",
};

/** A mismatch: what the machine decides against what was recorded. */
export function mismatchText(entry: DecisionMismatch): string {
  return `expected ${JSON.stringify(entry.expected)}, recorded ${recordedText(entry)}`;
}

/** The decision recorded, as JSON (indented by `indent` spaces), or its size when too long to list. */
export function recordedText(entry: DecisionMismatch, indent?: number): string {
  return "recordedBytes" in entry
    ? `a decision of ${plural(entry.recordedBytes, "byte")}`
    : JSON.stringify(entry.recorded, null, indent);
}

/**
 * Why a broken rule broke, with the decisions of its first breach when the report lists them:
 * `the decision the host recorded is not the one the machine makes: expected …, recorded …`.
 */
export function executiveBreachText(report: ExecutiveReport, rule: ExecutiveRuleName): string {
  const verdict = report.invariants[rule];
  const entry = verdict.holds
    ? undefined
    : report.legality.first.find((listed) => listed.index === verdict.index);
  return entry === undefined
    ? WHY_EXECUTIVE[rule]
    : `${WHY_EXECUTIVE[rule]}: ${mismatchText(entry)}`;
}

/** The final summary, e.g. `final: completed after 7 decisions; used steps 7, modelCalls 2, …`. */
export function executiveFinal(report: ExecutiveReport): string {
  const { status, seq, used, outcome } = report.final;
  const when = report.integrity === null ? "final" : "final, before the integrity error";
  const how =
    outcome !== null && outcome.outcome === "failed"
      ? ` (${outcome.reason}${outcome.budget === undefined ? "" : `: ${outcome.budget}`})`
      : "";
  const counters = COUNTERS.map((counter) => `${counter} ${formatCount(used[counter])}`).join(", ");
  return `${when}: ${status}${how} after ${plural(seq, "decision")}; used ${counters}`;
}
