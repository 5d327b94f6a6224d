/**
 * Properties of the executive machine over random runs (docs/models/executive.md): a random
 * spec and budget, driven by a host that mostly answers what the machine decided — results ok
 * or failed, retryable or not, checkpoints confirmed, ticks — and now and then sends something
 * stale, early, clock-regressed, malformed or a cancel. Checked at every step: determinism, the
 * budget rules (used within limits in every frame, an entered frame within what its parent had
 * left, counters that never go down), `restore(snapshot(s))` on another engine deciding as `s`
 * does, and terminal states rejecting everything. A vacuity
 * guard shows the runs reach sub-plans, retries, checkpoints, each way to end.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COUNTERS,
  createExecutive,
  type Decision,
  type ExecutiveState,
  referenceExecutive as machine,
} from "../../../src/models/executive/index.js";
import { observationFor, runArbitrary } from "../../support/executive-arbitraries.js";

class Reached {
  runs = 0;
  subPlans = 0;
  retries = 0;
  checkpoints = 0;
  completed = 0;
  deadlines = 0;
  cancels = 0;
  effectFailed = 0;
  readonly exhausted = new Set<string>();
}

function checkBudgets(state: ExecutiveState): void {
  for (const frame of state.frames) {
    for (const counter of COUNTERS)
      expect(frame.used[counter]).toBeLessThanOrEqual(frame.limits[counter]);
  }
  for (let level = 1; level < state.frames.size; level++) {
    const parent = state.frames.get(level - 1);
    const child = state.frames.get(level);
    if (parent === undefined || child === undefined) continue;
    for (const counter of COUNTERS) {
      expect(child.limits[counter]).toBeLessThanOrEqual(parent.limits[counter]);
      expect(child.used[counter]).toBeLessThanOrEqual(parent.used[counter]);
    }
    expect(child.limits.deadline).toBeLessThanOrEqual(parent.limits.deadline);
  }
}

describe("random runs of the executive machine", () => {
  it("are deterministic, keep every budget rule, restore from any snapshot, and never resurrect a finished run", () => {
    const reached = new Reached();
    const other = createExecutive();
    fc.assert(
      fc.property(runArbitrary, ({ spec, budget, moves }) => {
        const made = machine.initialState(spec, budget);
        if (!("state" in made)) return; // a sub-plan's budget may be refused; the run is then none
        reached.runs += 1;
        let state = made.state;
        let last: Decision | null = null;
        let now = 0;
        for (const move of moves) {
          now += move.advance;
          const observation = observationFor(move, last, now);
          const result = machine.step(state, observation);
          const again = machine.step(state, observation);
          expect(again.decision).toEqual(result.decision);
          expect(again.state).toEqual(result.state);
          // A state restored from its snapshot, on another engine, decides as the state does.
          const twin = other.restore(machine.snapshot(state));
          if (!("state" in twin)) throw new Error(`restore refused: ${twin.rejected}`);
          const twinResult = other.step(twin.state, observation);
          expect(twinResult.decision).toEqual(result.decision);
          expect(other.snapshot(twinResult.state)).toEqual(machine.snapshot(result.state));
          if (result.decision.tag === "reject") {
            expect(result.state).toBe(state);
            continue;
          }
          const root = result.state.frames.get(0);
          const rootBefore = state.frames.get(0);
          for (const counter of COUNTERS) {
            expect(root?.used[counter]).toBeGreaterThanOrEqual(rootBefore?.used[counter] ?? 0);
          }
          checkBudgets(result.state);
          const decision = result.decision;
          if (result.state.frames.size > 1) reached.subPlans += 1;
          if (decision.tag === "execute" && decision.attempt > 1) reached.retries += 1;
          if (decision.tag === "checkpoint") reached.checkpoints += 1;
          if (decision.tag === "complete") reached.completed += 1;
          if (decision.tag === "fail") {
            if (decision.reason === "deadline") reached.deadlines += 1;
            if (decision.reason === "cancelled") reached.cancels += 1;
            if (decision.reason === "effect-failed") reached.effectFailed += 1;
            if (decision.budget !== undefined) reached.exhausted.add(decision.budget);
          }
          if (decision.tag !== "wait") last = decision;
          state = result.state;
          if (machine.terminal(state) !== null) {
            for (const after of [
              { tag: "tick", now },
              { tag: "start", now },
              { tag: "cancel", now },
            ]) {
              const refused = machine.step(state, after);
              expect(refused.decision).toEqual({ tag: "reject", reason: "terminal" });
              expect(refused.state).toBe(state);
            }
            break;
          }
        }
      }),
      { numRuns: 1500 },
    );
    // The vacuity guard: these runs really reach every part of the machine.
    expect(reached.runs).toBeGreaterThan(1000);
    for (const count of [
      reached.subPlans,
      reached.retries,
      reached.checkpoints,
      reached.completed,
      reached.deadlines,
      reached.cancels,
      reached.effectFailed,
    ]) {
      expect(count).toBeGreaterThan(10);
    }
    expect([...reached.exhausted].sort()).toEqual(
      ["contextOps", "depth", "modelCalls", "outputBytes", "retries", "steps", "toolCalls"].sort(),
    );
  });
});
