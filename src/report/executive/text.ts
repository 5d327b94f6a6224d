/**
 * The executive model's words in the text output (src/report/model-text.ts): each broken rule,
 * the decisions that differ from the machine's, the run's final status and budget used.
 */
import type { ExecutiveReport } from "../../models/executive/audit.js";
import { EXECUTIVE_RULE_NAMES } from "../../models/executive/rules.js";
import { plural } from "../../text/format-units.js";
import type { ModelText } from "../model-text.js";
import { eventLocation as at } from "../wording.js";
import { executiveFinal, mismatchText, WHY_EXECUTIVE } from "./wording.js";

export const executiveText: ModelText<ExecutiveReport> = {
  ruleNames: EXECUTIVE_RULE_NAMES,
  brokenRules: (report) =>
    EXECUTIVE_RULE_NAMES.flatMap((rule) => {
      const verdict = report.invariants[rule];
      if (verdict.holds) return [];
      return [{ rule, text: `${at(verdict.index, verdict.line)}  ${WHY_EXECUTIVE[rule]}` }];
    }),
  listedHeading: ({ legality }) => {
    const differ = legality.illegal === 1 ? "differs" : "differ";
    return `${plural(legality.illegal, "decision")} ${differ} from the machine's:`;
  },
  listedFinding: mismatchText,
  finalLine: executiveFinal,
};
