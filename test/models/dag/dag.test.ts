import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareCodePoints,
  type DagNode,
  dagLayers,
  dagRejection,
  makeDag,
} from "../../../src/models/dag/index.js";
import { dagArbitrary, dagNodesArbitrary } from "../../support/arbitraries.js";
import { dagOf } from "../../support/fixtures.js";

const node = (id: string, ...deps: string[]): DagNode => ({ id, deps });

/** Code-point order computed independently of the model: compare arrays of code points. */
function byCodePoint(a: string, b: string): number {
  const pa = Array.from(a, (ch) => ch.codePointAt(0) as number);
  const pb = Array.from(b, (ch) => ch.codePointAt(0) as number);
  for (let i = 0; i < Math.min(pa.length, pb.length); i += 1) {
    if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  }
  return pa.length - pb.length;
}

/** docs/models/dag.md, "The DAG" decided by brute force: the first failing check of the three, in order, or null. */
function expectedRejection(nodes: readonly DagNode[]): string | null {
  const seen = new Set<string>();
  for (const n of nodes) {
    if (seen.has(n.id)) return "duplicate-id";
    seen.add(n.id);
  }
  if (nodes.some((n) => n.deps.some((dep) => !seen.has(dep)))) return "dangling-dependency";
  const depsOf = new Map(nodes.map((n) => [n.id, n.deps]));
  const reachesItself = (start: string): boolean => {
    const stack = [...(depsOf.get(start) ?? [])];
    const visited = new Set<string>();
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (id === start) return true;
      if (visited.has(id)) continue;
      visited.add(id);
      stack.push(...(depsOf.get(id) ?? []));
    }
    return false;
  };
  return nodes.some((n) => reachesItself(n.id)) ? "cycle" : null;
}

