/**
 * The executive model's spec and budget checks (docs/models/executive.md, "Spec and budget"):
 * each rejection with its reason and path, the order of the three passes, the bounds at and
 * past their limits, and values that are not plain data — accessors (never called), Proxies
 * whose traps throw, cyclic object graphs.
 */
import { describe, expect, it } from "vitest";
import { referenceExecutive } from "../../../src/models/executive/index.js";

const BUDGET = {
  steps: 100,
  depth: 3,
  modelCalls: 10,
  toolCalls: 10,
  contextOps: 10,
  retries: 5,
  outputBytes: 10_000,
  deadline: 1_000_000,
};

const effect = (id: string, deps: string[] = [], kind = "tool") => ({ id, deps, effect: kind });
const spec = (steps: unknown[], extra: Record<string, unknown> = {}) => ({
  task: "t",
  plan: { steps },
  ...extra,
});

function rejection(specValue: unknown, budget: unknown = BUDGET) {
  return referenceExecutive.initialState(specValue, budget);
}

describe("initialState", () => {
  it("accepts a spec and copies it in the canonical key order, frozen", () => {
    const given = {
      checkpointEvery: 2,
      plan: {
        steps: [
          { effect: "model", deps: [], id: "a" },
          { budget: { retries: 1, steps: 4 }, plan: { steps: [] }, deps: ["a"], id: "sub" },
        ],
      },
      task: "write the report",
    };
    const result = referenceExecutive.initialState(given, BUDGET);
    expect("state" in result).toBe(true);
    const state = (result as { state: { spec: unknown } }).state;
    expect(JSON.stringify(state.spec)).toBe(
      '{"task":"write the report","plan":{"steps":[{"id":"a","deps":[],"effect":"model"},{"id":"sub","deps":["a"],"plan":{"steps":[]},"budget":{"steps":4,"retries":1}}]},"checkpointEvery":2}',
    );
    expect(Object.isFrozen(state.spec)).toBe(true);
    given.task = "changed";
    expect(JSON.stringify(state.spec)).toContain("write the report");
  });

  it("names the path of each shape fault", () => {
    const cases: [unknown, (string | number)[]][] = [
      [null, []],
      [[], []],
      [new String("x"), []],
      [{ plan: { steps: [] } }, ["task"]],
      [{ task: 1, plan: { steps: [] } }, ["task"]],
      [{ task: "t" }, ["plan"]],
      [{ task: "t", plan: [] }, ["plan"]],
      [{ task: "t", plan: { steps: {} } }, ["plan", "steps"]],
      [spec([null]), ["plan", "steps", 0]],
      [spec([{ deps: [], effect: "tool" }]), ["plan", "steps", 0, "id"]],
      [spec([{ id: "a", effect: "tool" }]), ["plan", "steps", 0, "deps"]],
      [spec([{ id: "a", deps: [7], effect: "tool" }]), ["plan", "steps", 0, "deps", 0]],
      [spec([{ id: "a", deps: [] }]), ["plan", "steps", 0]],
      [spec([{ id: "a", deps: [], effect: "tool", plan: { steps: [] } }]), ["plan", "steps", 0]],
      [spec([effect("a", [], "shell")]), ["plan", "steps", 0, "effect"]],
      [spec([{ ...effect("a"), budget: {} }]), ["plan", "steps", 0, "budget"]],
      [
        spec([{ id: "s", deps: [], plan: { steps: [null] } }]),
        ["plan", "steps", 0, "plan", "steps", 0],
      ],
      [spec([], { checkpointEvery: 0 }), ["checkpointEvery"]],
      [spec([], { checkpointEvery: 1.5 }), ["checkpointEvery"]],
      [spec([], { budget: BUDGET }), ["budget"]],
      [{ task: "t", plan: { steps: [], note: 1 } }, ["plan", "note"]],
    ];
    for (const [value, path] of cases) {
      expect(rejection(value), JSON.stringify(path)).toEqual({ rejected: "invalid-spec", path });
    }
  });

  it("holds the named bounds at their limit and refuses one past it", () => {
    expect("state" in rejection({ task: "x".repeat(4096), plan: { steps: [] } })).toBe(true);
    expect(rejection({ task: "x".repeat(4097), plan: { steps: [] } })).toEqual({
      rejected: "invalid-spec",
      path: ["task"],
    });
    // A lone surrogate is 3 bytes of WTF-8: 1365 of them and one byte fit, 1366 do not.
    expect("state" in rejection({ task: `${"\ud800".repeat(1365)}x`, plan: { steps: [] } })).toBe(
      true,
    );
    expect(rejection({ task: "\ud800".repeat(1366), plan: { steps: [] } })).toEqual({
      rejected: "invalid-spec",
      path: ["task"],
    });
    expect("state" in rejection(spec([effect("i".repeat(1024))]))).toBe(true);
    expect(rejection(spec([effect("i".repeat(1025))]))).toEqual({
      rejected: "invalid-spec",
      path: ["plan", "steps", 0, "id"],
    });
    const ids = Array.from({ length: 1025 }, (_, i) => `d${i}`);
    const many = [...ids.map((id) => effect(id)), effect("last", ids)];
    expect(rejection(spec(many))).toEqual({
      rejected: "invalid-spec",
      path: ["plan", "steps", 1025, "deps", 1024],
    });
    const atLimit = Array.from({ length: 100_000 }, (_, i) => effect(`s${i}`));
    expect("state" in rejection(spec(atLimit))).toBe(true);
    expect(rejection(spec([...atLimit, effect("one-more")]))).toEqual({
      rejected: "invalid-spec",
      path: ["plan", "steps", 100_000],
    });
  });

  it("refuses plans nested past 64, and a plan that contains itself, without recursing forever", () => {
    const nested = (levels: number): unknown =>
      levels === 1 ? { steps: [] } : { steps: [{ id: "s", deps: [], plan: nested(levels - 1) }] };
    expect("state" in rejection({ task: "t", plan: nested(64) })).toBe(true);
    const deep = rejection({ task: "t", plan: nested(65) });
    expect(deep).toMatchObject({ rejected: "invalid-spec" });
    expect((deep as { path: readonly unknown[] }).path).toHaveLength(1 + 64 * 3);
    const cyclic: { steps: unknown[] } = { steps: [] };
    cyclic.steps.push({ id: "self", deps: [], plan: cyclic });
    expect(rejection({ task: "t", plan: cyclic })).toMatchObject({ rejected: "invalid-spec" });
  });

  it("never calls an accessor and takes a throwing Proxy as a bad value at its path", () => {
    let calls = 0;
    const withGetter = {
      get task() {
        calls += 1;
        return "t";
      },
      plan: { steps: [] },
    };
    expect(rejection(withGetter)).toEqual({ rejected: "invalid-spec", path: ["task"] });
    expect(calls).toBe(0);
    const throwing = new Proxy(
      {},
      {
        getOwnPropertyDescriptor() {
          throw new Error("trap");
        },
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    expect(rejection(spec([throwing]))).toEqual({
      rejected: "invalid-spec",
      path: ["plan", "steps", 0, "id"],
    });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(rejection(spec([proxy]))).toEqual({
      rejected: "invalid-spec",
      path: ["plan", "steps", 0],
    });
    expect(rejection(proxy)).toEqual({ rejected: "invalid-spec", path: [] });
  });

  it("judges each plan's DAG after the shape, by the dag model's rules and order", () => {
    expect(rejection(spec([effect("a"), effect("b"), effect("a")]))).toEqual({
      rejected: "duplicate-id",
      path: ["plan", "steps", 2, "id"],
    });
    expect(rejection(spec([effect("a", ["a", "x", "y"])]))).toEqual({
      rejected: "dangling-dependency",
      path: ["plan", "steps", 0, "deps", 1],
    });
    expect(rejection(spec([effect("a", ["a"])]))).toEqual({
      rejected: "cycle",
      path: ["plan", "steps"],
    });
    expect(rejection(spec([effect("a", ["b"]), effect("b", ["a"])]))).toEqual({
      rejected: "cycle",
      path: ["plan", "steps"],
    });
    // Ids are scoped to their plan: a sub-plan may reuse its parent's ids.
    const scoped = spec([effect("a"), { id: "s", deps: ["a"], plan: { steps: [effect("a")] } }]);
    expect("state" in rejection(scoped)).toBe(true);
    // A shape fault later in the document wins over a DAG fault earlier in it.
    expect(rejection(spec([effect("a"), effect("a"), effect("b", [], "shell")]))).toEqual({
      rejected: "invalid-spec",
      path: ["plan", "steps", 2, "effect"],
    });
    // The root's DAG before a sub-plan's.
    const both = spec([{ id: "s", deps: [], plan: { steps: [effect("x", ["y"])] } }, effect("s")]);
    expect(rejection(both)).toEqual({ rejected: "duplicate-id", path: ["plan", "steps", 1, "id"] });
  });

  it("checks the budgets last: the root's, then each sub-plan's in document order", () => {
    const bad = [Number.NaN, Number.POSITIVE_INFINITY, -1, 1.5, 2 ** 52 + 1, "1", null];
    for (const value of bad) {
      expect(rejection(spec([]), { ...BUDGET, retries: value })).toEqual({
        rejected: "invalid-budget",
        path: ["budget", "retries"],
      });
    }
    expect("state" in rejection(spec([]), { ...BUDGET, deadline: 2 ** 52, steps: -0 })).toBe(true);
    expect(rejection(spec([]), null)).toEqual({ rejected: "invalid-budget", path: ["budget"] });
    const { depth: _, ...noDepth } = BUDGET;
    expect(rejection(spec([]), noDepth)).toEqual({
      rejected: "invalid-budget",
      path: ["budget", "depth"],
    });
    expect(rejection(spec([]), { ...BUDGET, extra: 1 })).toEqual({
      rejected: "invalid-budget",
      path: ["budget", "extra"],
    });
    const sub = (id: string, budget: unknown, steps: unknown[] = []) => ({
      id,
      deps: [],
      plan: { steps },
      budget,
    });
    expect(rejection(spec([sub("s", { depth: 1 })]))).toEqual({
      rejected: "invalid-budget",
      path: ["plan", "steps", 0, "budget", "depth"],
    });
    expect(rejection(spec([sub("s", 5)]))).toEqual({
      rejected: "invalid-budget",
      path: ["plan", "steps", 0, "budget"],
    });
    // A sub-plan step's budget before those of its own steps, and the root's before all.
    const order = spec([sub("outer", { retries: -1 }, [sub("inner", { steps: -1 })])]);
    expect(rejection(order)).toEqual({
      rejected: "invalid-budget",
      path: ["plan", "steps", 0, "budget", "retries"],
    });
    expect(rejection(order, { ...BUDGET, steps: -1 })).toEqual({
      rejected: "invalid-budget",
      path: ["budget", "steps"],
    });
    // A DAG fault before any budget fault.
    expect(rejection(spec([effect("a", ["a"])]), null)).toEqual({
      rejected: "cycle",
      path: ["plan", "steps"],
    });
  });
});
