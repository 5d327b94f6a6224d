/**
 * One step of the `executive` machine (docs/models/executive.md, "The step"), in its order:
 * the state's own refusals, the observation read, cancel, the refusals of a stale or early
 * observation, acceptance (the clock, the `steps` charge, the deadline), then what the
 * observation means, and *next*: pop finished frames, checkpoint when due, or decide the least
 * ready step. A `reject` gives back the very state it was given.
 */
import { List } from "immutable";
import { compareCodePoints } from "../dag/dag.js";
import {
  type Decision,
  type ExhaustedBudget,
  type FailReason,
  type Observation,
  type RejectReason,
  readObservation,
} from "./observation.js";
import type { Counter, Effect, PlanStep, SubPlanStep } from "./spec.js";
import {
  affordsStep,
  charge,
  type ExecutiveState,
  enteredFrame,
  type Frame,
  planIndex,
  topFrame,
  withChanges,
  withDone,
} from "./state.js";

export interface StepResult {
  readonly decision: Decision;
  readonly state: ExecutiveState;
}

const CALL_COUNTERS: Readonly<Record<Effect, Counter>> = {
  model: "modelCalls",
  tool: "toolCalls",
  context: "contextOps",
};

function rejected(state: ExecutiveState, reason: RejectReason): StepResult {
  return { decision: { tag: "reject", reason }, state };
}

/** A step of a state this engine made (the caller has checked that it is one). */
export function stepState(state: ExecutiveState, value: unknown): StepResult {
  if (state.status === "completed" || state.status === "failed") return rejected(state, "terminal");
  const read = readObservation(value);
  if (!read.ok) return rejected(state, read.reason);
  const observation = read.observation;
  if (observation.tag === "cancel") {
    const now = state.now === null || observation.now >= state.now ? observation.now : state.now;
    return fail(withChanges(state, { now }), "cancelled");
  }
  const refusal = refusalOf(state, observation);
  if (refusal !== null) return rejected(state, refusal);
  let accepted = withChanges(state, {
    now: observation.now,
    ...(observation.tag === "result" ? { lastDetail: observation.detail } : {}),
  });
  const charged = charge(accepted.frames, "steps", 1);
  if (!List.isList(charged)) return fail(accepted, "budget-exhausted", charged);
  accepted = withChanges(accepted, { frames: charged });
  if (observation.now >= topFrame(accepted).limits.deadline) return fail(accepted, "deadline");
  return meaning(accepted, observation);
}

function refusalOf(state: ExecutiveState, observation: Observation): RejectReason | null {
  if (observation.tag === "start") {
    if (state.status !== "ready") return "already-started";
  } else if (state.status === "ready") {
    return "not-started";
  }
  const { outstanding } = state;
  if (observation.tag === "result") {
    if (outstanding?.tag !== "execute" || outstanding.seq !== observation.seq) {
      return "stale-decision";
    }
  }
  if (observation.tag === "checkpointed") {
    if (outstanding?.tag !== "checkpoint" || outstanding.seq !== observation.seq) {
      return "stale-decision";
    }
  }
  if (state.now !== null && observation.now < state.now) return "clock-regressed";
  return null;
}

/** What an accepted observation means (a cancel is never accepted: it fails the run first). */
function meaning(
  state: ExecutiveState,
  observation: Exclude<Observation, { tag: "cancel" }>,
): StepResult {
  switch (observation.tag) {
    case "tick":
      return { decision: { tag: "wait", seq: state.outstanding?.seq ?? state.seq }, state };
    case "checkpointed":
      return next(withChanges(state, { sinceCheckpoint: 0, outstanding: null }));
    case "start":
      return next(withChanges(state, { status: "running" }));
    case "result":
      return result(state, observation);
  }
}

