/**
 * The six invariants, checked incrementally (mirrors src/models/dag/invariants.ts). In the reference
 * each is a predicate over the whole trajectory; here each step invariant is judged on the one
 * node an event touches, which is the only node whose state differs between consecutive states,
 * so the first failing event is the same. Each check is O(1), or O(|surface|) for a surface event.
 *
 * dagPreserved holds by construction here: no kernel code writes the DAG region after `loadDag`,
 * so it has no check and its verdict is always "holds".
 */
import { Kind, SurfaceShape } from "./events";
import { Status, statusAt, Validation, validationAt } from "./state";
import { dependenciesProven } from "./transitions";

/** Step invariants, in report order (mirrors INVARIANT_NAMES without tamperEvident). */
export namespace StepInvariant {
  export const PHASE_MONOTONIC: i32 = 0;
  export const NO_PENDING_PROVEN: i32 = 1;
  export const DAG_PRESERVED: i32 = 2;
  export const SCHEDULE_CORRECT: i32 = 3;
  export const SURFACE_MONOTONIC: i32 = 4;
  export const COUNT: i32 = 5;
}

/** scheduleCorrect, judged on the state before the event. */
export function breaksSchedule(node: i32, kind: u8): bool {
  return kind == Kind.DISPATCHED && !dependenciesProven(node);
}

/**
 * surfaceMonotonic, judged before the fold: the stored surface must be strings and keep every
 * path. `payloadKeeps` is `payloadKeepsSurface` for the node, computed once by the caller.
 */
export function breaksSurfaceMonotonicity(kind: u8, surfaceShape: u8, payloadKeeps: bool): bool {
  if (kind != Kind.SURFACE_WIDENED) return false;
  return surfaceShape == SurfaceShape.OTHER || !payloadKeeps;
}

/** noPendingProven, judged on the state after the event. */
export function breaksNoPendingProven(node: i32): bool {
  return (
    load<u8>(statusAt(node)) == Status.PROVEN &&
    load<u8>(validationAt(node)) == Validation.PENDING
  );
}

/** phaseMonotonic, judged on the phases before and after the event. */
export function breaksPhaseMonotonicity(phaseBefore: u32, phaseAfter: u32): bool {
  return phaseAfter < phaseBefore;
}
