/**
 * The words statefold uses to explain an `operations` report to people (docs/models/operations.md,
 * "The rules"), beside the words every model shares (src/report/wording.ts). Pure: no Node APIs.
 */

import {
  type FindingSubject,
  type OperationsReport,
  type Reason,
  RULE_NAMES,
  type RuleName,
  type RuleVerdict,
} from "../../models/operations/report.js";
import { formatCount, plural } from "../../text/format-units.js";
import type { ClassificationView, LadderView } from "./view.js";

/** What each reason says about the record that broke its rule. */
export const WHY_REASON: Readonly<Record<Reason, string>> = {
  "unknown-operation": "no op of this id was accepted",
  "operation-finished": "the op had already finished",
  "duplicate-operation": "an op of this id was already accepted",
  "stale-epoch": "written under an older lease epoch than the strand's",
  "epoch-mismatch": "its epoch is missing or ahead of the strand's lease",
  "epoch-regressed": "the lease's epoch does not rise above the strand's last",
  "strand-busy": "the strand was still running another op",
  "effect-reused": "the effect id was reserved before",
  cancelled: "an intent after the op was cancelled",
  "outcome-unknown": "an intent while an effect of the op had an unknown outcome",
  "attempt-mismatch": "the attempt number is not the step's next",
  "step-in-flight": "the step's current attempt had not settled",
  "step-completed": "the step had already succeeded",
  "retry-not-allowed": "the step had failed for good",
  "retry-too-early": "retried before the retry ladder allowed",
  "no-intent": "no intent of this op reserved the effect",
  "already-settled": "the effect was already settled",
  "awaiting-readback": "the effect's outcome is unknown: only a readback resolves it",
  "no-retry": "notBefore given, but this settlement schedules no retry",
  "ladder-mismatch": "notBefore is not the one the retry ladder gives",
  misclassified: "the class is not the one the response classifies as",
  "out-of-order": "committed before the record it follows",
  "not-unknown": "a readback of an effect whose outcome was not unknown",
  "already-cancelled": "the op was already cancelled: the first abort wins",
  "effects-outstanding": "an effect of the op was still pending or unknown",
  "outcome-mismatch": "the outcome must be aborted exactly when the op was cancelled",
};

/** Who a finding is about: `op "run-1" effect "e-2"`, or `strand "s"`. */
export function subjectText(subject: FindingSubject): string {
  const who =
    "op" in subject
      ? `op ${JSON.stringify(subject.op)}`
      : `strand ${JSON.stringify((subject as { strand: string }).strand)}`;
  return subject.effect === undefined ? who : `${who} effect ${JSON.stringify(subject.effect)}`;
}

/** The reason a rule's first breach gave: that of the illegal record at its index. */
export function reasonOfBreach(report: OperationsReport, rule: RuleName): Reason | null {
  const verdict = report.invariants[rule];
  if (verdict.holds) return null;
  return report.legality.first.find((record) => record.index === verdict.index)?.reason ?? null;
}

/** A rule's first breach. */
export interface BrokenRule {
  readonly rule: RuleName;
  readonly verdict: RuleVerdict & { readonly holds: false };
}

/**
 * Each broken rule at its first breach, in journal order, as the findings are listed (rules
 * first broken by the same record in report order).
 */
export function brokenRules(report: OperationsReport): BrokenRule[] {
  const broken = RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    return verdict.holds ? [] : [{ rule, verdict }];
  });
  return broken.sort((a, b) => a.verdict.index - b.verdict.index);
}

/** "retried at 2300; the ladder required 1400 + max(944, 500) = 2344". */
export function ladderSentence(ladder: LadderView): string {
  const sum = `${ladder.failedAt} + max(${ladder.wait}, ${ladder.hint}) = ${ladder.notBefore}`;
  return ladder.recorded.field === "at"
    ? `retried at ${ladder.recorded.value}; the ladder required ${sum}`
    : `notBefore recorded as ${ladder.recorded.value}; the ladder gives ${sum}`;
}

/**
 * "classified as overflow by step 3 of 7; the record says error", with each class as `mark`
 * writes it (the HTML report sets them in code).
 */
export function classificationSentence(
  view: ClassificationView,
  mark: (className: string) => string = (className) => className,
): string {
  return `classified as ${mark(view.expected)} by step ${view.step} of 7; the record says ${mark(view.recorded)}`;
}

/**
 * What a finding's numbers show beyond its reason — the ladder's sum or the classification — or
 * null when its rule is not arithmetic.
 */
export function numbersSentence(finding: {
  readonly ladder: LadderView | null;
  readonly classification: ClassificationView | null;
}): string | null {
  if (finding.ladder !== null) return ladderSentence(finding.ladder);
  if (finding.classification !== null) return classificationSentence(finding.classification);
  return null;
}

/** The final summary, e.g. `final: 2 completed, 1 running; 3 effects, 1 strand`. */
export function operationsFinal(report: OperationsReport): string {
  const { operations, effects, strands } = report.final;
  const counts = Object.entries(operations)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${formatCount(count)} ${state}`);
  const when = report.integrity === null ? "final" : "final, before the integrity error";
  const ops = counts.length === 0 ? "no operations" : counts.join(", ");
  return `${when}: ${ops}; ${plural(effects, "effect")}, ${plural(strands, "strand")}`;
}
