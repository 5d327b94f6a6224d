/**
 * The six trajectory invariants of the librecode model, each a pure `(dag, events) → boolean` over the
 * whole trajectory — every state the fold passes through, the initial one included. They rebuild
 * the history through `transitionEvent` rather than trusting a stored state, so they run
 * unchanged on a recorded journal. A log-integrity fault in `events` propagates as
 * `LogIntegrityError`; `audit` evaluates them on the prefix before it.
 *
 * Five are step checks (a property of each consecutive pair of states), so the first event at
 * which one fails is also the first prefix over which the predicate is false. tamperEvident is
 * a property of the final state and the whole log.
 */
import type { Dag } from "./dag.js";
import type { KnownEvent } from "./events.js";
import { transitionEvent } from "./fold.js";
import {
  initialState,
  keepsSurface,
  loggedEvents,
  type ModelState,
  type Semantics,
} from "./state.js";
import { dependenciesProven } from "./transitions.js";

export interface Step {
  readonly index: number;
  readonly event: KnownEvent;
  readonly before: ModelState;
  readonly after: ModelState;
}

/** The steps of the trajectory of `events`, one per event, in order. */
export function* trajectory(
  dag: Dag,
  events: Iterable<unknown>,
  semantics?: Semantics,
): Generator<Step> {
  let before = initialState(dag, semantics);
  let index = 0;
  for (const event of events) {
    const after = transitionEvent(before, event);
    yield { index, event: event as KnownEvent, before, after };
    before = after;
    index += 1;
  }
}

/** A step invariant names the node that breaks it in a state or step, or null when it holds. */
interface StepInvariant {
  /** Checked on the initial state, and on every state after. */
  readonly inState?: (state: ModelState) => string | null;
  /** Checked on every consecutive pair of states. */
  readonly inStep?: (step: Step) => string | null;
}

export const STEP_INVARIANTS = {
  phaseMonotonic: {
    inStep: ({ before, after }) => changedNode(before, after, (was, now) => now.phase < was.phase),
  },
  noPendingProven: {
    inState: (state) => {
      const index = state.nodes.findIndex(
        (node) => node.status === "proven" && node.deposit?.validation === "pending",
      );
      return index < 0 ? null : idAt(state, index);
    },
  },
  dagPreserved: {
    inStep: ({ before, after }) => {
      const was = before.dag.nodes;
      const now = after.dag.nodes;
      const index = was.findIndex((node, i) => now[i]?.id !== node.id);
      if (index >= 0) return idAt(before, index);
      return now.length === was.length ? null : (now[was.length]?.id ?? "");
    },
  },
  scheduleCorrect: {
    inStep: ({ event, before }) =>
      event.kind === "dispatched" && !dependenciesProven(before, event.id) ? event.id : null,
  },
  surfaceMonotonic: {
    inStep: ({ before, after }) =>
      changedNode(before, after, (was, now) => !keepsSurface(now.surface, was.surface)),
  },
} satisfies Record<string, StepInvariant>;

export type StepInvariantName = keyof typeof STEP_INVARIANTS;

export const STEP_INVARIANT_NAMES = Object.keys(STEP_INVARIANTS) as readonly StepInvariantName[];

/**
 * The first node (in DAG order) whose state changed in this step and satisfies `broken`. A node
 * whose state object is unchanged was already judged at an earlier step, so skipping it cannot
 * move the first failure.
 */
function changedNode(
  before: ModelState,
  after: ModelState,
  broken: (was: ModelState["nodes"][number], now: ModelState["nodes"][number]) => boolean,
): string | null {
  const index = after.nodes.findIndex((now, i) => {
    const was = before.nodes[i];
    return was !== undefined && was !== now && broken(was, now);
  });
  return index < 0 ? null : idAt(after, index);
}

function idAt(state: ModelState, position: number): string {
  return state.dag.nodes[position]?.id ?? "";
}

export interface Violation {
  readonly index: number;
  readonly node: string;
}

/** The node that breaks the invariant at this step (in its end state or in the step itself), or null. */
export function violationAt(name: StepInvariantName, step: Step): string | null {
  const invariant: StepInvariant = STEP_INVARIANTS[name];
  // The initial state (every node queued, nothing deposited) satisfies every state check, so the
  // trajectory's states after each event are the ones that can fail.
  return invariant.inStep?.(step) ?? invariant.inState?.(step.after) ?? null;
}

/** The first event at which the invariant fails, or null when it holds over the whole trajectory. */
export function firstViolation(
  name: StepInvariantName,
  dag: Dag,
  events: Iterable<unknown>,
  semantics?: Semantics,
): Violation | null {
  for (const step of trajectory(dag, events, semantics)) {
    const node = violationAt(name, step);
    if (node !== null) return { index: step.index, node };
  }
  return null;
}

/** Nodes proven in the final state with no logged pass for them anywhere in the log, in DAG order. */
export function unjustifiedProvenNodes(
  dag: Dag,
  events: Iterable<unknown>,
  semantics?: Semantics,
): string[] {
  let final = initialState(dag, semantics);
  for (const step of trajectory(dag, events, semantics)) final = step.after;
  return unjustifiedIn(final);
}

/** The nodes proven in `state` with no logged pass for them in its log, in DAG order. */
export function unjustifiedIn(state: ModelState): string[] {
  const passed = new Set(
    loggedEvents(state)
      .filter(
        (event) =>
          (event.kind === "gate-checked" || event.kind === "discharged") && event.result === "pass",
      )
      .map((event) => event.id),
  );
  return state.dag.nodes
    .filter((node, i) => state.nodes[i]?.status === "proven" && !passed.has(node.id))
    .map((node) => node.id);
}

export const phaseMonotonic = (dag: Dag, events: Iterable<unknown>): boolean =>
  firstViolation("phaseMonotonic", dag, events) === null;
export const noPendingProven = (dag: Dag, events: Iterable<unknown>): boolean =>
  firstViolation("noPendingProven", dag, events) === null;
export const tamperEvident = (dag: Dag, events: Iterable<unknown>): boolean =>
  unjustifiedProvenNodes(dag, events).length === 0;
export const dagPreserved = (dag: Dag, events: Iterable<unknown>): boolean =>
  firstViolation("dagPreserved", dag, events) === null;
export const scheduleCorrect = (dag: Dag, events: Iterable<unknown>): boolean =>
  firstViolation("scheduleCorrect", dag, events) === null;
export const surfaceMonotonic = (dag: Dag, events: Iterable<unknown>): boolean =>
  firstViolation("surfaceMonotonic", dag, events) === null;
