/**
 * The executive machine's step (docs/models/executive.md, "The step"): runs through plans and
 * sub-plans, budgets charged in every frame and never reset, retries, checkpoints, deadlines,
 * cancels, and every refusal — each `reject` giving back the very state it was given.
 */
import { describe, expect, it } from "vitest";
import {
  createExecutive,
  type ExecutiveState,
  referenceExecutive as machine,
} from "../../../src/models/executive/index.js";

const BUDGET = {
  steps: 100,
  depth: 3,
  modelCalls: 10,
  toolCalls: 10,
  contextOps: 10,
  retries: 20,
  outputBytes: 10_000,
  deadline: 1_000_000,
};

const effect = (id: string, deps: string[] = [], kind = "tool") => ({ id, deps, effect: kind });

function started(steps: unknown[], budget: Record<string, number> = BUDGET, extra = {}) {
  const initial = machine.initialState({ task: "t", plan: { steps }, ...extra }, budget);
  if (!("state" in initial)) throw new Error(`rejected: ${JSON.stringify(initial)}`);
  return machine.step(initial.state, { tag: "start", now: 0 });
}

const ok = (seq: number, now = 1, bytes = 10) => ({
  tag: "result",
  seq,
  outcome: "ok",
  bytes,
  now,
});

describe("step", () => {
  it("runs the least ready step by code point, and completes once the root's steps are done", () => {
    // "\u{1F600}" is above "\uE000" by code point, though below it by UTF-16 unit.
    let { decision, state } = started([
      effect("\u{1F600}"),
      effect("\uE000"),
      effect("b", ["\uE000"], "model"),
    ]);
    expect(decision).toEqual({
      tag: "execute",
      seq: 1,
      path: ["\uE000"],
      effect: "tool",
      attempt: 1,
    });
    ({ decision, state } = machine.step(state, ok(1)));
    expect(decision).toEqual({ tag: "execute", seq: 2, path: ["b"], effect: "model", attempt: 1 });
    ({ decision, state } = machine.step(state, ok(2)));
    expect(decision).toEqual({
      tag: "execute",
      seq: 3,
      path: ["\u{1F600}"],
      effect: "tool",
      attempt: 1,
    });
    ({ decision, state } = machine.step(state, ok(3, 5)));
    expect(decision).toEqual({ tag: "complete", seq: 4 });
    expect(machine.terminal(state)).toEqual({ outcome: "completed" });
    const s = state as ExecutiveState;
    expect(s.frames.size).toBe(1);
    expect(s.frames.get(0)?.used).toEqual({
      steps: 4,
      modelCalls: 1,
      toolCalls: 2,
      contextOps: 0,
      retries: 0,
      outputBytes: 30,
    });
    expect(s.now).toBe(5);
  });

  it("enters a sub-plan with limits no larger than its parent has left, and charges every frame", () => {
    const sub = {
      id: "s",
      deps: [],
      plan: { steps: [effect("x", [], "context")] },
      budget: { steps: 50, contextOps: 1, deadline: 2_000_000 },
    };
    let { decision, state } = started([sub]);
    expect(decision).toEqual({
      tag: "execute",
      seq: 1,
      path: ["s", "x"],
      effect: "context",
      attempt: 1,
    });
    const frames = (state as ExecutiveState).frames;
    expect(frames.size).toBe(2);
    expect(frames.get(1)?.limits).toEqual({
      steps: 50,
      modelCalls: 10,
      toolCalls: 10,
      contextOps: 1,
      retries: 20,
      outputBytes: 10_000,
      deadline: 1_000_000,
    });
    expect(frames.get(0)?.used.contextOps).toBe(1);
    expect(frames.get(1)?.used.contextOps).toBe(1);
    ({ decision, state } = machine.step(state, ok(1)));
    expect(decision).toEqual({ tag: "complete", seq: 2 });
    expect((state as ExecutiveState).frames.get(0)?.done.toArray()).toEqual(["s"]);
  });

  it("retries on a retryable error with the attempt counted up and the retries never reset", () => {
    let { decision, state } = started([effect("a")], { ...BUDGET, toolCalls: 11 });
    for (let retry = 1; retry <= 10; retry++) {
      ({ decision, state } = machine.step(state, {
        tag: "result",
        seq: retry,
        outcome: "error",
        retryable: true,
        bytes: 0,
        now: retry,
      }));
      expect(decision).toEqual({
        tag: "execute",
        seq: retry + 1,
        path: ["a"],
        effect: "tool",
        attempt: retry + 1,
      });
    }
    expect((state as ExecutiveState).frames.get(0)?.used.retries).toBe(10);
    expect((state as ExecutiveState).frames.get(0)?.used.toolCalls).toBe(11);
    ({ decision } = machine.step(state, {
      tag: "result",
      seq: 11,
      outcome: "error",
      bytes: 0,
      now: 20,
    }));
    expect(decision).toEqual({ tag: "fail", seq: 12, reason: "effect-failed" });
  });

  it("fails when a budget runs out, naming it: zero is a budget that runs out at its first use", () => {
    expect(started([effect("a")], { ...BUDGET, toolCalls: 0 }).decision).toEqual({
      tag: "fail",
      seq: 1,
      reason: "budget-exhausted",
      budget: "toolCalls",
    });
    expect(started([effect("a")], { ...BUDGET, steps: 0 }).decision).toEqual({
      tag: "fail",
      seq: 1,
      reason: "budget-exhausted",
      budget: "steps",
    });
    const chain = {
      id: "1",
      deps: [],
      plan: { steps: [{ id: "2", deps: [], plan: { steps: [effect("x")] } }] },
    };
    expect(started([chain], { ...BUDGET, depth: 1 }).decision).toEqual({
      tag: "fail",
      seq: 1,
      reason: "budget-exhausted",
      budget: "depth",
    });
    expect(started([chain], { ...BUDGET, depth: 2 }).decision).toMatchObject({ tag: "execute" });
    const { state } = started([effect("a")], { ...BUDGET, outputBytes: 5 });
    expect(machine.step(state, ok(1, 1, 6)).decision).toEqual({
      tag: "fail",
      seq: 2,
      reason: "budget-exhausted",
      budget: "outputBytes",
    });
  });

  it("checkpoints every n effect steps, and never after the last", () => {
    let { decision, state } = started([effect("a"), effect("b"), effect("c")], BUDGET, {
      checkpointEvery: 1,
    });
    ({ decision, state } = machine.step(state, ok(1)));
    expect(decision).toEqual({ tag: "checkpoint", seq: 2 });
    expect(machine.step(state, { tag: "checkpointed", seq: 1, now: 2 }).decision).toEqual({
      tag: "reject",
      reason: "stale-decision",
    });
    ({ decision, state } = machine.step(state, { tag: "checkpointed", seq: 2, now: 2 }));
    expect(decision).toMatchObject({ tag: "execute", seq: 3, path: ["b"] });
    ({ decision, state } = machine.step(state, ok(3, 3)));
    ({ decision, state } = machine.step(state, { tag: "checkpointed", seq: 4, now: 4 }));
    ({ decision, state } = machine.step(state, ok(5, 5)));
    expect(decision).toEqual({ tag: "complete", seq: 6 });
  });

  it("fails at the deadline, and waits on a tick", () => {
    const { state } = started([effect("a")], { ...BUDGET, deadline: 100 });
    expect(machine.step(state, { tag: "tick", now: 50 }).decision).toEqual({ tag: "wait", seq: 1 });
    expect(machine.step(state, { tag: "tick", now: 100 }).decision).toEqual({
      tag: "fail",
      seq: 2,
      reason: "deadline",
    });
    expect(started([effect("a")], { ...BUDGET, deadline: 0 }).decision).toEqual({
      tag: "fail",
      seq: 1,
      reason: "deadline",
    });
  });

  it("fails on a cancel whatever the state, keeping the clock from going back", () => {
    const { state } = started([effect("a")]);
    const moved = machine.step(state, { tag: "tick", now: 40 }).state;
    const cancelled = machine.step(moved, { tag: "cancel", now: 10 });
    expect(cancelled.decision).toEqual({ tag: "fail", seq: 2, reason: "cancelled" });
    expect((cancelled.state as ExecutiveState).now).toBe(40);
    const ready = machine.initialState({ task: "t", plan: { steps: [] } }, BUDGET);
    const readyState = (ready as { state: ExecutiveState }).state;
    expect(machine.step(readyState, { tag: "cancel", now: 3 }).decision).toEqual({
      tag: "fail",
      seq: 1,
      reason: "cancelled",
    });
  });

  it("refuses what the state does not admit, giving back the very state", () => {
    const ready = (
      machine.initialState({ task: "t", plan: { steps: [effect("a")] } }, BUDGET) as {
        state: ExecutiveState;
      }
    ).state;
    const { state } = machine.step(ready, { tag: "start", now: 10 });
    const cases: [unknown, unknown, string][] = [
      [ready, { tag: "tick", now: 1 }, "not-started"],
      [ready, ok(1), "not-started"],
      [state, { tag: "start", now: 11 }, "already-started"],
      [state, ok(2, 11), "stale-decision"],
      [state, ok(1, 9), "clock-regressed"],
      [state, { tag: "tick", now: 9 }, "clock-regressed"],
    ];
    for (const [given, observation, reason] of cases) {
      const result = machine.step(given, observation);
      expect(result.decision).toEqual({ tag: "reject", reason });
      expect(result.state).toBe(given);
    }
  });

  it("rejects everything after a terminal decision: no resurrection", () => {
    const done = machine.step(started([effect("a")]).state, ok(1)).state;
    expect(machine.terminal(done)).toEqual({ outcome: "completed" });
    const failed = machine.step(started([effect("a")]).state, { tag: "cancel", now: 1 }).state;
    expect(machine.terminal(failed)).toEqual({ outcome: "failed", reason: "cancelled" });
    const observations = [
      { tag: "start", now: 2 },
      ok(1, 2),
      { tag: "checkpointed", seq: 1, now: 2 },
      { tag: "tick", now: 2 },
      { tag: "cancel", now: 2 },
      { tag: "nonsense" },
      null,
    ];
    for (const terminal of [done, failed]) {
      for (const observation of observations) {
        const result = machine.step(terminal, observation);
        expect(result.decision).toEqual({ tag: "reject", reason: "terminal" });
        expect(result.state).toBe(terminal);
      }
    }
  });

  it("reads an observation once as plain data: malformed, unknown or oversized ones are rejected", () => {
    const { state } = started([effect("a")]);
    let calls = 0;
    const getter = {
      tag: "tick",
      get now() {
        calls += 1;
        return 5;
      },
    };
    const throwing = new Proxy(
      { tag: "tick", now: 5 },
      {
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    const cases: [unknown, string][] = [
      [null, "malformed-observation"],
      [[], "malformed-observation"],
      ["tick", "malformed-observation"],
      [new Number(1), "malformed-observation"],
      [() => 1, "malformed-observation"],
      [{ now: 5 }, "malformed-observation"],
      [{ tag: 7, now: 5 }, "malformed-observation"],
      [{ tag: "launch", now: 5 }, "unknown-tag"],
      [{ tag: "tick" }, "malformed-observation"],
      [{ tag: "tick", now: -1 }, "malformed-observation"],
      [{ tag: "tick", now: 1.5 }, "malformed-observation"],
      [{ tag: "tick", now: 5, extra: 1 }, "malformed-observation"],
      [{ tag: "tick", now: 5, [Symbol("s")]: 1 }, "malformed-observation"],
      [{ ...ok(1, 5), retryable: "yes" }, "malformed-observation"],
      [{ ...ok(1, 5), outcome: "maybe" }, "malformed-observation"],
      [{ ...ok(1, 5), detail: "x".repeat(4097) }, "oversized"],
      [getter, "malformed-observation"],
      [throwing, "malformed-observation"],
      [
        {
          tag: "launch",
          get now() {
            return 1;
          },
        },
        "malformed-observation",
      ],
    ];
    for (const [observation, reason] of cases) {
      const result = machine.step(state, observation);
      expect(result.decision, String(reason)).toEqual({ tag: "reject", reason });
      expect(result.state).toBe(state);
    }
    expect(calls).toBe(0);
    expect(machine.step(state, { ...ok(1, 5), detail: "x".repeat(4096) }).decision).toEqual({
      tag: "complete",
      seq: 2,
    });
  });

  it("knows only its own states", () => {
    const other = createExecutive();
    const { state } = started([effect("a")]);
    const foreign = [state, { ...state }, null, 1, "state"];
    for (const value of foreign) {
      const result = other.step(value, { tag: "tick", now: 1 });
      expect(result.decision).toEqual({ tag: "reject", reason: "invalid-state" });
      expect(result.state).toBe(value);
      expect(() => other.terminal(value)).toThrow(TypeError);
    }
  });

  it("is deterministic: the same state and observation give the same decision and an equal state", () => {
    const { state } = started([effect("a"), effect("b", ["a"])]);
    const first = machine.step(state, ok(1, 3));
    const second = machine.step(state, ok(1, 3));
    expect(second.decision).toEqual(first.decision);
    expect(second.state).toEqual(first.state);
    expect(second.state).not.toBe(first.state);
  });
});