describe("makeDag", () => {
  it("accepts the empty node list", () => {
    const made = makeDag([]);
    expect(made.ok).toBe(true);
    if (made.ok) expect(made.dag.nodes).toEqual([]);
  });

  it("keeps the nodes in the given order and indexes their positions", () => {
    const made = makeDag([node("C"), node("A", "C"), node("B")]);
    if (!made.ok) throw new Error("rejected");
    expect(made.dag.nodes.map((n) => n.id)).toEqual(["C", "A", "B"]);
    expect([...made.dag.positionById]).toEqual([
      ["C", 0],
      ["A", 1],
      ["B", 2],
    ]);
  });

  it("copies its input: mutating the node list afterwards does not change the DAG", () => {
    const deps = ["A"];
    const nodes = [node("A"), { id: "B", deps }];
    const made = makeDag(nodes);
    if (!made.ok) throw new Error("rejected");
    deps.push("C");
    nodes.push(node("C"));
    expect(made.dag.nodes).toEqual([node("A"), node("B", "A")]);
  });

  it("allows duplicate entries inside one deps list", () => {
    const made = makeDag([node("A"), node("B", "A", "A")]);
    expect(made.ok).toBe(true);
    if (made.ok) expect(dagLayers(made.dag)).toEqual([["A"], ["B"]]);
  });

  it("rejects the first id seen a second time, scanning in order", () => {
    expect(makeDag([node("A"), node("B"), node("B"), node("A")])).toEqual({
      ok: false,
      rejection: { reason: "duplicate-id", ids: ["B"] },
    });
    expect(makeDag([node("A"), node("B"), node("A"), node("B")])).toEqual({
      ok: false,
      rejection: { reason: "duplicate-id", ids: ["A"] },
    });
  });

  it("rejects the first dangling dependency: first node in order, first dep in its list", () => {
    expect(makeDag([node("A"), node("B", "A", "X", "Y"), node("C", "Z")])).toEqual({
      ok: false,
      rejection: { reason: "dangling-dependency", ids: ["B", "X"] },
    });
  });

  it("rejects a cycle, naming the stuck nodes in code-point order", () => {
    expect(makeDag([node("B", "A"), node("A", "B"), node("C")])).toEqual({
      ok: false,
      rejection: { reason: "cycle", ids: ["A", "B"] },
    });
  });

  it("rejects a self-dependency as a cycle", () => {
    expect(makeDag([node("A"), node("S", "A", "S")])).toEqual({
      ok: false,
      rejection: { reason: "cycle", ids: ["S"] },
    });
  });

  it("checks duplicate-id before dangling-dependency before cycle", () => {
    const cycle = [node("P", "Q"), node("Q", "P")];
    const dangling = node("D", "nowhere");
    expect(makeDag([...cycle, dangling, node("P")])).toMatchObject({
      rejection: { reason: "duplicate-id", ids: ["P"] },
    });
    expect(makeDag([...cycle, dangling])).toMatchObject({
      rejection: { reason: "dangling-dependency", ids: ["D", "nowhere"] },
    });
    expect(makeDag(cycle)).toMatchObject({ rejection: { reason: "cycle" } });
  });

  it("compares ids exactly: case and Unicode normalisation forms are distinct ids", () => {
    expect(makeDag([node("a"), node("A"), node("é"), node("e\u0301")]).ok).toBe(true);
    expect(makeDag([node("B", "b"), node("A")])).toMatchObject({
      rejection: { reason: "dangling-dependency", ids: ["B", "b"] },
    });
  });

  it("accepts every generated DAG", () => {
    fc.assert(
      fc.property(dagNodesArbitrary(), (nodes) => {
        expect(makeDag(nodes).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("is total and decides like the three checks of docs/models/dag.md done by brute force", () => {
    const pool = ["A", "B", "C", "D", "é"];
    const listArbitrary = fc.array(
      fc.record({
        id: fc.constantFrom(...pool),
        deps: fc.array(fc.constantFrom(...pool, "ghost"), { maxLength: 3 }),
      }),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(listArbitrary, (nodes) => {
        const made = makeDag(nodes);
        expect(made.ok ? null : made.rejection.reason).toBe(expectedRejection(nodes));
        // The check alone, without the DAG it would make, refuses alike and names the same ids.
        expect(dagRejection(nodes)).toStrictEqual(made.ok ? null : made.rejection);
      }),
      { numRuns: 500 },
    );
  });
});

describe("dagLayers", () => {
  it("is empty for the empty DAG", () => {
    expect(dagLayers(dagOf())).toEqual([]);
  });

  it("puts a linear chain one node per layer", () => {
    expect(dagLayers(dagOf(["C", "B"], ["A"], ["B", "A"]))).toEqual([["A"], ["B"], ["C"]]);
  });

  it("layers a diamond, whatever order its nodes are listed in", () => {
    const diamond = dagOf(["D", "C", "B"], ["C", "A"], ["B", "A"], ["A"]);
    expect(dagLayers(diamond)).toEqual([["A"], ["B", "C"], ["D"]]);
  });

  it("puts independent nodes in one layer, sorted by code point (case-sensitive)", () => {
    expect(dagLayers(dagOf(["b"], ["C"], ["a"], ["B"], ["A"]))).toEqual([
      ["A", "B", "C", "a", "b"],
    ]);
  });

  it("sorts by code point, not by UTF-16 code unit: an astral emoji comes after U+FFFD", () => {
    const ids = ["😀", "\uFFFD", "\uE000", "z"];
    const layers = dagLayers(dagOf(...ids.map((id): [string] => [id])));
    expect(layers).toEqual([["z", "\uE000", "\uFFFD", "😀"]]);
    // JavaScript's default sort compares code units and would put the surrogate pair first.
    expect([...ids].sort()).toEqual(["z", "😀", "\uE000", "\uFFFD"]);
  });

  it("does not normalise: a decomposed é sorts by its first code point", () => {
    expect(dagLayers(dagOf(["é"], ["e\u0301"], ["f"]))).toEqual([["e\u0301", "f", "é"]]);
  });

  it("counts a dep listed twice once", () => {
    expect(dagLayers(dagOf(["A"], ["B"], ["C", "A", "A", "B"]))).toEqual([["A", "B"], ["C"]]);
  });

  it("is a Kahn layering of every generated DAG", () => {
    const depthOf = (layers: string[][]) =>
      new Map(layers.flatMap((layer, depth) => layer.map((id) => [id, depth] as const)));
    fc.assert(
      fc.property(dagArbitrary(), (dag) => {
        const layers = dagLayers(dag);
        const depth = depthOf(layers);
        // every node exactly once
        expect(layers.flat().length).toBe(dag.nodes.length);
        expect(new Set(layers.flat())).toEqual(new Set(dag.nodes.map((n) => n.id)));
        for (const n of dag.nodes) {
          const mine = depth.get(n.id) as number;
          const depDepths = n.deps.map((dep) => depth.get(dep) as number);
          // deps strictly earlier; and the node sits right after its deepest dep (Kahn)
          expect(depDepths.every((d) => d < mine)).toBe(true);
          expect(mine).toBe(depDepths.length === 0 ? 0 : Math.max(...depDepths) + 1);
        }
        for (const layer of layers) expect([...layer].sort(byCodePoint)).toEqual(layer);
      }),
      { numRuns: 300 },
    );
  });
});

describe("compareCodePoints", () => {
  it("orders by code point", () => {
    expect(compareCodePoints("A", "a")).toBeLessThan(0);
    expect(compareCodePoints("\uFFFD", "😀")).toBeLessThan(0);
    expect(compareCodePoints("😀", "\uE000")).toBeGreaterThan(0);
    expect(compareCodePoints("x😀", "x\uFFFF")).toBeGreaterThan(0);
  });

  it("puts a proper prefix first and returns 0 only for equal strings", () => {
    expect(compareCodePoints("ab", "abc")).toBeLessThan(0);
    expect(compareCodePoints("abc", "ab")).toBeGreaterThan(0);
    expect(compareCodePoints("", "")).toBe(0);
    expect(compareCodePoints("é", "é")).toBe(0);
    expect(compareCodePoints("é", "e\u0301")).not.toBe(0);
  });

  it("compares a lone surrogate as its own code unit value", () => {
    expect(compareCodePoints("\uD800", "\uE000")).toBeLessThan(0);
    expect(compareCodePoints("\uD800", "\uD7FF")).toBeGreaterThan(0);
    expect(compareCodePoints("\uDC00", "😀")).toBeLessThan(0);
  });

  it("agrees in sign with an independent code-point comparison", () => {
    // Any code points, and strings of a few units that share prefixes and meet at surrogates.
    const awkward = fc.constantFrom(
      "a",
      "b",
      "\uD800",
      "\uDBFF",
      "\uDC00",
      "😀",
      "\uE000",
      "\uFFFF",
      "\uD7FF",
    );
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 5 }),
      fc.string({ unit: awkward, maxLength: 6 }),
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoint(a, b)));
      }),
      { numRuns: 1000 },
    );
  });
});
