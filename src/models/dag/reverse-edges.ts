/**
 * A DAG's edges turned around: for each node its dependents, deduplicated, in flat arrays — what
 * the Kahn schedule (dag.ts) and the kernel's packed DAG (bindings/dag/pack-dag.ts) both walk. Kept
 * out of the package's exports: the arrays are shared, so nothing outside may write to them.
 */
export interface ReverseEdges {
  /** Per node, how many distinct nodes it depends on (a deps list may name one twice). */
  readonly distinctDeps: Uint32Array;
  /** The dependents of node p are `dependents[dependentsStart[p] .. dependentsStart[p + 1])`, in node order. */
  readonly dependentsStart: Uint32Array;
  readonly dependents: Uint32Array;
}

/** Each DAG's reverse edges, worked out once, by makeDag (a DAG never changes). */
const reverseEdgesOf = new WeakMap<object, ReverseEdges>();

export function rememberReverseEdges(dag: object, edges: ReverseEdges): void {
  reverseEdgesOf.set(dag, edges);
}

/** Whether a value is a DAG makeDag made: what the engines' argument checks accept as a DAG. */
export function madeByMakeDag(value: unknown): boolean {
  return typeof value === "object" && value !== null && reverseEdgesOf.has(value);
}

/** The reverse edges of a DAG made by makeDag (src/models/dag/dag.ts), its only constructor. */
export function reverseEdges(dag: object): ReverseEdges {
  const edges = reverseEdgesOf.get(dag);
  if (edges === undefined) throw new Error("statefold: a DAG not made by makeDag");
  return edges;
}

/**
 * The edges turned around and deduplicated, in flat arrays: no array or set per node. Node p's
 * dependencies are the positions `depPositions[depsStart[p] .. depsStart[p + 1])`, as its deps
 * list names them.
 */
export function computeReverseEdges(
  depsStart: Uint32Array,
  depPositions: Uint32Array,
): ReverseEdges {
  const n = depsStart.length - 1;
  const distinctDeps = new Uint32Array(n);
  const dependentsStart = new Uint32Array(n + 1);
  // `firstNaming[k]` is 1 where edge k is the first naming of its dependency in its node's list.
  const firstNaming = new Uint8Array(depPositions.length);
  const lastNamedBy = new Int32Array(n).fill(-1);
  for (let position = 0; position < n; position++) {
    for (let k = depsStart[position] as number; k < (depsStart[position + 1] as number); k++) {
      const depPosition = depPositions[k] as number;
      if (lastNamedBy[depPosition] === position) continue;
      lastNamedBy[depPosition] = position;
      firstNaming[k] = 1;
      distinctDeps[position] = (distinctDeps[position] as number) + 1;
      dependentsStart[depPosition + 1] = (dependentsStart[depPosition + 1] as number) + 1;
    }
  }
  for (let p = 0; p < n; p++) {
    dependentsStart[p + 1] = (dependentsStart[p + 1] as number) + (dependentsStart[p] as number);
  }
  const dependents = new Uint32Array(dependentsStart[n] as number);
  const nextSlot = dependentsStart.slice(0, n);
  for (let position = 0; position < n; position++) {
    for (let k = depsStart[position] as number; k < (depsStart[position + 1] as number); k++) {
      if (firstNaming[k] === 0) continue;
      const depPosition = depPositions[k] as number;
      const slot = nextSlot[depPosition] as number;
      dependents[slot] = position;
      nextSlot[depPosition] = slot + 1;
    }
  }
  return { distinctDeps, dependentsStart, dependents };
}
