/**
 * `executiveJournal`: a generated journal of the `executive` model (docs/models/executive.md,
 * "The journal and its audit") — a seeded spec and budget in the header, then `events` lines of
 * a faithful host driving the machine: it answers each decision (results ok, or errors retryable
 * or not; checkpoints confirmed), sends ticks between, and records the machine's decisions.
 * Seeded faults replace a recorded decision by a wrong one; the observations stay the faithful
 * host's, so each fault is the only finding at its line. The same options give the same bytes.
 *
 * The plan grows with the journal up to the spec's step bound; past it the host ticks more often
 * while it waits, so the run still lasts about as long as the journal. Should it end sooner, the
 * host goes on ticking and records the machine's `reject` `terminal`.
 */

import {
  createExecutive,
  type Decision,
  type ExecutiveState,
  SPEC_STEPS_MAX,
} from "../../models/executive/index.js";
import { plural } from "../../text/format-units.js";
import { FaultPlacementError } from "../fault-placement-error.js";
import { Random } from "../random.js";

export const EXECUTIVE_FAULT_KINDS = [
  "wrong-seq",
  "wrong-path",
  "attempt-off-by-one",
  "wrong-fail-reason",
  "accepted-after-terminal",
  "skipped-checkpoint",
] as const;
export type ExecutiveFaultKind = (typeof EXECUTIVE_FAULT_KINDS)[number];

/** One line each, for `statefold gen --help`. */
export const EXECUTIVE_FAULT_DESCRIPTIONS: Readonly<Record<ExecutiveFaultKind, string>> = {
  "wrong-seq": "a decision recorded with the next seq: decisionsMatch",
  "wrong-path": "an execute recorded for another step: decisionsMatch",
  "attempt-off-by-one": "an execute recorded with its attempt one higher: decisionsMatch",
  "wrong-fail-reason": "the run's fail recorded with another reason: decisionsMatch",
  "accepted-after-terminal": "a tick after the run ended recorded as waited on: terminalRespected",
  "skipped-checkpoint": "a checkpoint recorded as the execute after it: decisionsMatch",
};

export interface ExecutiveFaultRequest {
  readonly kind: ExecutiveFaultKind;
  readonly count: number;
}

export interface ExecutiveJournalOptions {
  /** Lines after the header. */
  readonly events: number;
  readonly seed: number;
  readonly faults?: readonly ExecutiveFaultRequest[];
}

/** Effect steps per plan, and how often a step is a sub-plan. */
const STEPS_PER_PLAN_MAX = 12;
const SUB_PLAN_CHANCE = 0.15;
/** A faithful host's lines per effect step, about: its result, a tick now and then, retries, checkpoints. */
const LINES_PER_STEP = 1.7;
/** How often the host ticks while it waits; with LINES_PER_STEP's other lines, 1.36 per step. */
const TICK_CHANCE = 0.2;
const OTHER_LINES_PER_STEP = LINES_PER_STEP * (1 - TICK_CHANCE);

interface PlanJson {
  readonly steps: StepJson[];
}
type StepJson =
  | { readonly id: string; readonly deps: string[]; readonly effect: string }
  | { readonly id: string; readonly deps: string[]; readonly plan: PlanJson };

/** A plan of about `effectSteps` effect steps, in plans of a dozen, sub-plans two deep at most. */
function planOf(
  random: Random,
  effectSteps: number,
  depth: number,
): { plan: PlanJson; steps: number } {
  const steps: StepJson[] = [];
  let made = 0;
  let index = 0;
  while (made < effectSteps && steps.length < STEPS_PER_PLAN_MAX) {
    const id = `s${index}`;
    const deps = index > 0 && random.chance(0.6) ? [`s${random.below(index)}`] : [];
    index += 1;
    if (depth < 2 && effectSteps - made > 4 && random.chance(SUB_PLAN_CHANCE)) {
      const inner = planOf(random, Math.ceil((effectSteps - made) / 3), depth + 1);
      steps.push({ id, deps, plan: inner.plan });
      made += inner.steps;
    } else {
      steps.push({ id, deps, effect: random.pick(["model", "tool", "context"]) as string });
      made += 1;
    }
  }
  // The rest of the work hangs off the root as a chain of sub-plans of a dozen steps each.
  if (depth === 0) {
    while (made < effectSteps && steps.length + made < SPEC_STEPS_MAX - STEPS_PER_PLAN_MAX - 1) {
      const id = `s${index}`;
      const inner = planOf(random, Math.min(STEPS_PER_PLAN_MAX, effectSteps - made), 2);
      steps.push({ id, deps: index > 0 ? [`s${index - 1}`] : [], plan: inner.plan });
      made += inner.steps;
      index += 1;
    }
  }
  return { plan: { steps }, steps: made };
}

