/**
 * The state of the `executive` model (docs/models/executive.md, "State"): plain, bounded,
 * immutable data — a state is never changed, `step` makes the next one — with the frame stack
 * and its budgets. Charging and entering follow the budget rules: a charge reaches every frame
 * on the stack and fails, changing nothing, when any frame would pass its limit; an entered
 * frame holds at most what its parent has left. So budgets only narrow and counters only grow.
 *
 * A frame's `done` ids are a persistent list (in the order they were done) and set, and its
 * `ready` ids (not done, every dep done) a persistent set kept as steps are done, so that a step
 * costs O(log n) of a large plan and the next step is found among the ready ones only.
 */
import { Set as ImmutableSet, List } from "immutable";
import type { Decision, ExhaustedBudget, FailReason } from "./observation.js";
import {
  type Budget,
  type ChildBudget,
  COUNTERS,
  type Counter,
  type Effect,
  type Plan,
  type PlanStep,
  type Spec,
} from "./spec.js";

export type Used = Readonly<Record<Counter, number>>;
export type Limits = Readonly<Record<Counter | "deadline", number>>;

export interface Frame {
  /** The sub-plan step this frame runs; null for the root plan. */
  readonly id: string | null;
  readonly plan: Plan;
  readonly limits: Limits;
  readonly used: Used;
  readonly done: List<string>;
  readonly doneSet: ImmutableSet<string>;
  /** The steps not done whose deps all are. */
  readonly ready: ImmutableSet<string>;
}

/** What a plan's steps are by id, and which steps depend on each: worked out once per plan. */
interface PlanIndex {
  readonly byId: ReadonlyMap<string, PlanStep>;
  readonly dependents: ReadonlyMap<string, readonly string[]>;
  readonly roots: readonly string[];
}

const planIndexes = new WeakMap<Plan, PlanIndex>();

export function planIndex(plan: Plan): PlanIndex {
  let index = planIndexes.get(plan);
  if (index === undefined) {
    const byId = new Map(plan.steps.map((step) => [step.id, step]));
    const dependents = new Map<string, string[]>();
    for (const step of plan.steps) {
      for (const dep of new Set(step.deps)) {
        const list = dependents.get(dep);
        if (list === undefined) dependents.set(dep, [step.id]);
        else list.push(step.id);
      }
    }
    const roots = plan.steps.filter((step) => step.deps.length === 0).map((step) => step.id);
    index = { byId, dependents, roots };
    planIndexes.set(plan, index);
  }
  return index;
}

export const STATUSES = ["ready", "running", "completed", "failed"] as const;
export type Status = (typeof STATUSES)[number];

export interface Failure {
  readonly reason: FailReason;
  readonly budget?: ExhaustedBudget;
}

export type Outstanding =
  | {
      readonly tag: "execute";
      readonly seq: number;
      readonly path: readonly string[];
      readonly effect: Effect;
      readonly attempt: number;
    }
  | { readonly tag: "checkpoint"; readonly seq: number };

export interface ExecutiveState {
  readonly spec: Spec;
  /** The root budget's `depth`: at most depth + 1 frames. */
  readonly depth: number;
  readonly status: Status;
  readonly failure: Failure | null;
  /** Decisions made (all but `reject` and `wait`). */
  readonly seq: number;
  /** The last accepted observation's `now`; null before the first. */
  readonly now: number | null;
  /** The root plan's frame first, then each sub-plan entered. */
  readonly frames: List<Frame>;
  readonly outstanding: Outstanding | null;
  /** Effect steps done since the last checkpoint. */
  readonly sinceCheckpoint: number;
  readonly lastDetail: string | null;
  /** Absent on the reference's states: they follow docs/models/executive.md. */
  readonly semantics?: ExecutiveSemantics;
}

/**
 * The machine's meaning where explore's mutants change it (docs/explore.md, "Mutants"): the step.
 * A state carries the semantics that made it, and every state stepped from it keeps them.
 */
export interface ExecutiveSemantics {
  readonly step: (
    state: ExecutiveState,
    observation: unknown,
  ) => {
    readonly decision: Decision;
    readonly state: ExecutiveState;
  };
}

const NOTHING_USED: Used = Object.freeze({
  steps: 0,
  modelCalls: 0,
  toolCalls: 0,
  contextOps: 0,
  retries: 0,
  outputBytes: 0,
});

export function readyState(
  spec: Spec,
  budget: Budget,
  semantics?: ExecutiveSemantics,
): ExecutiveState {
  const { depth, ...limits } = budget;
  return Object.freeze({
    ...(semantics === undefined ? {} : { semantics }),
    spec,
    depth,
    status: "ready",
    failure: null,
    seq: 0,
    now: null,
    frames: List([frameOf(null, spec.plan, Object.freeze(limits))]),
    outstanding: null,
    sinceCheckpoint: 0,
    lastDetail: null,
  });
}

export function frameOf(id: string | null, plan: Plan, limits: Limits): Frame {
  return Object.freeze({
    id,
    plan,
    limits,
    used: NOTHING_USED,
    done: List<string>(),
    doneSet: ImmutableSet<string>(),
    ready: ImmutableSet(planIndex(plan).roots),
  });
}

export function topFrame(state: ExecutiveState): Frame {
  return state.frames.last() as Frame;
}

export function withChanges(
  state: ExecutiveState,
  changes: Partial<ExecutiveState>,
): ExecutiveState {
  return Object.freeze({ ...state, ...changes });
}

/**
 * Charges `counter` by `amount` in every frame: the new frames, or the counter itself when a
 * frame would pass its limit (nothing is then charged).
 */
export function charge(
  frames: List<Frame>,
  counter: Counter,
  amount: number,
): List<Frame> | Counter {
  if (frames.some((frame) => frame.used[counter] + amount > frame.limits[counter])) return counter;
  return frames.map((frame) =>
    Object.freeze({
      ...frame,
      used: Object.freeze({ ...frame.used, [counter]: frame.used[counter] + amount }),
    }),
  );
}

/** Whether every frame can still charge one more executive step. */
export function affordsStep(frames: List<Frame>): boolean {
  return frames.every((frame) => frame.used.steps + 1 <= frame.limits.steps);
}

/** The frame a sub-plan step runs in: limits no larger than what its parent has left. */
export function enteredFrame(
  parent: Frame,
  id: string,
  plan: Plan,
  budget: ChildBudget | undefined,
): Frame {
  const limits: Record<Counter | "deadline", number> = {
    steps: 0,
    modelCalls: 0,
    toolCalls: 0,
    contextOps: 0,
    retries: 0,
    outputBytes: 0,
    deadline: Math.min(budget?.deadline ?? parent.limits.deadline, parent.limits.deadline),
  };
  for (const counter of COUNTERS) {
    const left = parent.limits[counter] - parent.used[counter];
    limits[counter] = Math.min(budget?.[counter] ?? left, left);
  }
  return frameOf(id, plan, Object.freeze(limits));
}

/** The frame with `id` (a ready step of its plan) done in it, and the steps that makes ready. */
export function withDone(frame: Frame, id: string): Frame {
  const { byId, dependents } = planIndex(frame.plan);
  const doneSet = frame.doneSet.add(id);
  const ready = frame.ready.withMutations((set) => {
    set.remove(id);
    for (const dependent of dependents.get(id) ?? []) {
      const step = byId.get(dependent) as PlanStep;
      if (!doneSet.has(dependent) && step.deps.every((dep) => doneSet.has(dep))) set.add(dependent);
    }
  });
  return Object.freeze({ ...frame, done: frame.done.push(id), doneSet, ready });
}
