/**
 * The executive model's mutants (docs/explore.md, "Mutants"): deliberate one-line changes of the
 * machine's meaning, each a step that decides otherwise in one case, hunted by
 * src/explore/mutants.ts. The answers compared are the report — whose audit holds the journal's
 * recorded decisions to the machine's — and the final state's canonical JSON.
 */
import type { List } from "immutable";
import {
  auditExecutive,
  type ExecutiveReport,
  type ExecutiveRun,
} from "../../models/executive/audit.js";
import { stepBySemantics } from "../../models/executive/machine.js";
import { canonicalBody } from "../../models/executive/snapshot.js";
import type { SubPlanStep } from "../../models/executive/spec.js";
import {
  type ExecutiveSemantics,
  type ExecutiveState,
  type Frame,
  readyState,
  withChanges,
} from "../../models/executive/state.js";
import { stepState } from "../../models/executive/step.js";
import { type HuntedModel, hunt } from "../mutants.js";
import { rulesByLine } from "./counterexample.js";
import { type ExploredExecutive, executiveSubject, linesOf } from "./subject.js";

export interface ExecutiveMutant {
  readonly name: string;
  readonly description: string;
  readonly semantics: ExecutiveSemantics;
  /** What a run lacks for the change to ever matter (a sub-plan, say), or null when it has it. */
  readonly unexercisedBy?: (run: ExecutiveRun) => string | null;
}

/** Whether the root plan has a sub-plan step (a deeper one is inside one of those). */
function hasSubPlan(run: ExecutiveRun): boolean {
  return run.spec.plan.steps.some((step) => "plan" in step);
}

type Observed = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Observed =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const finished = (state: ExecutiveState) =>
  state.status === "completed" || state.status === "failed";

/** The reference's step, but an observation for which `when` holds is first rewritten by `as`. */
function seeing(
  when: (state: ExecutiveState, observation: Observed) => boolean,
  as: (state: ExecutiveState, observation: Observed) => Observed,
): ExecutiveSemantics {
  return {
    step: (state, value) =>
      stepState(state, isObject(value) && when(state, value) ? as(state, value) : value),
  };
}

/** Every frame's counters with `retries` one lower: a retry given back. */
function refunded(frames: List<Frame>): List<Frame> {
  return frames.map((frame) =>
    Object.freeze({
      ...frame,
      used: Object.freeze({ ...frame.used, retries: frame.used.retries - 1 }),
    }),
  );
}

export const EXECUTIVE_MUTANTS: readonly ExecutiveMutant[] = [
  {
    name: "terminal-accepts-tick",
    description: "a finished run answers a tick with wait instead of refusing it",
    semantics: {
      step: (state, value) =>
        finished(state) && isObject(value) && value.tag === "tick"
          ? { decision: { tag: "wait", seq: state.seq }, state }
          : stepState(state, value),
    },
  },
  {
    name: "cancel-after-finish",
    description: "a cancel fails a finished run again instead of being refused",
    semantics: {
      step: (state, value) =>
        finished(state) && isObject(value) && value.tag === "cancel"
          ? stepState(withChanges(state, { status: "running", failure: null }), value)
          : stepState(state, value),
    },
  },
  {
    name: "stale-result-accepted",
    description: "a result for a consumed decision is taken as the outstanding one's",
    semantics: seeing(
      (state, observation) =>
        observation.tag === "result" &&
        state.outstanding?.tag === "execute" &&
        observation.seq !== state.outstanding.seq,
      (state, observation) => ({ ...observation, seq: state.outstanding?.seq }),
    ),
  },
  {
    name: "clock-may-go-back",
    description: "an observation from before the last accepted one is taken as at the last",
    semantics: seeing(
      (state, observation) =>
        state.now !== null && typeof observation.now === "number" && observation.now < state.now,
      (state, observation) => ({ ...observation, now: state.now }),
    ),
  },
  {
    name: "output-bytes-not-charged",
    description: "a result's output bytes are not charged to outputBytes",
    semantics: seeing(
      (_, observation) => observation.tag === "result" && typeof observation.bytes === "number",
      (_, observation) => ({ ...observation, bytes: 0 }),
    ),
  },
  {
    name: "final-error-retried",
    description: "an error that is not retryable is retried",
    semantics: seeing(
      (_, observation) =>
        observation.tag === "result" &&
        observation.outcome === "error" &&
        observation.retryable !== true,
      (_, observation) => ({ ...observation, retryable: true }),
    ),
  },
  {
    name: "retry-refunds-counter",
    description: "a retry's charge to the retries counter is given back",
    semantics: {
      step: (state, value) => {
        const result = stepState(state, value);
        const retried =
          result.decision.tag === "execute" &&
          result.decision.attempt > 1 &&
          isObject(value) &&
          value.tag === "result";
        return retried
          ? {
              ...result,
              state: withChanges(result.state, { frames: refunded(result.state.frames) }),
            }
          : result;
      },
    },
  },
  {
    name: "child-budget-not-narrowed",
    description:
      "an entered sub-plan gets its own budget, or its parent's whole limits, not what the parent has left",
    unexercisedBy: (run) => (hasSubPlan(run) ? null : "the spec has no sub-plan to enter"),
    semantics: {
      step: (state, value) => {
        const result = stepState(state, value);
        const { frames } = result.state;
        if (frames.size <= state.frames.size) return result;
        const parent = frames.get(frames.size - 2) as Frame;
        const child = frames.last() as Frame;
        const step = parent.plan.steps.find((planned) => planned.id === child.id) as SubPlanStep;
        const limits = Object.freeze({ ...parent.limits, ...step.budget });
        const widened = frames.set(frames.size - 1, Object.freeze({ ...child, limits }));
        return { ...result, state: withChanges(result.state, { frames: widened }) };
      },
    },
  },
  {
    name: "checkpoint-never-due",
    description: "no checkpoint is ever decided, whatever checkpointEvery says",
    unexercisedBy: (run) =>
      run.spec.checkpointEvery === undefined ? "the spec has no checkpointEvery" : null,
    semantics: {
      step: (state, value) => {
        const { checkpointEvery: _, ...unchecked } = state.spec;
        const without = withChanges(state, { spec: unchecked });
        const result = stepState(without, value);
        return result.state === without
          ? { ...result, state }
          : { ...result, state: withChanges(result.state, { spec: state.spec }) };
      },
    },
  },
  {
    name: "attempt-not-counted",
    description: "a retried step is executed again as attempt 1",
    semantics: {
      step: (state, value) => {
        const result = stepState(state, value);
        const { decision } = result;
        if (decision.tag !== "execute" || decision.attempt === 1) return result;
        const outstanding = { ...decision, attempt: 1 };
        return {
          decision: outstanding,
          state: withChanges(result.state, { outstanding: Object.freeze(outstanding) }),
        };
      },
    },
  },
];