function result(
  state: ExecutiveState,
  observation: Extract<Observation, { tag: "result" }>,
): StepResult {
  const charged = charge(state.frames, "outputBytes", observation.bytes);
  if (!List.isList(charged)) return fail(state, "budget-exhausted", charged);
  const outstanding = state.outstanding as Extract<
    ExecutiveState["outstanding"],
    { tag: "execute" }
  >;
  let after = withChanges(state, { frames: charged });
  if (observation.outcome === "ok") {
    const frames = after.frames;
    const done = withDone(frames.last() as Frame, outstanding.path.at(-1) as string);
    return next(
      withChanges(after, {
        frames: frames.set(frames.size - 1, done),
        sinceCheckpoint: after.sinceCheckpoint + 1,
        outstanding: null,
      }),
    );
  }
  if (!observation.retryable) return fail(after, "effect-failed");
  const retried = charge(after.frames, "retries", 1);
  if (!List.isList(retried)) return fail(after, "budget-exhausted", retried);
  after = withChanges(after, { frames: retried });
  return decideExecute(after, outstanding.path, outstanding.effect, outstanding.attempt + 1);
}

/** Pops finished frames, checkpoints when due, else decides the top frame's least ready step. */
function next(start: ExecutiveState): StepResult {
  let state = start;
  while (true) {
    const frame = topFrame(state);
    if (frame.done.size === frame.plan.steps.length) {
      if (state.frames.size === 1) return complete(state);
      const frames = state.frames.pop();
      const parent = frames.last() as Frame;
      state = withChanges(state, {
        frames: frames.set(frames.size - 1, withDone(parent, frame.id as string)),
      });
      continue;
    }
    const every = state.spec.checkpointEvery;
    if (every !== undefined && state.sinceCheckpoint >= every) return decideCheckpoint(state);
    const step = leastReadyStep(frame);
    if ("effect" in step) {
      const path = [...pathOfFrames(state.frames), step.id];
      return decideExecute(state, path, step.effect, 1);
    }
    if (state.frames.size + 1 > state.depth + 1) return fail(state, "budget-exhausted", "depth");
    const entered = enteredFrame(frame, step.id, step.plan, (step as SubPlanStep).budget);
    if (entered.limits.deadline <= (state.now as number)) return fail(state, "deadline");
    state = withChanges(state, { frames: state.frames.push(entered) });
  }
}

/** The not-done step, every dep done, whose id is least by code point. */
function leastReadyStep(frame: Frame): PlanStep {
  let least: string | null = null;
  for (const id of frame.ready) if (least === null || compareCodePoints(id, least) < 0) least = id;
  // A plan is a DAG: some step is ready until all are done.
  return planIndex(frame.plan).byId.get(least as string) as PlanStep;
}

function pathOfFrames(frames: List<Frame>): string[] {
  return frames
    .skip(1)
    .map((frame) => frame.id as string)
    .toArray();
}

function decideExecute(
  state: ExecutiveState,
  path: readonly string[],
  effect: Effect,
  attempt: number,
): StepResult {
  if (!affordsStep(state.frames)) return fail(state, "budget-exhausted", "steps");
  const charged = charge(state.frames, CALL_COUNTERS[effect], 1);
  if (!List.isList(charged)) return fail(state, "budget-exhausted", charged);
  const seq = state.seq + 1;
  const decision = {
    tag: "execute",
    seq,
    path: Object.freeze([...path]),
    effect,
    attempt,
  } as const;
  return {
    decision,
    state: withChanges(state, { frames: charged, seq, outstanding: Object.freeze(decision) }),
  };
}

function decideCheckpoint(state: ExecutiveState): StepResult {
  if (!affordsStep(state.frames)) return fail(state, "budget-exhausted", "steps");
  const seq = state.seq + 1;
  const decision = { tag: "checkpoint", seq } as const;
  return { decision, state: withChanges(state, { seq, outstanding: Object.freeze(decision) }) };
}

function complete(state: ExecutiveState): StepResult {
  const seq = state.seq + 1;
  return {
    decision: { tag: "complete", seq },
    state: withChanges(state, { seq, status: "completed", outstanding: null }),
  };
}

function fail(state: ExecutiveState, reason: FailReason, budget?: ExhaustedBudget): StepResult {
  const seq = state.seq + 1;
  const failure = Object.freeze(budget === undefined ? { reason } : { reason, budget });
  return {
    decision: { tag: "fail", seq, ...failure },
    state: withChanges(state, { seq, status: "failed", failure, outstanding: null }),
  };
}
