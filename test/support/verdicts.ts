/**
 * What audited journals' reports looked like — verdict keys such as "torn tail" or "threw
 * JournalError" — tallied over a property's runs, so that a vacuous generator fails the test.
 */
import type { Report } from "../../src/models/dag/index.js";
import type { Outcome } from "./outcome.js";

/** The verdict keys of one outcome. */
export function verdictsOf(outcome: Outcome<Report>): string[] {
  if ("threw" in outcome) return [`threw ${outcome.threw.class}`];
  const report = outcome.returned;
  const verdicts = [report.conformant ? "conformant" : "not conformant"];
  if (report.strictlyConformant) verdicts.push("strictly conformant");
  if (report.integrity !== null) verdicts.push(`integrity ${report.integrity.reason}`);
  if (report.integrity?.reason === "malformed-event") verdicts.push(report.integrity.message);
  if (report.tornTail !== null) verdicts.push("torn tail");
  if (report.legality.illegal > 0) verdicts.push("illegal events");
  for (const [name, verdict] of Object.entries(report.invariants)) {
    if (!verdict.holds) verdicts.push(`${name} fails`);
  }
  return verdicts;
}

/** How many outcomes gave each verdict key. */
export class VerdictTally {
  private readonly seen = new Map<string, number>();

  note(outcome: Outcome<Report>): void {
    for (const key of verdictsOf(outcome)) this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
  }

  count(key: string): number {
    return this.seen.get(key) ?? 0;
  }
}

/**
 * Every kind of verdict the model can give to a generated journal (phaseMonotonic,
 * noPendingProven, dagPreserved and tamperEvident cannot fail under the fold).
 */
export const REACHABLE_VERDICTS: readonly string[] = [
  "conformant",
  "strictly conformant",
  "not conformant",
  "torn tail",
  "illegal events",
  "scheduleCorrect fails",
  "surfaceMonotonic fails",
  "integrity unknown-node",
  "integrity unknown-kind",
  "integrity discharge-without-deposit",
  "the line is not valid JSON",
  "the line is not valid UTF-8",
  "the event is not a JSON object",
  'the event has no string "kind"',
  'the event has no string "id"',
  "threw JournalError",
];
