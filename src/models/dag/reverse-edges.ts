/**
 * A DAG's edges turned around: for each node its dependents, deduplicated, in flat arrays — what
 * the Kahn schedule (dag.ts) and the kernel's packed DAG (bindings/pack-dag.ts) both walk. Kept
 * out of the package's exports: the arrays are shared, so nothing outside may write to them.
 */
import type { Dag } from "./dag.js";

export interface ReverseEdges {
  /** Per node, how many distinct nodes it depends on (a deps list may name one twice). */
  readonly distinctDeps: Uint32Array;
  /** The dependents of node p are `dependents[dependentsStart[p] .. dependentsStart[p + 1])`, in node order. */
  readonly dependentsStart: Uint32Array;
  readonly dependents: Uint32Array;
}

/** A DAG never changes, so its reverse edges are worked out once (by makeDag's cycle check). */
const reverseEdgesOf = new WeakMap<Dag, ReverseEdges>();

/** The DAG's edges turned around and deduplicated, in flat arrays: no array or set per node. */
export function reverseEdges(dag: Dag): ReverseEdges {
  let edges = reverseEdgesOf.get(dag);
  if (edges === undefined) {
    edges = computeReverseEdges(dag);
    reverseEdgesOf.set(dag, edges);
  }
  return edges;
}

function computeReverseEdges(dag: Dag): ReverseEdges {
  const { nodes, positionById } = dag;
  const n = nodes.length;
  const distinctDeps = new Uint32Array(n);
  const dependentsStart = new Uint32Array(n + 1);
  // Edges as (dependent, dependency) pairs; `lastNamedBy` spots a dependency named twice in a list.
  const pairs: number[] = [];
  const lastNamedBy = new Int32Array(n).fill(-1);
  for (const [position, node] of nodes.entries()) {
    for (const dep of node.deps) {
      const depPosition = positionById.get(dep) as number;
      if (lastNamedBy[depPosition] === position) continue;
      lastNamedBy[depPosition] = position;
      pairs.push(position, depPosition);
      distinctDeps[position] = (distinctDeps[position] as number) + 1;
      dependentsStart[depPosition + 1] = (dependentsStart[depPosition + 1] as number) + 1;
    }
  }
  for (let p = 0; p < n; p++) {
    dependentsStart[p + 1] = (dependentsStart[p + 1] as number) + (dependentsStart[p] as number);
  }
  const dependents = new Uint32Array(pairs.length / 2);
  const nextSlot = dependentsStart.slice(0, n);
  for (let at = 0; at < pairs.length; at += 2) {
    const depPosition = pairs[at + 1] as number;
    const slot = nextSlot[depPosition] as number;
    dependents[slot] = pairs[at] as number;
    nextSlot[depPosition] = slot + 1;
  }
  return { distinctDeps, dependentsStart, dependents };
}
