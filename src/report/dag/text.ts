/**
 * The dag model's words in the text output (src/report/model-text.ts): each broken invariant
 * with its node, the illegal events with theirs, the final status counts.
 */
import { INVARIANT_NAMES, type Report } from "../../models/dag/report.js";
import { nounFor, plural } from "../../text/format-units.js";
import type { BrokenRuleText, ModelText } from "../model-text.js";
import { eventLocation as at } from "../wording.js";
import { finalCounts, illegalMeaning, WHY_BROKEN, WHY_TAMPERED } from "./wording.js";

export const dagText: ModelText<Report> = {
  ruleNames: INVARIANT_NAMES,
  brokenRules: (report) => INVARIANT_NAMES.flatMap((name) => brokenInvariant(report, name)),
  listedHeading: ({ legality }) =>
    `${plural(legality.illegal, "illegal event")} (${illegalMeaning(legality.illegal)}):`,
  listedFinding: (entry) => `${entry.kind}  node ${JSON.stringify(entry.node)}: ${entry.reason}`,
  finalLine: finalCounts,
};

function brokenInvariant(report: Report, name: (typeof INVARIANT_NAMES)[number]): BrokenRuleText[] {
  if (name === "tamperEvident") {
    const verdict = report.invariants.tamperEvident;
    if (verdict.holds) return [];
    const nodes = verdict.nodes.map((id) => JSON.stringify(id)).join(", ");
    return [
      { rule: name, text: `${nounFor(verdict.nodes.length, "node")} ${nodes}: ${WHY_TAMPERED}` },
    ];
  }
  const verdict = report.invariants[name];
  if (verdict.holds) return [];
  const where = at(verdict.index, verdict.line);
  return [
    { rule: name, text: `${where}  node ${JSON.stringify(verdict.node)}: ${WHY_BROKEN[name]}` },
  ];
}
