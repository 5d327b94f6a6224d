/**
 * Node state (mirrors src/models/dag/state.ts): one 16-byte record per node, so an event touches one
 * cache line however many fields it reads. Records live in the journal region and are reset to
 * the initial state (every node queued, no deposit, empty surface) before each journal.
 *
 *   0   u8   status        Status code
 *   1   u8   validation    Validation code of the deposit; NONE means no deposit
 *   2   u8   mode          GateMode code of the deposit
 *   3   u8   passLogged    1 once a pass was logged for the node (tamperEvident)
 *   4   u32  phase
 *   8   u32  depositPhase
 *   12  u32  unproven      distinct deps not proven now (scheduleCorrect, dispatch legality)
 */
import { depCounts, nodeCount } from "./dag";
import { reserve } from "../memory";

export namespace Status {
  export const QUEUED: u8 = 0;
  export const DISPATCHED: u8 = 1;
  export const LANDED: u8 = 2;
  export const PROVEN: u8 = 3;
  export const QUARANTINED: u8 = 4;
  export const REWORK: u8 = 5;
  export const SKIPPED: u8 = 6;
  export const ESCALATED: u8 = 7;
  export const COUNT: i32 = 8;
}

export namespace Validation {
  export const NONE: u8 = 0;
  export const PENDING: u8 = 1;
  export const PROVEN: u8 = 2;
  export const FAILED: u8 = 3;
}

export namespace GateMode {
  export const GATED: u8 = 0;
  export const DEGRADED: u8 = 1;
}

const NODE_BYTES_LOG2: usize = 4;

let nodeStates: usize = 0;

/** Reserves the node records and sets them to the initial state; false when memory is exhausted. */
export function resetNodeStates(): bool {
  const n = <usize>nodeCount;
  nodeStates = reserve(n << NODE_BYTES_LOG2);
  if (nodeStates == 0) return false;
  memory.fill(nodeStates, 0, n << NODE_BYTES_LOG2); // queued, no deposit, phase 0, nothing logged
  for (let node: usize = 0; node < n; node++) {
    store<u32>(nodeStates + (node << NODE_BYTES_LOG2) + 12, load<u32>(depCounts + (node << 2)));
  }
  return true;
}

/** The node records, for snapshots (16 bytes per node, layout above). */
export function nodeStatesPointer(): usize {
  return nodeStates;
}

// @ts-expect-error: decorator
@inline
export function statusAt(node: i32): usize {
  return nodeStates + (<usize>node << NODE_BYTES_LOG2);
}
// @ts-expect-error: decorator
@inline
export function validationAt(node: i32): usize {
  return statusAt(node) + 1;
}
// @ts-expect-error: decorator
@inline
export function modeAt(node: i32): usize {
  return statusAt(node) + 2;
}
// @ts-expect-error: decorator
@inline
export function passLoggedAt(node: i32): usize {
  return statusAt(node) + 3;
}
// @ts-expect-error: decorator
@inline
export function phaseAt(node: i32): usize {
  return statusAt(node) + 4;
}
// @ts-expect-error: decorator
@inline
export function depositPhaseAt(node: i32): usize {
  return statusAt(node) + 8;
}
// @ts-expect-error: decorator
@inline
export function unprovenAt(node: i32): usize {
  return statusAt(node) + 12;
}

// @ts-expect-error: decorator
@inline
export function isTerminal(status: u8): bool {
  return status == Status.PROVEN || status == Status.SKIPPED || status == Status.ESCALATED;
}
