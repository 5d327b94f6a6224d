/**
 * Small builders for example tests: a DAG from a compact spec, model events, and a node driven to
 * a given status through the public transitions only (so every fixture state is one a live run
 * reaches).
 */
import {
  type Dag,
  type Event,
  initialState,
  type ModelState,
  nodeState,
  type Status,
} from "../../src/models/dag/index.js";
import { mustMakeDag } from "./arbitraries.js";
import { type Op, runOps } from "./run-ops.js";

/** `dagOf(["A"], ["B", "A"])`: node A with no deps, node B depending on A, in that order. */
export function dagOf(...nodes: readonly (readonly [string, ...string[]])[]): Dag {
  return mustMakeDag(nodes.map(([id, ...deps]) => ({ id, deps })));
}

/** A model event: `ev("landed")` is node A's, `ev("gate-checked", "B", { result: "pass" })`. */
export const ev = (kind: string, id = "A", extra: Record<string, unknown> = {}): Event => ({
  kind,
  id,
  ...extra,
});

/** A passing gate check of `id`. */
export const pass = (id = "A"): Event => ev("gate-checked", id, { result: "pass" });

/** Node A dispatched, landed and proven. */
export const PROVE_A: readonly Event[] = [ev("dispatched"), ev("landed"), pass()];

/** The public calls that take a node whose deps are proven from queued to `status`. */
export function pathTo(status: Status, id: string): Op[] {
  const dispatched: Op[] = [{ transition: "dispatch", node: id }];
  const landed: Op[] = [...dispatched, { transition: "land", node: id }];
  switch (status) {
    case "queued":
      return [];
    case "dispatched":
      return dispatched;
    case "landed":
      return landed;
    case "proven":
      return [...landed, { transition: "gateCheck", node: id, arg: "pass" }];
    case "quarantined":
      return [...landed, { transition: "quarantine", node: id }];
    case "rework":
      return [...landed, { transition: "gateCheck", node: id, arg: "fail" }];
    case "skipped":
      return [{ transition: "skip", node: id }];
    case "escalated":
      return [{ transition: "escalate", node: id }];
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/** Drives `id` to `status` through the public transitions; throws if any call is rejected. */
export function reach(state: ModelState, id: string, status: Status): ModelState {
  const run = runOps(state.dag, pathTo(status, id), state);
  const rejected = run.steps.find((step) => step.outcome !== "ok");
  if (rejected !== undefined) {
    throw new Error(`fixture: ${rejected.op.transition}(${id}) rejected on the way to ${status}`);
  }
  const reached = nodeState(run.final, id)?.status;
  if (reached !== status) throw new Error(`fixture: ${id} reached ${reached}, not ${status}`);
  return run.final;
}

/** A fresh state of `dag` with each listed node driven, in order, to its status. */
export function stateWith(dag: Dag, plan: readonly (readonly [string, Status])[]): ModelState {
  return plan.reduce((state, [id, status]) => reach(state, id, status), initialState(dag));
}
