/**
 * Node state, one column per field over all nodes (mirrors src/model/state.ts). Columns live in
 * the journal region and are reset to the initial state (every node queued, no deposit, empty
 * surface) before each journal.
 *
 *   status      u8   per node   Status code
 *   validation  u8   per node   Validation code; NONE means no deposit
 *   mode        u8   per node   GateMode code of the deposit
 *   passLogged  u8   per node   1 once a pass was logged for the node (tamperEvident)
 *   phase       u32  per node
 *   depositPhase u32 per node
 *   unproven    u32  per node   distinct deps not proven now (scheduleCorrect, dispatch legality)
 */
import { nodeCount } from "./dag";
import { reserve } from "./memory";

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

export let statusColumn: usize = 0;
export let validationColumn: usize = 0;
export let modeColumn: usize = 0;
export let passLoggedColumn: usize = 0;
export let phaseColumn: usize = 0;
export let depositPhaseColumn: usize = 0;
export let unprovenColumn: usize = 0;

/** Reserves the columns in the journal region; false when memory is exhausted. */
export function reserveNodeState(): bool {
  const n = <usize>nodeCount;
  statusColumn = reserve(n);
  validationColumn = reserve(n);
  modeColumn = reserve(n);
  passLoggedColumn = reserve(n);
  phaseColumn = reserve(n << 2);
  depositPhaseColumn = reserve(n << 2);
  unprovenColumn = reserve(n << 2);
  return unprovenColumn != 0 && statusColumn != 0 && validationColumn != 0 && modeColumn != 0 &&
    passLoggedColumn != 0 && phaseColumn != 0 && depositPhaseColumn != 0;
}

// @ts-expect-error: decorator
@inline
export function isTerminal(status: u8): bool {
  return status == Status.PROVEN || status == Status.SKIPPED || status == Status.ESCALATED;
}
