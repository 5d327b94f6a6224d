/**
 * Legality of a logged event (mirrors `eventLegality` in src/models/dag/transitions.ts): the checks
 * of docs/models/dag.md, "Transitions" for the public transition the event stands for, from the state just before it,
 * plus surface-shrinks. The caller has collected a surface event's payload (surface.ts).
 */
import { dependents, dependentsStart } from "./dag";
import { Kind, Result, SurfaceShape } from "./events";
import { isTerminal, Status, statusAt, unprovenAt } from "./state";

/** Mirrors IllegalityReason, by position. */
export namespace Illegality {
  export const NONE: i32 = -1;
  export const WRONG_STATUS: i32 = 0;
  export const DEPENDENCIES_NOT_PROVEN: i32 = 1;
  export const INVALID_RESULT: i32 = 2;
  export const ALREADY_TERMINAL: i32 = 3;
  export const INVALID_SURFACE: i32 = 4;
  export const SURFACE_SHRINKS: i32 = 5;
}

/**
 * `payloadKeeps`: for a surface event, whether its payload (empty when absent) keeps the node's
 * current surface (`payloadKeepsSurface`, computed once by the caller); read only for a payload
 * that is an array of strings or absent.
 */
export function illegality(node: i32, kind: u8, result: u8, surfaceShape: u8, payloadKeeps: bool): i32 {
  const status = load<u8>(statusAt(node));
  switch (kind) {
    case Kind.DISPATCHED:
      if (status != Status.QUEUED && status != Status.REWORK) return Illegality.WRONG_STATUS;
      return dependenciesProven(node) ? Illegality.NONE : Illegality.DEPENDENCIES_NOT_PROVEN;
    case Kind.LANDED:
      return status == Status.DISPATCHED ? Illegality.NONE : Illegality.WRONG_STATUS;
    case Kind.QUARANTINED:
      return status == Status.LANDED ? Illegality.NONE : Illegality.WRONG_STATUS;
    case Kind.GATE_CHECKED:
      if (status != Status.LANDED) return Illegality.WRONG_STATUS;
      return result == Result.MISSING_OR_OTHER ? Illegality.INVALID_RESULT : Illegality.NONE;
    case Kind.DISCHARGED:
      if (status != Status.QUARANTINED) return Illegality.WRONG_STATUS;
      return result == Result.PASS || result == Result.FAIL ? Illegality.NONE : Illegality.INVALID_RESULT;
    case Kind.SKIPPED:
    case Kind.ESCALATED:
      return isTerminal(status) ? Illegality.ALREADY_TERMINAL : Illegality.NONE;
    default: // Kind.SURFACE_WIDENED
      if (isTerminal(status)) return Illegality.ALREADY_TERMINAL;
      if (surfaceShape == SurfaceShape.OTHER) return Illegality.INVALID_SURFACE;
      return payloadKeeps ? Illegality.NONE : Illegality.SURFACE_SHRINKS;
  }
}

// @ts-expect-error: decorator
@inline
export function dependenciesProven(node: i32): bool {
  return load<u32>(unprovenAt(node)) == 0;
}

/** Keeps every dependent's count of unproven deps right when `node` enters or leaves proven. */
export function noteProvenChange(node: i32, nowProven: bool): void {
  const start = load<u32>(dependentsStart + (<usize>node << 2));
  const end = load<u32>(dependentsStart + (<usize>node << 2), 4);
  for (let edge = start; edge < end; edge++) {
    const dependent = load<u32>(dependents + (<usize>edge << 2));
    const counter = unprovenAt(<i32>dependent);
    store<u32>(counter, nowProven ? load<u32>(counter) - 1 : load<u32>(counter) + 1);
  }
}
