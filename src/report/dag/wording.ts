/**
 * The dag model's words for its findings (docs/models/dag.md), shared by the text output, the
 * HTML report and the boot gate. Pure: no Node APIs.
 */

import type { StepInvariantName } from "../../models/dag/invariants.js";
import type { Report } from "../../models/dag/report.js";
import { STATUSES } from "../../models/dag/state.js";
import type { IllegalityReason } from "../../models/dag/transitions.js";
import { formatCount } from "../../text/format-units.js";

/** Why a step invariant broke at the event its verdict names, said of that event's node. */
export const WHY_BROKEN: Readonly<Record<StepInvariantName, string>> = {
  phaseMonotonic: "its phase went down",
  noPendingProven: "proven while its deposit is still pending",
  dagPreserved: "the DAG's node list changed",
  scheduleCorrect: "dispatched before its dependencies were proven",
  surfaceMonotonic: "its surface shrank or is not a list of path strings",
};

/** Why tamperEvident broke, said of the nodes its verdict lists. */
export const WHY_TAMPERED = "proven without a logged pass";

/** What an illegal event is, for one (`it`) or several (`them`). */
export function illegalMeaning(count: number): string {
  return `the public API could not have logged ${count === 1 ? "it" : "them"}`;
}

/**
 * Why the public API rejects an event, in words; the text output prints the reason itself, the
 * HTML report both.
 */
export const WHY_ILLEGAL: Readonly<Record<IllegalityReason, string>> = {
  "wrong-status": "the node's status did not allow this transition",
  "dependencies-not-proven": "a dependency was not proven yet",
  "invalid-result": "the result is not one this transition accepts",
  "already-terminal": "the node was already proven, skipped or escalated",
  "invalid-surface": "the surface is not a list of path strings",
  "surface-shrinks": "the new surface drops a path of the current one",
};

/** The final status counts, e.g. `final: 3 proven, 1 queued`, or those before an integrity error. */
export function finalCounts(report: Report): string {
  const counts = STATUSES.filter((status) => report.final.counts[status] > 0).map(
    (status) => `${formatCount(report.final.counts[status])} ${status}`,
  );
  const when = report.integrity === null ? "final" : "final, before the integrity error";
  return `${when}: ${counts.length === 0 ? "no nodes" : counts.join(", ")}`;
}
