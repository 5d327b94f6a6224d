/**
 * The faults `statefold gen` can inject into a campaign, each with the verdict an audit must give
 * on it. All but the torn tail are one extra line at a seeded position; none disturbs the
 * campaign around it, so each is the only thing an audit finds there.
 */
export const FAULT_KINDS = [
  "illegal-transition",
  "unproven-dispatch",
  "surface-shrink",
  "unknown-node",
  "malformed-line",
  "torn-tail",
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** One line each, for `statefold gen --help`. */
export const FAULT_DESCRIPTIONS: Readonly<Record<FaultKind, string>> = {
  "illegal-transition":
    "an event repeated (wrong-status, already-terminal): not strictly conformant",
  "unproven-dispatch": "a dispatch before the dependencies are proven: breaks scheduleCorrect",
  "surface-shrink": "a surface that drops a path: breaks surfaceMonotonic (surface-shrinks)",
  "unknown-node": "an event naming no node of the DAG: integrity error unknown-node",
  "malformed-line": "a write cut short mid-journal: integrity error malformed-event",
  "torn-tail": "an unterminated last line (a crash mid-write): a warning; one at most",
};

/** How many of a kind a journal can hold: a journal has one end, so one torn tail at most. */
export function faultCountMax(kind: FaultKind): number {
  return kind === "torn-tail" ? 1 : Number.POSITIVE_INFINITY;
}