interface Target {
  readonly index: number;
  readonly kind: ExecutiveFaultKind;
}

/**
 * Each line, with its "\n", the header first. A plan with faults is first run without writing:
 * one that the journal cannot hold is refused (`FaultPlacementError`) before the first line.
 */
export function* executiveJournal(options: ExecutiveJournalOptions): Generator<string> {
  const targets = faultTargets(options);
  if (targets.length > 0) for (const _ of run(options, targets, false));
  yield* run(options, targets, true);
}

function faultTargets(options: ExecutiveJournalOptions): Target[] {
  const random = new Random(options.seed ^ 0x3c3c3c);
  const targets: Target[] = [];
  let total = 0;
  for (const { kind, count } of options.faults ?? []) {
    for (let i = 0; i < count; i++) {
      total += 1;
      // The run's end is at three quarters of the journal; the faults about it come from there.
      const terminal = kind === "wrong-fail-reason" || kind === "accepted-after-terminal";
      const span = Math.max(1, Math.floor(options.events * 0.7));
      targets.push({ index: terminal ? 0 : random.below(span), kind });
    }
  }
  const terminalFaults = targets.filter((t) => t.kind === "wrong-fail-reason").length;
  if (terminalFaults > 1)
    throw new FaultPlacementError(
      "cannot inject wrong-fail-reason more than once: a run fails once",
    );
  if (total > options.events) {
    throw new FaultPlacementError(
      `cannot inject ${plural(total, "fault")} into ${plural(options.events, "line")}; generate more events`,
    );
  }
  return targets.sort((a, b) => a.index - b.index);
}

