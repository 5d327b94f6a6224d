/**
 * The `dag` model as explore drives it (docs/explore.md): from every DAG of the configuration,
 * all nodes queued, each of the eight public transitions with every argument — gate results
 * `pass`, `fail` and `timeout`, discharge results `pass` and `fail`, and every set of the
 * configuration's surface paths to widen by. A transition the model rejects is no step. On every
 * step the event it logged must be legal and every invariant must hold (docs/models/dag.md); on
 * every distinct state, the journal that reached it must be strictly conformant to the
 * reference's audit and get the very same report from the WebAssembly engine.
 */

import { type Dag, makeDag } from "../../models/dag/dag.js";
import type { Engine } from "../../models/dag/engine.js";
import type { KnownEvent } from "../../models/dag/events.js";
import { STEP_INVARIANT_NAMES, violationAt } from "../../models/dag/invariants.js";
import {
  initialState,
  loggedEvents,
  type ModelState,
  type NodeState,
  surfacePaths,
} from "../../models/dag/state.js";
import {
  DISCHARGE_RESULTS,
  discharge,
  dispatch,
  escalate,
  eventLegality,
  GATE_RESULTS,
  gateCheck,
  land,
  quarantine,
  skip,
  type TransitionResult,
  widenSurface,
} from "../../models/dag/transitions.js";
import type { Subject } from "../explore.js";
import { failureOf } from "./counterexample.js";
import { dagsUpTo } from "./dags.js";

export interface DagConfiguration {
  /** Every DAG of 1 to `nodes` nodes, up to isomorphism; or the one DAG given. */
  readonly nodes: number;
  readonly dag?: Dag;
  /** Surface paths `p0` … to widen by. */
  readonly paths: number;
}

/** One public transition with its argument, as a driver is asked to perform it. */
export interface DagCall {
  readonly call: string;
  readonly arg?: unknown;
}

/** The transitions of a node, each with one argument (docs/explore.md, "Actions"). */
export function callsOf(paths: number): readonly DagCall[] {
  const pool = Array.from({ length: paths }, (_, i) => `p${i}`);
  const surfaces = Array.from({ length: 2 ** paths }, (_, mask) =>
    pool.filter((_, i) => (mask >> i) & 1),
  );
  return [
    { call: "dispatch" },
    { call: "land" },
    ...GATE_RESULTS.map((arg) => ({ call: "gateCheck", arg })),
    { call: "quarantine" },
    ...DISCHARGE_RESULTS.map((arg) => ({ call: "discharge", arg })),
    { call: "skip" },
    { call: "escalate" },
    ...surfaces.map((arg) => ({ call: "widenSurface", arg })),
  ];
}

/** What the model does with a call on a node. */
export function applyCall(state: ModelState, call: DagCall, id: string): TransitionResult {
  switch (call.call) {
    case "dispatch":
      return dispatch(state, id);
    case "land":
      return land(state, id);
    case "gateCheck":
      return gateCheck(state, id, call.arg);
    case "quarantine":
      return quarantine(state, id);
    case "discharge":
      return discharge(state, id, call.arg);
    case "skip":
      return skip(state, id);
    case "escalate":
      return escalate(state, id);
    default:
      return widenSurface(state, id, call.arg);
  }
}

/** An action as the evidence and a driver name it: `{"call","id","arg"?}`. */
export function actionOf(call: DagCall, id: string): { call: string; id: string; arg?: unknown } {
  return call.arg === undefined ? { call: call.call, id } : { call: call.call, id, arg: call.arg };
}

/** The DAGs a configuration explores. */
export function dagsOf(configuration: DagConfiguration): Dag[] {
  if (configuration.dag !== undefined) return [configuration.dag];
  return dagsUpTo(configuration.nodes).map((nodes) => {
    const made = makeDag(nodes);
    if (!made.ok) throw new Error("statefold: an enumerated DAG was refused");
    return made.dag;
  });
}

export function dagSubject(configuration: DagConfiguration, wasm?: Engine): Subject<ModelState> {
  const calls = callsOf(configuration.paths);
  return {
    *initialStates() {
      for (const dag of dagsOf(configuration))
        yield { name: shapeOf(dag), state: initialState(dag) };
    },
    *successors(state) {
      for (const node of state.dag.nodes) {
        for (const call of calls) {
          const result = applyCall(state, call, node.id);
          if (result.outcome === "ok") {
            yield { action: JSON.stringify(actionOf(call, node.id)), state: result.state };
          }
        }
      }
    },
    key: keyOf,
    checkStep(before, after) {
      const event = after.log?.event as KnownEvent;
      const illegal = eventLegality(before, event);
      if (illegal !== null) return `legality (${illegal})`;
      const step = { index: 0, event, before, after };
      return STEP_INVARIANT_NAMES.find((name) => violationAt(name, step) !== null) ?? null;
    },
    checkState(state) {
      return failureOf(state.dag, loggedEvents(state), wasm)?.rule ?? null;
    },
  };
}

/**
 * A state's canonical key: every node's status, phase, deposit and surface (as a set), and
 * whether a pass was logged for it — the one thing of the past a rule still reads
 * (tamperEvident: a proven node needs a logged pass).
 */
export function keyOf(state: ModelState): string {
  const passed = new Set<string>();
  for (let log = state.log; log !== null; log = log.earlier) {
    const { kind, id, result } = log.event as KnownEvent & { result?: unknown };
    if ((kind === "gate-checked" || kind === "discharged") && result === "pass") passed.add(id);
  }
  return state.nodes
    .map((node, i) => `${nodeKey(node)}${passed.has(state.dag.nodes[i]?.id ?? "") ? "+" : ""}`)
    .join(";");
}

function nodeKey(node: NodeState): string {
  const deposit = node.deposit;
  const held = deposit === null ? "-" : `${deposit.validation}/${deposit.mode}/${deposit.phase}`;
  return `${node.status}/${node.phase}/${held}/${[...surfacePaths(node.surface)].sort().join(",")}`;
}

/** A DAG's shape, as the evidence names an initial state: `a; b<-a; c<-a,b`. */
export function shapeOf(dag: Dag): string {
  return dag.nodes
    .map((node) => (node.deps.length === 0 ? node.id : `${node.id}<-${node.deps.join(",")}`))
    .join("; ");
}
