/**
 * The words statefold uses to explain an `operations` report to people (docs/models/operations.md,
 * "The rules"), beside wording.ts's for `dag`. Pure: no Node APIs.
 */
import type {
  FindingSubject,
  OperationsReport,
  Reason,
  RuleName,
} from "../models/operations/report.js";

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

/** The final summary, e.g. `final: 2 completed, 1 running; 3 effects, 1 strand`. */
export function operationsFinal(report: OperationsReport): string {
  const { operations, effects, strands } = report.final;
  const counts = Object.entries(operations)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${state}`);
  const when = report.integrity === null ? "final" : "final, before the integrity error";
  const ops = counts.length === 0 ? "no operations" : counts.join(", ");
  return `${when}: ${ops}; ${effects} effect${effects === 1 ? "" : "s"}, ${strands} strand${strands === 1 ? "" : "s"}`;
}