function* run(
  options: ExecutiveJournalOptions,
  targets: readonly Target[],
  writing: boolean,
): Generator<string> {
  const random = new Random(options.seed);
  const effectSteps = Math.max(
    1,
    Math.min(SPEC_STEPS_MAX - 100, Math.ceil(options.events / LINES_PER_STEP)),
  );
  const { plan } = planOf(random, effectSteps, 0);
  const tickChance = Math.max(
    TICK_CHANCE,
    1 - OTHER_LINES_PER_STEP / (options.events / effectSteps),
  );
  const spec = { task: `generated run ${options.seed}`, plan, checkpointEvery: 5 };
  const budget = {
    steps: options.events * 2 + 10,
    depth: 3,
    modelCalls: options.events * 2,
    toolCalls: options.events * 2,
    contextOps: options.events * 2,
    retries: options.events * 2,
    outputBytes: 2 ** 52,
    deadline: 2 ** 52,
  };
  const machine = createExecutive();
  const made = machine.initialState(spec, budget);
  if (!("state" in made))
    throw new Error(
      `statefold: a generated spec was refused: ${made.rejected} at ${made.path.join(".")}`,
    );
  if (writing) {
    yield `${JSON.stringify({ statefold: "journal", version: 1, model: "executive", spec: made.state.spec, budget })}\n`;
  }
  const wantsFailReason = targets.some((t) => t.kind === "wrong-fail-reason");
  const afterTerminal = targets.filter((t) => t.kind === "accepted-after-terminal").length;
  const pending = targets.filter(
    (t) => t.kind !== "wrong-fail-reason" && t.kind !== "accepted-after-terminal",
  );
  const cancelAt = wantsFailReason || afterTerminal > 0 ? Math.floor(options.events * 0.75) : -1;
  let state: ExecutiveState = made.state;
  let last: Decision | null = null;
  let now = 0;
  let next = 0;
  let afterTerminalLeft = afterTerminal;
  let failReasonPlaced = !wantsFailReason;
  for (let index = 0; index < options.events; index++) {
    now += random.below(50);
    const observation: Observed =
      index === cancelAt ? { tag: "cancel", now } : observationFor(random, last, now, tickChance);
    const result: { decision: Decision; state: ExecutiveState } = machine.step(state, observation);
    let recorded: Decision | Record<string, unknown> = result.decision;
    const due = pending[next];
    if (due !== undefined && due.index <= index) {
      const wrong = faultyDecision(due.kind, result.decision, result.state, machine, now);
      if (wrong !== null) {
        recorded = wrong;
        next += 1;
      }
    }
    if (index === cancelAt && wantsFailReason && result.decision.tag === "fail") {
      recorded = { ...result.decision, reason: "deadline" };
      failReasonPlaced = true;
    }
    if (index > cancelAt && cancelAt >= 0 && afterTerminalLeft > 0 && observation.tag === "tick") {
      recorded = { tag: "wait", seq: state.seq };
      afterTerminalLeft -= 1;
    }
    state = result.state;
    if (result.decision.tag !== "wait" && result.decision.tag !== "reject") last = result.decision;
    if (writing) yield `${JSON.stringify({ observation, decision: recorded })}\n`;
  }
  if (next < pending.length || afterTerminalLeft > 0 || !failReasonPlaced) {
    const missing =
      next < pending.length
        ? (pending[next] as Target).kind
        : failReasonPlaced
          ? "accepted-after-terminal"
          : "wrong-fail-reason";
    throw new FaultPlacementError(
      `cannot inject ${missing}: it found no place in ${plural(options.events, "line")}; generate more events, or change --seed`,
    );
  }
}

type Observed = { readonly tag: string; readonly [field: string]: unknown };

/** What a faithful host sends next, given the decision it last got. */
function observationFor(
  random: Random,
  last: Decision | null,
  now: number,
  tickChance: number,
): Observed {
  if (last === null) return { tag: "start", now };
  if (random.chance(tickChance)) return { tag: "tick", now };
  if (last.tag === "checkpoint") return { tag: "checkpointed", seq: last.seq, now };
  if (last.tag === "execute") {
    // Errors are retryable: a run that is to last as long as its journal must not fail early.
    if (random.chance(0.9)) {
      return { tag: "result", seq: last.seq, outcome: "ok", bytes: random.below(4000), now };
    }
    return { tag: "result", seq: last.seq, outcome: "error", retryable: true, bytes: 0, now };
  }
  return { tag: "tick", now };
}

/** The wrong decision a fault records in place of the machine's, or null when this one is no place for it. */
function faultyDecision(
  kind: ExecutiveFaultKind,
  decision: Decision,
  after: ExecutiveState,
  machine: ReturnType<typeof createExecutive>,
  now: number,
): Record<string, unknown> | null {
  switch (kind) {
    case "wrong-seq":
      return "seq" in decision && decision.tag !== "wait"
        ? { ...decision, seq: decision.seq + 1 }
        : null;
    case "wrong-path":
      return decision.tag === "execute"
        ? { ...decision, path: [...decision.path.slice(0, -1), `${decision.path.at(-1)}-other`] }
        : null;
    case "attempt-off-by-one":
      return decision.tag === "execute" ? { ...decision, attempt: decision.attempt + 1 } : null;
    case "skipped-checkpoint": {
      if (decision.tag !== "checkpoint") return null;
      const beyond = machine.step(after, { tag: "checkpointed", seq: decision.seq, now }).decision;
      return beyond.tag === "execute" ? { ...beyond, seq: decision.seq } : null;
    }
    default:
      return null;
  }
}
