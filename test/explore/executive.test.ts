/**
 * Exploring the executive model (docs/explore.md, "The executive model"): counts on a tiny spec
 * against counts worked out by hand, nothing found at the default bound with both engines
 * agreeing, determinism, the decisions the exploration reaches, and the step invariants on
 * steps that break them.
 */
import { describe, expect, it } from "vitest";
import { loadEngine } from "../../bindings/index.js";
import { EXECUTIVE_DEFAULTS } from "../../src/explore/executive/defaults.js";
import { STEP_INVARIANTS } from "../../src/explore/executive/invariants.js";
import { executiveSubject, linesOf, runOf } from "../../src/explore/executive/subject.js";
import { explore } from "../../src/explore/explore.js";
import { referenceExecutive } from "../../src/models/executive/machine.js";
import type { ExecutiveState } from "../../src/models/executive/state.js";

const ONE_STEP = { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "model" }] } };
const BUDGET = {
  steps: 9,
  depth: 0,
  modelCalls: 3,
  toolCalls: 0,
  contextOps: 0,
  retries: 1,
  outputBytes: 10,
  deadline: 1000,
};

describe("explore on the executive model", () => {
  it("counts a one-step spec to depth 1 as worked out by hand", () => {
    // From the ready state, at the clock (0) and at the deadline (1000): start (an execute; at
    // 1000 a deadline failure), tick (refused: not started, the same state) and cancel (failed,
    // at 0 or at 1000); and a tick at 1, time passing (refused too): 7 transitions, 4 new states.
    const result = explore(executiveSubject(runOf(ONE_STEP, BUDGET)), 1);
    expect(result).toMatchObject({
      initialStates: 1,
      states: 8,
      distinctStates: 5,
      transitions: 7,
      depthReached: 1,
      findings: [],
    });
  });

  it("finds nothing at the default bound, both engines agreeing, reaching every decision", async () => {
    const wasm = await loadEngine({ model: "executive" });
    const run = runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget);
    // Every step's decision, rejects included (a reject keeps the state, so only a step shows it).
    const decisions = new Set<string>();
    const subject = executiveSubject(run, wasm);
    const result = explore(
      {
        ...subject,
        checkStep(before, after) {
          const { decision } = linesOf(after).at(-1) as { decision: Record<string, unknown> };
          const { tag, reason, budget, attempt } = decision;
          const retry = attempt === 2 ? "retry" : "";
          decisions.add([tag, reason, budget, retry].filter(Boolean).join(" "));
          return subject.checkStep(before, after);
        },
      },
      EXECUTIVE_DEFAULTS.depth,
    );
    expect(result.findings).toEqual([]);
    for (const reached of [
      "execute retry",
      "checkpoint",
      "wait",
      "complete",
      "fail cancelled",
      "fail deadline",
      "fail effect-failed",
      "fail budget-exhausted steps",
      "fail budget-exhausted retries",
      "fail budget-exhausted outputBytes",
      "reject stale-decision",
      "reject clock-regressed",
      "reject terminal",
    ]) {
      expect(decisions, reached).toContain(reached);
    }
    const again = explore(executiveSubject(run), EXECUTIVE_DEFAULTS.depth);
    expect({ ...again, seconds: 0 }).toEqual({ ...result, seconds: 0 });
  });

  it("holds every step to the machine's promises: a broken one shows", () => {
    const made = referenceExecutive.initialState(ONE_STEP, BUDGET);
    if (!("state" in made)) throw new Error("refused");
    const ready = made.state;
    const started = referenceExecutive.step(ready, { tag: "start", now: 5 }).state;
    const cancelled = referenceExecutive.step(started, { tag: "cancel", now: 5 });
    expect(
      STEP_INVARIANTS.rejectKeepsState?.(ready, { tag: "reject", reason: "not-started" }, started),
    ).toBe("not-started");
    expect(
      STEP_INVARIANTS.terminalAbsorbs?.(cancelled.state, { tag: "wait", seq: 1 }, cancelled.state),
    ).toBe("wait");
    expect(
      STEP_INVARIANTS.clockNeverGoesBack?.(
        started,
        { tag: "wait", seq: 1 },
        ready as ExecutiveState,
      ),
    ).toBe("null");
    expect(
      STEP_INVARIANTS.seqCounts?.(
        ready,
        { tag: "execute", seq: 1, path: ["a"], effect: "model", attempt: 1 },
        started,
      ),
    ).toBeNull();
    expect(STEP_INVARIANTS.seqCounts?.(ready, { tag: "complete", seq: 3 }, started)).toBe(
      "complete",
    );
  });
});
