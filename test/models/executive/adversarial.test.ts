/**
 * The executive model's adversarial suite (docs/models/executive.md), each case a named test,
 * run against every executive engine statefold has: the reference machine and the kernel's, in
 * both builds.
 */
import { describe, expect, it } from "vitest";
import { loadExecutiveEngine } from "../../../bindings/executive/index.js";
import type { KernelFlavour } from "../../../bindings/kernel.js";
import { createExecutive, type ExecutiveMachine } from "../../../src/models/executive/index.js";
import { FLAVOURS } from "../../support/engines.js";

/** Two engines of a build, so that a snapshot can cross from one instance to another. */
async function kernelMachines(flavour: KernelFlavour): Promise<() => ExecutiveMachine<unknown>> {
  const pool = await Promise.all([1, 2].map(() => loadExecutiveEngine({ flavour })));
  let next = 0;
  return () => (pool[next++ % pool.length] as (typeof pool)[number]).machine;
}

const ENGINES: readonly [string, () => ExecutiveMachine<unknown>][] = [
  ["reference", createExecutive],
  ...(await Promise.all(
    FLAVOURS.map(
      async (flavour): Promise<[string, () => ExecutiveMachine<unknown>]> => [
        `kernel, ${flavour}`,
        await kernelMachines(flavour),
      ],
    ),
  )),
];

/** A state as its snapshot's body says (states are opaque to callers). */
function bodyOf(machine: ExecutiveMachine<unknown>, state: unknown) {
  const text = new TextDecoder().decode(machine.snapshot(state));
  return JSON.parse(text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1));
}

const BUDGET = {
  steps: 1000,
  depth: 3,
  modelCalls: 100,
  toolCalls: 100,
  contextOps: 100,
  retries: 100,
  outputBytes: 1e9,
  deadline: 1e12,
};
const effect = (id: string, deps: string[] = []) => ({ id, deps, effect: "tool" });

