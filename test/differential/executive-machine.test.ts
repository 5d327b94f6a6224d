/**
 * The executive machine on the kernel against the reference (docs/models/executive.md, "The
 * API"), both builds: random specs, budgets and hosts (mostly sensible; stale, clock-regressed,
 * malformed and after-terminal observations among them) give the same decision at every step,
 * the same snapshot bytes of every state, and each engine restores the other's snapshots and
 * goes on as the original does. Old states stay usable: stepping one again, out of order, gives
 * what it gave the first time.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadExecutiveEngine, type WasmExecutiveEngine } from "../../bindings/executive/index.js";
import { loadEngine } from "../../bindings/index.js";
import { type Decision, referenceExecutive } from "../../src/models/executive/index.js";
import { FLAVOURS } from "../support/engines.js";
import { observationFor, runArbitrary } from "../support/executive-arbitraries.js";

const engines: WasmExecutiveEngine[] = [];
beforeAll(async () => {
  for (const flavour of FLAVOURS) engines.push(await loadExecutiveEngine({ flavour }));
});

describe.each(FLAVOURS.map((flavour, i) => [flavour, i] as const))(
  "the executive kernel (%s build)",
  (_flavour, which) => {
    it("decides as the reference at every step of random runs, snapshots the same bytes and restores across engines", () => {
      const { machine } = engines[which] as WasmExecutiveEngine;
      let steps = 0;
      fc.assert(
        fc.property(runArbitrary, ({ spec, budget, moves }) => {
          const made = referenceExecutive.initialState(spec, budget);
          const kernelMade = machine.initialState(spec, budget);
          if (!("state" in made)) {
            expect(kernelMade).toEqual(made);
            return;
          }
          if (!("state" in kernelMade))
            throw new Error("the kernel refused a spec the reference took");
          let reference = made.state;
          let kernel = kernelMade.state;
          const history: { state: typeof kernel; observation: unknown; decision: Decision }[] = [];
          let last: Decision | null = null;
          let now = 0;
          for (const move of moves) {
            now += move.advance;
            const observation = observationFor(move, last, now);
            const expected = referenceExecutive.step(reference, observation);
            const got = machine.step(kernel, observation);
            steps += 1;
            expect(got.decision).toEqual(expected.decision);
            expect(machine.terminal(got.state)).toEqual(
              referenceExecutive.terminal(expected.state),
            );
            expect(machine.snapshot(got.state)).toEqual(
              referenceExecutive.snapshot(expected.state),
            );
            if (expected.decision.tag === "reject") expect(got.state).toBe(kernel);
            history.push({ state: kernel, observation, decision: got.decision });
            if (got.decision.tag !== "wait") last = got.decision;
            reference = expected.state;
            kernel = got.state;
          }
          // Old states, stepped again out of order, decide as they did.
          for (const { state, observation, decision } of [...history].reverse()) {
            expect(machine.step(state, observation).decision).toEqual(decision);
          }
          // Each engine restores the other's snapshot and goes on alike.
          const fromReference = machine.restore(referenceExecutive.snapshot(reference, "k"), "k");
          const fromKernel = referenceExecutive.restore(machine.snapshot(kernel, "k"), "k");
          if (!("state" in fromReference) || !("state" in fromKernel)) throw new Error("refused");
          const tick = { tag: "tick", now };
          expect(machine.step(fromReference.state, tick).decision).toEqual(
            referenceExecutive.step(fromKernel.state, tick).decision,
          );
          expect(machine.snapshot(fromReference.state)).toEqual(
            referenceExecutive.snapshot(reference),
          );
        }),
        { numRuns: 250 },
      );
      expect(steps).toBeGreaterThan(600); // the vacuity guard: most runs get past their spec and step on
    });
  },
);

describe("one kernel for the machine and the audits", () => {
  it("keeps the machine's states across journal audits of other specs", async () => {
    const engine = await loadExecutiveEngine();
    const { machine } = engine;
    const made = machine.initialState(
      { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "tool" }] } },
      {
        steps: 9,
        depth: 1,
        modelCalls: 9,
        toolCalls: 9,
        contextOps: 9,
        retries: 9,
        outputBytes: 9,
        deadline: 99,
      },
    );
    if (!("state" in made)) throw new Error("refused");
    const started = machine.step(made.state, { tag: "start", now: 1 });
    const journal = new TextEncoder().encode(
      `${JSON.stringify({
        statefold: "journal",
        version: 1,
        model: "executive",
        spec: { task: "other", plan: { steps: [{ id: "z", deps: [], effect: "model" }] } },
        budget: {
          steps: 5,
          depth: 0,
          modelCalls: 1,
          toolCalls: 0,
          contextOps: 0,
          retries: 0,
          outputBytes: 0,
          deadline: 5,
        },
      })}\n{"observation":{"tag":"start","now":0},"decision":{"tag":"execute","seq":1,"path":["z"],"effect":"model","attempt":1}}\n`,
    );
    expect((await engine.auditBytes(journal)).conformant).toBe(true);
    const done = machine.step(started.state, {
      tag: "result",
      seq: 1,
      outcome: "ok",
      bytes: 2,
      now: 3,
    });
    expect(done.decision).toEqual({ tag: "complete", seq: 2 });
    expect(machine.step(made.state, { tag: "start", now: 1 }).decision).toEqual(started.decision);
    expect(machine.terminal(done.state)).toEqual({ outcome: "completed" });
  });
});

describe("loadEngine({ model })", () => {
  it("gives each model's engine: the executive one is a machine that decides as the reference", async () => {
    const executive = await loadEngine({ model: "executive", flavour: "scalar" });
    expect(executive.flavour).toBe("scalar");
    const spec = { task: "t", plan: { steps: [{ id: "a", deps: [], effect: "context" }] } };
    const budget = { ...BUDGET, contextOps: 1 };
    const start = { tag: "start", now: 0 };
    const kernel = executive.machine.initialState(spec, budget);
    const reference = referenceExecutive.initialState(spec, budget);
    if (!("state" in kernel) || !("state" in reference)) throw new Error("refused");
    expect(executive.machine.step(kernel.state, start).decision).toEqual(
      referenceExecutive.step(reference.state, start).decision,
    );
    const operations = await loadEngine({ model: "operations" });
    expect(typeof operations.openAuditor).toBe("function");
    const dag = await loadEngine();
    expect(typeof dag.audit).toBe("function");
  });
});

const BUDGET = {
  steps: 9,
  depth: 1,
  modelCalls: 9,
  toolCalls: 9,
  contextOps: 9,
  retries: 9,
  outputBytes: 9,
  deadline: 99,
};
