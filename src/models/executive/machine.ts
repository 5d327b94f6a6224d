/**
 * The `executive` machine as callers use it (docs/models/executive.md, "The API"):
 * `initialState`, `step`, `terminal`, `snapshot` and `restore`. States are opaque values of the
 * engine that made them, recognised by identity: `step` answers any other value with `reject`
 * `invalid-state` and gives it back; `terminal` and `snapshot` throw a `TypeError` on one. A
 * state crosses engines only as a snapshot. Each engine made by
 * `createExecutive` knows only its own states.
 */
import type { Decision, ExhaustedBudget } from "./observation.js";
import {
  type RestoreRejection,
  restoreState,
  type SnapshotKey,
  snapshotState,
} from "./snapshot.js";
import { readSpec, type SpecRejectionReason, type ValuePath } from "./spec.js";
import { type ExecutiveSemantics, type ExecutiveState, readyState } from "./state.js";
import { stepState } from "./step.js";

export type InitialStateResult<State = ExecutiveState> =
  | { readonly state: State }
  | { readonly rejected: SpecRejectionReason; readonly path: ValuePath };

export type Terminal =
  | null
  | { readonly outcome: "completed" }
  | {
      readonly outcome: "failed";
      readonly reason: string;
      readonly budget?: ExhaustedBudget;
    };

/** A machine of either engine; `State` is what its states are (opaque to callers). */
export interface ExecutiveMachine<State = ExecutiveState> {
  initialState(spec: unknown, budget: unknown): InitialStateResult<State>;
  step(state: State, observation: unknown): { decision: Decision; state: State };
  step(state: unknown, observation: unknown): { decision: Decision; state: unknown };
  terminal(state: unknown): Terminal;
  /** The state as bytes: the envelope, SHA-256 (or HMAC-SHA-256 under `key`), the canonical body. */
  snapshot(state: unknown, key?: SnapshotKey): Uint8Array;
  restore(
    bytes: unknown,
    key?: SnapshotKey,
  ): { readonly state: State } | { readonly rejected: RestoreRejection };
}

/** `semantics` make a machine of a mutant's (docs/explore.md, "Mutants"); the reference's by default. */
export function createExecutive(semantics?: ExecutiveSemantics): ExecutiveMachine {
  const made = new WeakSet<object>();
  const remember = (state: ExecutiveState) => {
    made.add(state);
    return state;
  };
  const isMine = (value: unknown): value is ExecutiveState =>
    typeof value === "object" && value !== null && made.has(value);
  const machine = {
    initialState(spec: unknown, budget: unknown): InitialStateResult {
      const read = readSpec(spec, budget);
      if (!read.ok) return { rejected: read.rejection.reason, path: read.rejection.path };
      return { state: remember(readyState(read.spec, read.budget, semantics)) };
    },
    step(state: unknown, observation: unknown): { decision: Decision; state: unknown } {
      if (!isMine(state)) {
        return { decision: { tag: "reject", reason: "invalid-state" } as const, state };
      }
      const result = stepBySemantics(state, observation);
      if (result.state !== state) remember(result.state);
      return result;
    },
    terminal(state: unknown): Terminal {
      if (!isMine(state)) throw new TypeError("statefold: not a state of this executive engine");
      if (state.status === "completed") return { outcome: "completed" };
      if (state.status !== "failed" || state.failure === null) return null;
      return { outcome: "failed", ...state.failure };
    },
    snapshot(state: unknown, key?: SnapshotKey): Uint8Array {
      if (!isMine(state)) throw new TypeError("statefold: not a state of this executive engine");
      return snapshotState(state, key);
    },
    restore(bytes: unknown, key?: SnapshotKey) {
      const restored = restoreState(bytes, key);
      if ("state" in restored) remember(restored.state);
      return restored;
    },
  };
  // A reject gives back what it was given, so a state in is a state out.
  return Object.freeze(machine as ExecutiveMachine);
}

/** One step of a state by its own semantics: a mutant's, else the reference's. */
export function stepBySemantics(
  state: ExecutiveState,
  observation: unknown,
): { decision: Decision; state: ExecutiveState } {
  return (state.semantics?.step ?? stepState)(state, observation);
}

/** The reference engine: the definition of what the executive decides. */
export const referenceExecutive: ExecutiveMachine = createExecutive();
