/**
 * The dag model's part of the boot gate (docs/gate.md): its invariants' first breaks, and the first
 * illegal event when strict.
 */
import type { Report } from "../../models/dag/report.js";
import { WHY_BROKEN, WHY_ILLEGAL, WHY_TAMPERED } from "../../report/dag/wording.js";
import { JournalInvariantViolation, type ModelGate } from "../violation.js";

export const dagGate: ModelGate<Report> = { candidates: dagCandidates };

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
