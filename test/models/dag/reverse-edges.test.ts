import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Dag } from "../../../src/models/dag/index.js";
import { reverseEdges } from "../../../src/models/dag/reverse-edges.js";
import { dagArbitrary, mustMakeDag } from "../../support/arbitraries.js";

/** The same facts the plain way: a set per deps list, a scan of every node per node. */
function naiveReverseEdges(dag: Dag): { distinctDeps: number[]; dependents: number[][] } {
  return {
    distinctDeps: dag.nodes.map((node) => new Set(node.deps).size),
    dependents: dag.nodes.map(({ id }) =>
      dag.nodes.flatMap((node, position) => (node.deps.includes(id) ? [position] : [])),
    ),
  };
}

function dependentsOf(dag: Dag): number[][] {
  const { dependentsStart, dependents } = reverseEdges(dag);
  return dag.nodes.map((_, p) => [
    ...dependents.subarray(dependentsStart[p] as number, dependentsStart[p + 1] as number),
  ]);
}

describe("reverseEdges", () => {
  it("gives each node's distinct deps count and its dependents in node order", () => {
    fc.assert(
      fc.property(dagArbitrary({ maxNodes: 12 }), (dag) => {
        const naive = naiveReverseEdges(dag);
        expect([...reverseEdges(dag).distinctDeps]).toEqual(naive.distinctDeps);
        expect(dependentsOf(dag)).toEqual(naive.dependents);
      }),
      { numRuns: 300 },
    );
  });

  it("counts a dep named twice in one list once, on both sides", () => {
    const dag = mustMakeDag([
      { id: "A", deps: [] },
      { id: "B", deps: ["A", "A"] },
      { id: "C", deps: ["A", "B", "A", "B"] },
    ]);
    expect([...reverseEdges(dag).distinctDeps]).toEqual([0, 1, 2]);
    expect(dependentsOf(dag)).toEqual([[1, 2], [2], []]);
  });

  it("is worked out once per DAG", () => {
    const dag = mustMakeDag([{ id: "A", deps: [] }]);
    expect(reverseEdges(dag)).toBe(reverseEdges(dag));
  });
});
