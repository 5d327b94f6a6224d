/**
 * An `executive` journal's view in the HTML report: its report, and for each listed mismatch the
 * frame stack the machine held once it had decided — each frame's sub-plan and its budgets, used
 * against limit — found by replaying the journal's observations up to the last listed mismatch.
 */
import type { ExecutiveReport, ExecutiveRun } from "../../models/executive/audit.js";
import { referenceExecutive } from "../../models/executive/machine.js";
import type { ExecutiveState, Limits, Used } from "../../models/executive/state.js";
import type { JournalView } from "../views.js";

/** One frame of the stack: the sub-plan step it runs (null for the root plan) and its budgets. */
export interface FrameBudgets {
  readonly id: string | null;
  readonly limits: Limits;
  readonly used: Used;
}

export type ExecutiveJournalView = JournalView<ExecutiveReport, ExecutiveContext>;

export interface ExecutiveContext {
  readonly gathered: true;
  /** Per listed mismatch, in the report's order: the frames, root first. */
  readonly frames: readonly (readonly FrameBudgets[])[];
}

/** The view of an audited executive journal, from its run and its entries (as read again). */
export function buildExecutiveView(
  audited: { readonly file: string; readonly report: ExecutiveReport },
  run: ExecutiveRun,
  entries: readonly unknown[],
): ExecutiveJournalView {
  const listed = audited.report.legality.first;
  const wanted = new Map(listed.map((entry, i) => [entry.index, i]));
  const frames: FrameBudgets[][] = listed.map(() => []);
  const made = referenceExecutive.initialState(run.spec, run.budget);
  if (!("state" in made)) throw new Error("statefold: the run's spec and budget were not checked");
  let state: ExecutiveState = made.state;
  const last = listed.at(-1)?.index ?? -1;
  for (let index = 0; index <= last; index++) {
    state = referenceExecutive.step(
      state,
      (entries[index] as { observation: unknown }).observation,
    ).state;
    const at = wanted.get(index);
    if (at !== undefined) frames[at] = framesOf(state);
  }
  return { ...audited, context: { gathered: true, frames } };
}

function framesOf(state: ExecutiveState): FrameBudgets[] {
  return state.frames.toArray().map(({ id, limits, used }) => ({ id, limits, used }));
}
