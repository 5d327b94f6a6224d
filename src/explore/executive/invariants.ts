/**
 * What every step of the executive machine must keep (docs/explore.md, "The executive model"),
 * checked by explore on every step: docs/models/executive.md, "The step" and "Budgets" — a
 * reject changes nothing, a finished run stays finished, decisions are numbered one by one,
 * counters only grow and never pass their limits, a sub-plan never holds more than its parent,
 * the stack stays within its depth, and the clock never goes back. Each names what breaks it,
 * or is null.
 */
import type { Decision } from "../../models/executive/observation.js";
import { COUNTERS } from "../../models/executive/spec.js";
import type { ExecutiveState } from "../../models/executive/state.js";

type StepInvariant = (
  before: ExecutiveState,
  decision: Decision,
  after: ExecutiveState,
) => string | null;

const finished = (state: ExecutiveState) =>
  state.status === "completed" || state.status === "failed";

export const STEP_INVARIANTS: Readonly<Record<string, StepInvariant>> = {
  rejectKeepsState: (before, decision, after) =>
    decision.tag === "reject" && after !== before ? decision.reason : null,
  terminalAbsorbs: (before, decision) =>
    finished(before) && !(decision.tag === "reject" && decision.reason === "terminal")
      ? decision.tag
      : null,
  seqCounts: (before, decision, after) => {
    if (decision.tag === "reject" || decision.tag === "wait") {
      return after.seq === before.seq ? null : decision.tag;
    }
    return after.seq === before.seq + 1 && decision.seq === after.seq ? null : decision.tag;
  },
  countersOnlyGrow: (before, _, after) => {
    const was = before.frames.first()?.used;
    const now = after.frames.first()?.used;
    if (was === undefined || now === undefined) return null;
    return COUNTERS.find((counter) => now[counter] < was[counter]) ?? null;
  },
  withinLimits: (_, __, after) => {
    for (const frame of after.frames) {
      const over = COUNTERS.find((counter) => frame.used[counter] > frame.limits[counter]);
      if (over !== undefined) return `${frame.id ?? "root"}.${over}`;
    }
    return null;
  },
  budgetsOnlyNarrow: (_, __, after) => {
    const frames = [...after.frames];
    for (let i = 1; i < frames.length; i++) {
      const [parent, child] = [frames[i - 1], frames[i]];
      if (parent === undefined || child === undefined) continue;
      for (const field of [...COUNTERS, "deadline"] as const) {
        if (child.limits[field] > parent.limits[field]) return `${child.id}.${field}`;
      }
    }
    return null;
  },
  stackWithinDepth: (_, __, after) =>
    after.frames.size <= after.depth + 1 ? null : String(after.frames.size),
  clockNeverGoesBack: (before, _, after) =>
    before.now !== null && (after.now === null || after.now < before.now)
      ? String(after.now)
      : null,
};