/** What the model says of a journal: its report, and the state its observations lead to. */
interface Answer {
  readonly report: ExecutiveReport;
  readonly state: string;
}

function answerOf(
  run: ExecutiveRun,
  lines: readonly unknown[],
  semantics?: ExecutiveSemantics,
): Answer {
  let state = readyState(run.spec, run.budget, semantics);
  for (const line of lines) {
    if (!isObject(line)) break;
    state = stepBySemantics(state, line.observation).state;
  }
  return { report: auditExecutive(run, lines, {}, semantics), state: canonicalBody(state) };
}

function firstDifference(reference: Answer, mutant: Answer): string | null {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(reference.report.integrity, mutant.report.integrity)) return "integrity";
  for (const rule of ["decisionsMatch", "terminalRespected"] as const) {
    if (!same(reference.report.invariants[rule], mutant.report.invariants[rule])) return rule;
  }
  if (!same(reference.report.legality, mutant.report.legality)) return "legality";
  if (!same(reference.report.final, mutant.report.final)) return "final";
  return reference.state === mutant.state ? null : "state";
}

export function differenceOf(
  run: ExecutiveRun,
  lines: readonly unknown[],
  semantics: ExecutiveSemantics,
): string | null {
  return firstDifference(answerOf(run, lines), answerOf(run, lines, semantics));
}

function huntedExecutive(run: ExecutiveRun): HuntedModel<ExploredExecutive, ExecutiveSemantics> {
  const machine = executiveSubject(run);
  return {
    *initialStates(semantics) {
      yield { machine: readyState(run.spec, run.budget, semantics), log: null };
    },
    successors: (state) => machine.successors(state),
    key: machine.key,
    follow(other, next) {
      const line = next.log?.line;
      if (line === undefined) return null;
      const { decision, state } = stepBySemantics(other.machine, line.observation);
      return {
        machine: state,
        log: { line: { observation: line.observation, decision }, earlier: other.log },
      };
    },
    journal: linesOf,
    difference: (_, journal, semantics) => differenceOf(run, journal, semantics),
    makeable: (_, journal, semantics) => auditExecutive(run, journal, {}, semantics).conformant,
  };
}

export interface ExecutiveMutantVerdict {
  readonly mutant: ExecutiveMutant;
  readonly distinctStates: number;
  readonly kill: {
    readonly madeBy: "reference" | "mutant";
    readonly journal: readonly unknown[];
    readonly differs: string;
    readonly reference: { readonly rules: readonly string[][]; readonly state: string };
    readonly mutant: { readonly rules: readonly string[][]; readonly state: string };
  } | null;
}

export async function huntExecutiveMutant(
  run: ExecutiveRun,
  depth: number,
  mutant: ExecutiveMutant,
): Promise<ExecutiveMutantVerdict> {
  const { distinctStates, found } = await hunt(huntedExecutive(run), depth, mutant.semantics);
  if (found === null) return { mutant, distinctStates, kill: null };
  const { journal } = found;
  const told = (answer: Answer) => ({
    rules: rulesByLine(answer.report, journal),
    state: answer.state,
  });
  return {
    mutant,
    distinctStates,
    kill: {
      madeBy: found.madeBy,
      journal,
      differs: found.differs,
      reference: told(answerOf(run, journal)),
      mutant: told(answerOf(run, journal, mutant.semantics)),
    },
  };
}
