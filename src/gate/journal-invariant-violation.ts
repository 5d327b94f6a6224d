/**
 * The boot gate's refusal (the librecode runtime's `journal-invariant-violation`): a runtime about to resume
 * from a journal refuses when the recorded history is not one the model allows, and says which
 * rule broke at which event.
 */
import { UNNAMED_JOURNAL } from "../engine.js";
import type { Model } from "../models/model.js";
import { type ModelReport, modelNamed } from "../models/registry.js";
import { JournalInvariantViolation } from "./violation.js";

export { type GateRule, JournalInvariantViolation } from "./violation.js";

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
  const model: Model = modelNamed(report.model);
  const candidates = model.gate.candidates(report, file, strict);
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

/** Throws the `JournalInvariantViolation` to refuse on, if any; returns the report otherwise. */
export function assertConformant<R extends ModelReport>(
  report: R,
  options: { readonly file?: string; readonly strict?: boolean } = {},
): R {
  const violation = gateViolation(report, options.file ?? UNNAMED_JOURNAL, options.strict ?? false);
  if (violation !== null) throw violation;
  return report;
}
