/**
 * The refinement check of an executive host (docs/explore.md, "Refinement of an executive"):
 * for every state explore reaches from the ready state of a spec and budget, by its shortest
 * sequence, and every action there — each observation explore enumerates, and a restart (the
 * host snapshots its state, drops it and restores it) — the host is reset, driven through the
 * sequence and the action, and must journal the line the machine would: the observation with the
 * machine's very decision. A restart journals nothing and changes nothing the machine decides
 * afterwards, so a restarted state is explored on its own. The journal must audit strictly
 * conformant. The first divergence is shrunk — actions removed while the host still diverges
 * the same way at the last of them.
 */
import { auditExecutive, type ExecutiveRun, jsonEqual } from "../../models/executive/audit.js";
import { stepBySemantics } from "../../models/executive/machine.js";
import { readyState } from "../../models/executive/state.js";
import type { Driver, DriverAnswer } from "../driver.js";
import { shrink } from "../shrink.js";
import { type ExploredExecutive, executiveSubject } from "./subject.js";

/** An action as the protocol sends it: an observation, or a restart. */
export type ExecutiveAction = { readonly observation: unknown } | { readonly restart: true };

export interface ExecutiveDivergence {
  readonly actions: readonly ExecutiveAction[];
  /** What the model does with the last action: the line it journals. */
  readonly expected: { readonly journal: readonly unknown[] };
  readonly got: DriverAnswer;
  readonly why: string;
}

export interface ExecutiveRefinement {
  readonly sequences: number;
  readonly actionsDriven: number;
  readonly distinctStates: number;
  readonly seconds: number;
  readonly divergence: ExecutiveDivergence | null;
}

const RESTART: ExecutiveAction = { restart: true };

interface Reached {
  readonly state: ExploredExecutive;
  readonly actions: readonly ExecutiveAction[];
  readonly restarted: boolean;
}

export async function refineExecutive(
  run: ExecutiveRun,
  depth: number,
  driver: Driver,
): Promise<ExecutiveRefinement> {
  const started = performance.now();
  const subject = executiveSubject(run);
  let sequences = 0;
  let actionsDriven = 0;
  const drive = async (actions: readonly ExecutiveAction[]) => {
    const answers = await driver.replayActions({ spec: run.spec, budget: run.budget }, actions);
    sequences += 1;
    actionsDriven += actions.length;
    return answers;
  };
  const seen = new Set<string>();
  const keyOf = (reached: Omit<Reached, "actions">) =>
    `${reached.restarted ? "restarted " : ""}${subject.key(reached.state)}`;
  const [initial] = subject.initialStates();
  let frontier: Reached[] = [
    { state: (initial as { state: ExploredExecutive }).state, actions: [], restarted: false },
  ];
  seen.add(keyOf(frontier[0] as Reached));
  const done = (divergence: ExecutiveDivergence | null): ExecutiveRefinement => ({
    sequences,
    actionsDriven,
    distinctStates: seen.size,
    seconds: (performance.now() - started) / 1000,
    divergence,
  });
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: Reached[] = [];
    for (const { state, actions, restarted } of frontier) {
      const steps = [...subject.successors(state)].map((step) => ({
        action: { observation: JSON.parse(step.action) } as ExecutiveAction,
        state: step.state,
        restarted: false,
      }));
      if (!restarted) steps.push({ action: RESTART, state, restarted: true });
      for (const step of steps) {
        const sequence = [...actions, step.action];
        const diverged = divergenceOf(run, sequence, await drive(sequence));
        if (diverged !== null) return done(await shrinkDivergence(run, diverged, drive));
        const key = keyOf(step);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push({ state: step.state, actions: sequence, restarted: step.restarted });
      }
    }
    frontier = next;
  }
  return done(null);
}

/** Where the host's answers to `actions` part from the machine, judged action by action. */
function divergenceOf(
  run: ExecutiveRun,
  actions: readonly ExecutiveAction[],
  answers: readonly DriverAnswer[],
): ExecutiveDivergence | null {
  let machine = readyState(run.spec, run.budget);
  const journal: unknown[] = [];
  for (const [i, action] of actions.entries()) {
    const got = answers[i] as DriverAnswer;
    const shown = { actions: actions.slice(0, i + 1), got };
    if ("restart" in action) {
      if ("journal" in got && got.journal.length === 0) continue;
      return { ...shown, expected: { journal: [] }, why: "a restart must journal nothing" };
    }
    const { decision, state } = stepBySemantics(machine, action.observation);
    machine = state;
    const line = { observation: action.observation, decision };
    const expected = { journal: [line] };
    if ("refused" in got) {
      return { ...shown, expected, why: `the machine decides; the host refused (${got.refused})` };
    }
    const parsed = parsedLines(got.journal);
    const same =
      parsed !== null &&
      parsed.length === 1 &&
      jsonEqual((parsed[0] as { decision?: unknown }).decision, line.decision) &&
      jsonEqual((parsed[0] as { observation?: unknown }).observation, line.observation);
    if (!same) {
      return { ...shown, expected, why: "the host journaled another decision than the machine's" };
    }
    journal.push(parsed[0]);
  }
  if (auditExecutive(run, journal).strictlyConformant) return null;
  return {
    actions,
    expected: { journal },
    got: answers.at(-1) as DriverAnswer,
    why: "the host's journal is not strictly conformant",
  };
}

function parsedLines(lines: readonly string[]): unknown[] | null {
  try {
    return lines.map((line) => JSON.parse(line) as unknown);
  } catch {
    return null;
  }
}

async function shrinkDivergence(
  run: ExecutiveRun,
  divergence: ExecutiveDivergence,
  drive: (actions: readonly ExecutiveAction[]) => Promise<DriverAnswer[]>,
): Promise<ExecutiveDivergence> {
  const divergenceAt = async (actions: readonly ExecutiveAction[]) => {
    const again = divergenceOf(run, actions, await drive(actions));
    return again !== null && again.actions.length === actions.length && again.why === divergence.why
      ? again
      : null;
  };
  const actions = await shrink(
    divergence.actions,
    async (candidate) => (await divergenceAt(candidate)) !== null,
  );
  return (await divergenceAt(actions)) ?? divergence;
}