for (const [name, make] of ENGINES) {
  describe(`the adversarial suite (${name})`, () => {
    const machine = make();
    const begin = (steps: unknown[], budget: Record<string, unknown> = BUDGET) => {
      const made = machine.initialState({ task: "t", plan: { steps } }, budget);
      if (!("state" in made)) throw new Error(JSON.stringify(made));
      return machine.step(made.state, { tag: "start", now: 0 });
    };

    it("an illegal transition: a result for a step not outstanding is stale", () => {
      const { state } = begin([effect("a"), effect("b")]);
      for (const seq of [0, 2, -1, 2 ** 53 - 1]) {
        const result = machine.step(state, { tag: "result", seq, outcome: "ok", bytes: 0, now: 1 });
        expect(result.decision).toEqual({ tag: "reject", reason: "stale-decision" });
        expect(result.state).toBe(state);
      }
    });

    it("terminal-state resurrection: every tag after complete and after fail is rejected", () => {
      const done = machine.step(begin([effect("a")]).state, {
        tag: "result",
        seq: 1,
        outcome: "ok",
        bytes: 0,
        now: 1,
      }).state;
      const failed = machine.step(begin([effect("a")]).state, { tag: "cancel", now: 1 }).state;
      const every = [
        { tag: "start", now: 5 },
        { tag: "result", seq: 1, outcome: "ok", bytes: 0, now: 5 },
        { tag: "checkpointed", seq: 1, now: 5 },
        { tag: "tick", now: 5 },
        { tag: "cancel", now: 5 },
      ];
      for (const terminal of [done, failed]) {
        for (const observation of every) {
          expect(machine.step(terminal, observation)).toEqual({
            decision: { tag: "reject", reason: "terminal" },
            state: terminal,
          });
        }
      }
    });

    it("budgets negative, NaN, ±Infinity, fractional and past the bound are refused; zero runs out at once", () => {
      for (const value of [
        -1,
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        0.5,
        2 ** 52 + 2,
      ]) {
        expect(
          machine.initialState({ task: "t", plan: { steps: [] } }, { ...BUDGET, toolCalls: value }),
        ).toEqual({
          rejected: "invalid-budget",
          path: ["budget", "toolCalls"],
        });
      }
      expect(begin([effect("a")], { ...BUDGET, toolCalls: 0 }).decision).toEqual({
        tag: "fail",
        seq: 1,
        reason: "budget-exhausted",
        budget: "toolCalls",
      });
    });

    it("a retry never resets a budget: after ten retries the counters are ten charges", () => {
      let { state } = begin([effect("a")]);
      for (let retry = 1; retry <= 10; retry++) {
        ({ state } = machine.step(state, {
          tag: "result",
          seq: retry,
          outcome: "error",
          retryable: true,
          bytes: 7,
          now: retry,
        }));
      }
      expect(bodyOf(machine, state).frames[0].used).toEqual({
        steps: 11,
        modelCalls: 0,
        toolCalls: 11,
        contextOps: 0,
        retries: 10,
        outputBytes: 70,
      });
    });

    it("a sub-plan chain deeper than depth fails; one deeper than the nesting bound is refused", () => {
      const chain = (levels: number): unknown =>
        levels === 0
          ? effect("leaf")
          : { id: `p${levels}`, deps: [], plan: { steps: [chain(levels - 1)] } };
      expect(begin([chain(3)]).decision).toMatchObject({
        tag: "execute",
        path: ["p3", "p2", "p1", "leaf"],
      });
      expect(begin([chain(4)]).decision).toEqual({
        tag: "fail",
        seq: 1,
        reason: "budget-exhausted",
        budget: "depth",
      });
      expect(
        machine.initialState({ task: "t", plan: { steps: [chain(64)] } }, BUDGET),
      ).toMatchObject({
        rejected: "invalid-spec",
      });
    });

    it("a cyclic object graph as spec is refused; cyclic-looking ids are only ids", () => {
      const plan: { steps: unknown[] } = { steps: [] };
      plan.steps.push({ id: "loop", deps: [], plan });
      expect(machine.initialState({ task: "t", plan }, BUDGET)).toMatchObject({
        rejected: "invalid-spec",
      });
      expect(
        machine.initialState({ task: "t", plan: { steps: [effect("a", ["a"])] } }, BUDGET),
      ).toEqual({
        rejected: "cycle",
        path: ["plan", "steps"],
      });
      const { decision } = begin([effect("plan.steps[0]"), effect("../a/b", ["plan.steps[0]"])]);
      expect(decision).toMatchObject({ tag: "execute", path: ["plan.steps[0]"] });
    });

    it("malformed observations: every field missing, mistyped or extra, an accessor, a throwing Proxy", () => {
      const { state } = begin([effect("a")]);
      const good = { tag: "result", seq: 1, outcome: "ok", bytes: 0, now: 1 };
      const cases: unknown[] = [];
      for (const key of Object.keys(good)) {
        const { [key]: _, ...missing } = good as Record<string, unknown>;
        cases.push(missing, { ...good, [key]: [] }, { ...good, [key]: "1" });
      }
      cases.push({ ...good, extra: 1 }, { ...good, retryable: 1 }, { ...good, detail: 5 });
      cases.push(Object.defineProperty({ ...good }, "now", { get: () => 1, enumerable: true }));
      cases.push(
        new Proxy(good, {
          getOwnPropertyDescriptor: () => {
            throw new Error("trap");
          },
        }),
      );
      for (const observation of cases) {
        const result = machine.step(state, observation);
        expect(result.decision.tag).toBe("reject");
        expect(["malformed-observation", "unknown-tag"]).toContain(
          (result.decision as { reason: string }).reason,
        );
        expect(result.state).toBe(state);
      }
    });

    it("unknown tags are rejected as such", () => {
      const { state } = begin([effect("a")]);
      for (const tag of ["resume", "START", "", "result "]) {
        expect(machine.step(state, { tag, now: 1 }).decision).toEqual({
          tag: "reject",
          reason: "unknown-tag",
        });
      }
    });

    it("snapshots tampered: a flipped byte, an impossible body, a missing key, a bumped version, a truncation", () => {
      const { state } = begin([effect("a")]);
      const bytes = machine.snapshot(state);
      const flipped = bytes.slice();
      flipped[bytes.length - 3] = (flipped[bytes.length - 3] as number) ^ 1;
      expect(machine.restore(flipped)).toEqual({ rejected: "checksum-mismatch" });
      expect(machine.restore(machine.snapshot(state, "key"))).toEqual({
        rejected: "checksum-mismatch",
      });
      const text = new TextDecoder().decode(bytes);
      expect(
        machine.restore(new TextEncoder().encode(text.replace("executive 1", "executive 2"))),
      ).toEqual({
        rejected: "version-mismatch",
      });
      expect(machine.restore(bytes.subarray(0, bytes.length - 10))).toEqual({
        rejected: "checksum-mismatch",
      });
      const other = make();
      expect("state" in other.restore(bytes)).toBe(true);
    });

    it("the replay of an already-consumed decision is stale", () => {
      let { state } = begin([effect("a"), effect("b")]);
      const answer = { tag: "result", seq: 1, outcome: "ok", bytes: 0, now: 1 };
      ({ state } = machine.step(state, answer));
      expect(machine.step(state, answer).decision).toEqual({
        tag: "reject",
        reason: "stale-decision",
      });
    });

    it("huge values: a 10 MB detail, a 10^6-step spec, ids at and past their bound", () => {
      const { state } = begin([effect("a")]);
      const detail = "x".repeat(10 * 2 ** 20);
      expect(
        machine.step(state, { tag: "result", seq: 1, outcome: "ok", bytes: 0, detail, now: 1 })
          .decision,
      ).toEqual({
        tag: "reject",
        reason: "oversized",
      });
      const steps = Array.from({ length: 1_000_000 }, (_, i) => effect(`s${i}`));
      expect(machine.initialState({ task: "t", plan: { steps } }, BUDGET)).toEqual({
        rejected: "invalid-spec",
        path: ["plan", "steps", 100_000],
      });
      expect(
        "state" in
          machine.initialState({ task: "t", plan: { steps: [effect("é".repeat(512))] } }, BUDGET),
      ).toBe(true);
      expect(
        machine.initialState(
          { task: "t", plan: { steps: [effect(`${"é".repeat(512)}x`)] } },
          BUDGET,
        ),
      ).toEqual({
        rejected: "invalid-spec",
        path: ["plan", "steps", 0, "id"],
      });
    });

    it("model-shaped text in task, ids and details stays data through step, snapshot and restore", () => {
      const code = [
        "process.exit(1)",
        "'; DROP TABLE steps; --",
        ":- halt.",
        "__proto__",
        "constructor",
      ];
      for (const text of code) {
        const made = machine.initialState({ task: text, plan: { steps: [effect(text)] } }, BUDGET);
        if (!("state" in made)) throw new Error("refused");
        let { state, decision } = machine.step(made.state, { tag: "start", now: 0 });
        expect(decision).toMatchObject({ path: [text] });
        ({ state } = machine.step(state, {
          tag: "result",
          seq: 1,
          outcome: "ok",
          bytes: 0,
          detail: text,
          now: 1,
        }));
        const restored = machine.restore(machine.snapshot(state));
        if (!("state" in restored)) throw new Error("refused");
        expect(bodyOf(machine, restored.state)).toMatchObject({
          lastDetail: text,
          spec: { task: text },
        });
      }
    });
  });
}
