/**
 * Applies an operation sequence through the public transitions of the reference model — the
 * only way a live run moves state — and records every state and outcome on the way, so tests
 * can judge the run step by step as well as by its final state and log.
 */
import {
  type Dag,
  discharge,
  dispatch,
  escalate,
  gateCheck,
  initialState,
  land,
  type ModelState,
  type Outcome,
  quarantine,
  skip,
  type TransitionResult,
  widenSurface,
} from "../../src/models/dag/index.js";

export const TRANSITION_NAMES = [
  "dispatch",
  "land",
  "gateCheck",
  "quarantine",
  "discharge",
  "skip",
  "escalate",
  "widenSurface",
] as const;
export type TransitionName = (typeof TRANSITION_NAMES)[number];

/** One call of a public transition: which one, on which node, with which argument (if it takes one). */
export interface Op {
  readonly transition: TransitionName;
  readonly node: string;
  /** The result of gateCheck/discharge, the surface of widenSurface; ignored by the others. */
  readonly arg?: unknown;
}

export function applyOp(state: ModelState, op: Op): TransitionResult {
  switch (op.transition) {
    case "dispatch":
      return dispatch(state, op.node);
    case "land":
      return land(state, op.node);
    case "gateCheck":
      return gateCheck(state, op.node, op.arg);
    case "quarantine":
      return quarantine(state, op.node);
    case "discharge":
      return discharge(state, op.node, op.arg);
    case "skip":
      return skip(state, op.node);
    case "escalate":
      return escalate(state, op.node);
    case "widenSurface":
      return widenSurface(state, op.node, op.arg);
    default: {
      const unreachable: never = op.transition;
      return unreachable;
    }
  }
}

export interface LiveStep {
  readonly op: Op;
  readonly before: ModelState;
  readonly after: ModelState;
  readonly outcome: Outcome;
}

export interface LiveRun {
  readonly final: ModelState;
  /** One step per op, in order, rejected ones included. */
  readonly steps: readonly LiveStep[];
}

export function runOps(
  dag: Dag,
  ops: readonly Op[],
  from: ModelState = initialState(dag),
): LiveRun {
  const steps: LiveStep[] = [];
  let state = from;
  for (const op of ops) {
    const { state: after, outcome } = applyOp(state, op);
    steps.push({ op, before: state, after, outcome });
    state = after;
  }
  return { final: state, steps };
}
