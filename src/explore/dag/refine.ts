/**
 * The refinement check of a real dag runtime against the model (docs/explore.md,
 * "Refinement"): for every explored state, reached by its shortest action sequence, and every
 * action there — the ones the model rejects included — the runtime is reset to the state's DAG,
 * driven through the sequence and then the action, and must journal exactly the event the model
 * logs (compared as the model compares events: extra fields such as timestamps do not matter,
 * and a surface is a set), or refuse exactly where the model rejects, with the same reason; and
 * what it journals must be strictly conformant. The first divergence is shrunk — actions removed
 * while the runtime still diverges the same way at the last of them — and returned as the
 * counterexample.
 */
import { audit } from "../../models/dag/audit.js";
import type { Dag } from "../../models/dag/dag.js";
import type { KnownEvent } from "../../models/dag/events.js";
import { initialState, type ModelState, surfacePaths } from "../../models/dag/state.js";
import type { Driver, DriverAnswer } from "../driver.js";
import { shrink } from "../shrink.js";
import {
  actionOf,
  applyCall,
  callsOf,
  type DagConfiguration,
  dagsOf,
  keyOf,
  shapeOf,
} from "./subject.js";

type Action = ReturnType<typeof actionOf>;

export interface Divergence {
  readonly dag: string;
  /** The actions that show it, the last one diverging. */
  readonly actions: readonly Action[];
  /** What the model does with the last action: the event it logs, or its rejection. */
  readonly expected: { readonly journal: readonly unknown[] } | { readonly refused: string };
  readonly got: DriverAnswer;
  readonly why: string;
}

export interface Refinement {
  /** Action sequences driven (one per state and action there). */
  readonly sequences: number;
  readonly actionsDriven: number;
  readonly divergence: Divergence | null;
}

interface Reached {
  readonly state: ModelState;
  readonly actions: readonly Action[];
}

export async function refine(
  configuration: DagConfiguration,
  depth: number,
  driver: Driver,
): Promise<Refinement> {
  const calls = callsOf(configuration.paths);
  let sequences = 0;
  let actionsDriven = 0;
  const drive = async (dag: Dag, actions: readonly Action[]) => {
    const answers = await driver.replayActions({ nodes: dag.nodes }, actions);
    actionsDriven += actions.length;
    return answers;
  };
  for (const dag of dagsOf(configuration)) {
    const seen = new Set<string>();
    let frontier: Reached[] = [{ state: initialState(dag), actions: [] }];
    seen.add(keyOf(frontier[0]?.state as ModelState));
    for (let level = 0; level < depth && frontier.length > 0; level++) {
      const next: Reached[] = [];
      for (const { state, actions } of frontier) {
        for (const node of dag.nodes) {
          for (const call of calls) {
            const action = actionOf(call, node.id);
            const sequence = [...actions, action];
            sequences += 1;
            const answers = await drive(dag, sequence);
            const diverged = divergenceOf(dag, sequence, answers);
            if (diverged !== null) {
              return {
                sequences,
                actionsDriven,
                divergence: await shrinkDivergence(dag, diverged, drive),
              };
            }
            const result = applyCall(state, call, node.id);
            if (result.outcome !== "ok") continue;
            const key = keyOf(result.state);
            if (seen.has(key)) continue;
            seen.add(key);
            next.push({ state: result.state, actions: sequence });
          }
        }
      }
      frontier = next;
    }
  }
  return { sequences, actionsDriven, divergence: null };
}

/** Where the runtime's answers to `actions` part from the model, judged action by action. */
function divergenceOf(
  dag: Dag,
  actions: readonly Action[],
  answers: readonly DriverAnswer[],
): Divergence | null {
  let state = initialState(dag);
  const journal: unknown[] = [];
  for (const [i, action] of actions.entries()) {
    const got = answers[i] as DriverAnswer;
    const result = applyCall(state, action, action.id);
    const shown = { dag: shapeOf(dag), actions: actions.slice(0, i + 1), got };
    if (result.outcome !== "ok") {
      const refused = result.outcome.rejected;
      if ("refused" in got && got.refused === refused) continue;
      return {
        ...shown,
        expected: { refused },
        why: `the model rejects it (${refused}); the runtime ${"refused" in got ? `refused it as ${got.refused}` : "performed it"}`,
      };
    }
    const event = result.state.log?.event as KnownEvent;
    state = result.state;
    const expected = { journal: [event] };
    if ("refused" in got) {
      return {
        ...shown,
        expected,
        why: `the model performs it; the runtime refused it (${got.refused})`,
      };
    }
    const parsed = parsedLines(got.journal);
    if (parsed === null || parsed.length !== 1 || !sameEvent(parsed[0], event)) {
      return { ...shown, expected, why: "the runtime journaled other events than the model logs" };
    }
    journal.push(parsed[0]);
  }
  const report = audit(dag, journal);
  if (!report.strictlyConformant) {
    return {
      dag: shapeOf(dag),
      actions,
      expected: { journal },
      got: answers.at(-1) as DriverAnswer,
      why: "the runtime's journal is not strictly conformant",
    };
  }
  return null;
}

function parsedLines(lines: readonly string[]): unknown[] | null {
  try {
    return lines.map((line) => JSON.parse(line) as unknown);
  } catch {
    return null;
  }
}

/** Equal as the model compares events: kind, node, result, and the surface as a set. */
function sameEvent(line: unknown, event: KnownEvent): boolean {
  if (typeof line !== "object" || line === null) return false;
  const got = line as Record<string, unknown>;
  if (got.kind !== event.kind || got.id !== event.id) return false;
  if (event.kind === "gate-checked" || event.kind === "discharged")
    return got.result === event.result;
  if (event.kind !== "surface-widened") return true;
  const want = new Set(surfacePaths(event.surface));
  const have = Array.isArray(got.surface) ? new Set(got.surface) : null;
  return have !== null && have.size === want.size && [...want].every((path) => have.has(path));
}

/**
 * The divergence shrunk: actions removed while the runtime still diverges the same way at the
 * last of them, so no single action can be removed without losing it.
 */
async function shrinkDivergence(
  dag: Dag,
  divergence: Divergence,
  drive: (dag: Dag, actions: readonly Action[]) => Promise<DriverAnswer[]>,
): Promise<Divergence> {
  const divergenceAt = async (actions: readonly Action[]) => {
    const again = divergenceOf(dag, actions, await drive(dag, actions));
    return again !== null && again.actions.length === actions.length && again.why === divergence.why
      ? again
      : null;
  };
  const actions = await shrink(
    divergence.actions,
    async (actions) => (await divergenceAt(actions)) !== null,
  );
  return (await divergenceAt(actions)) ?? divergence;
}
