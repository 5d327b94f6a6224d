/**
 * The boot gate's refusal (the librecode runtime's `journal-invariant-violation`): a runtime about to resume
 * from a journal refuses when the recorded history is not one the model allows, and says which
 * rule broke at which event.
 */
import { UNNAMED_JOURNAL } from "../engine.js";
import type { Report } from "../models/dag/report.js";
import type { ExecutiveReport } from "../models/executive/audit.js";
import { EXECUTIVE_RULE_NAMES, type ExecutiveRuleName } from "../models/executive/rules.js";
import { type OperationsReport, RULE_NAMES } from "../models/operations/report.js";
import type { ModelReport } from "../models/registry.js";
import { WHY_BROKEN, WHY_ILLEGAL, WHY_TAMPERED } from "../report/dag/wording.js";
import { executiveBreachText } from "../report/executive/wording.js";
import { reasonOfBreach, subjectText, WHY_REASON } from "../report/operations/wording.js";
import { eventLocation } from "../report/wording.js";

/** The rule a refusal names: a rule of the model, log integrity, or (when strict) legality. */
export type GateRule =
  | keyof Report["invariants"]
  | keyof OperationsReport["invariants"]
  | ExecutiveRuleName
  | "integrity"
  | "legality";

export class JournalInvariantViolation extends Error {
  override readonly name = "JournalInvariantViolation";

  constructor(
    readonly file: string,
    readonly rule: GateRule,
    /** The offending event; null for tamperEvident, a property of the final state. */
    readonly event: { readonly index: number; readonly line?: number } | null,
    /** A dag finding's node (tamperEvident: the first of its nodes); null for other models. */
    readonly node: string | null,
    readonly why: string,
    readonly report: ModelReport,
    /** Whom the finding names, in words: `node "D"`, `op "run-1" effect "e-2"`. */
    readonly subject: string | null = node === null ? null : `node ${JSON.stringify(node)}`,
  ) {
    const where = event === null ? "" : ` at ${eventLocation(event.index, event.line)}`;
    const on = subject === null ? "" : `, ${subject}`;
    super(`${file}: refusing to resume: ${rule} is broken${where}${on}: ${why}`);
  }
}

/**
 * The violation to refuse on, or null when the journal may be resumed: the earliest event that
 * broke a rule (integrity, a step invariant, or an illegal event when `strict`); tamperEvident,
 * which has no event, last.
 */
export function gateViolation(
  report: ModelReport,
  file: string,
  strict: boolean,
): JournalInvariantViolation | null {
  const candidates =
    report.model === "dag"
      ? dagCandidates(report, file, strict)
      : report.model === "operations"
        ? operationsCandidates(report, file)
        : executiveCandidates(report, file);
  const { integrity } = report;
  if (integrity !== null) {
    candidates.push(
      new JournalInvariantViolation(
        file,
        "integrity",
        integrity,
        null,
        `${integrity.reason}: ${integrity.message}`,
        report,
      ),
    );
  }
  const order = (violation: JournalInvariantViolation) =>
    violation.event?.index ?? Number.POSITIVE_INFINITY;
  return candidates.reduce<JournalInvariantViolation | null>(
    (first, next) => (first === null || order(next) < order(first) ? next : first),
    null,
  );
}

/** Each broken rule of an executive report at its first mismatch, with what was expected and recorded. */
function executiveCandidates(report: ExecutiveReport, file: string): JournalInvariantViolation[] {
  return EXECUTIVE_RULE_NAMES.flatMap((rule) => {
    const verdict = report.invariants[rule];
    if (verdict.holds) return [];
    const why = executiveBreachText(report, rule);
    return [new JournalInvariantViolation(file, rule, verdict, null, why, report)];
  });
}

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

function dagCandidates(report: Report, file: string, strict: boolean): JournalInvariantViolation[] {
  const candidates: JournalInvariantViolation[] = [];
  const { invariants, legality } = report;
  for (const [name, verdict] of Object.entries(invariants) as [
    keyof Report["invariants"],
    Report["invariants"][keyof Report["invariants"]],
  ][]) {
    if (verdict.holds) continue;
    if ("nodes" in verdict) {
      candidates.push(
        new JournalInvariantViolation(
          file,
          name,
          null,
          verdict.nodes[0] ?? null,
          WHY_TAMPERED,
          report,
        ),
      );
    } else if (name !== "tamperEvident") {
      candidates.push(
        new JournalInvariantViolation(file, name, verdict, verdict.node, WHY_BROKEN[name], report),
      );
    }
  }
  const illegal = legality.first[0];
  if (strict && illegal !== undefined) {
    const why = `${illegal.kind} is illegal (${illegal.reason}): ${WHY_ILLEGAL[illegal.reason]}`;
    candidates.push(
      new JournalInvariantViolation(file, "legality", illegal, illegal.node, why, report),
    );
  }
  return candidates;
}

/** Throws the `JournalInvariantViolation` to refuse on, if any; returns the report otherwise. */
export function assertConformant<R extends ModelReport>(
  report: R,
  options: { readonly file?: string; readonly strict?: boolean } = {},
): R {
  const violation = gateViolation(report, options.file ?? UNNAMED_JOURNAL, options.strict ?? false);
  if (violation !== null) throw violation;
  return report;
}
