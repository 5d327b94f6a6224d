/**
 * The work DAG: nodes with dependency ids. `makeDag` is the only constructor and it is total —
 * it returns a valid DAG or a rejection, checked in the order of docs/models/dag.md, "The DAG" (first failure
 * wins). Everything that receives a `Dag` may assume it is valid.
 */

import {
  computeReverseEdges,
  type ReverseEdges,
  rememberReverseEdges,
  reverseEdges,
} from "./reverse-edges.js";

export interface DagNode {
  readonly id: string;
  readonly deps: readonly string[];
}

export interface Dag {
  readonly nodes: readonly DagNode[];
  /** Position of each id in `nodes`; node states are kept in this order. */
  readonly positionById: ReadonlyMap<string, number>;
}

export type DagRejectionReason = "duplicate-id" | "dangling-dependency" | "cycle";

export interface DagRejection {
  readonly reason: DagRejectionReason;
  /** duplicate-id: the id; dangling-dependency: the node, then the missing dep; cycle: the stuck nodes in code-point order. */
  readonly ids: readonly string[];
}

export type MakeDagResult =
  | { readonly ok: true; readonly dag: Dag }
  | { readonly ok: false; readonly rejection: DagRejection };

export function makeDag(nodes: readonly DagNode[]): MakeDagResult {
  const checked = checkNodes(nodes);
  if (!checked.ok) return checked;
  const frozen = Object.freeze(
    nodes.map((n) => Object.freeze({ id: n.id, deps: Object.freeze([...n.deps]) })),
  );
  const dag: Dag = Object.freeze({ nodes: frozen, positionById: checked.positionById });
  rememberReverseEdges(dag, checked.edges);
  return { ok: true, dag };
}

/**
 * Why `makeDag` would refuse these nodes, or null when it would make them a DAG: its checks,
 * without the frozen copy of every node a DAG keeps (for callers that keep nodes of their own).
 */
export function dagRejection(nodes: readonly DagNode[]): DagRejection | null {
  const checked = checkNodes(nodes);
  return checked.ok ? null : checked.rejection;
}

type CheckedNodes =
  | { readonly ok: true; readonly positionById: Map<string, number>; readonly edges: ReverseEdges }
  | { readonly ok: false; readonly rejection: DagRejection };

function checkNodes(nodes: readonly DagNode[]): CheckedNodes {
  const positionById = new Map<string, number>();
  let edgeCount = 0;
  for (const [position, node] of nodes.entries()) {
    if (positionById.has(node.id)) {
      return { ok: false, rejection: { reason: "duplicate-id", ids: [node.id] } };
    }
    positionById.set(node.id, position);
    edgeCount += node.deps.length;
  }
  // Each dependency looked up once, here: the reverse edges are built from these positions.
  const depsStart = new Uint32Array(nodes.length + 1);
  const depPositions = new Uint32Array(edgeCount);
  let edge = 0;
  for (const [position, node] of nodes.entries()) {
    for (const dep of node.deps) {
      const depPosition = positionById.get(dep);
      if (depPosition === undefined) {
        return { ok: false, rejection: { reason: "dangling-dependency", ids: [node.id, dep] } };
      }
      depPositions[edge++] = depPosition;
    }
    depsStart[position + 1] = edge;
  }
  const edges = computeReverseEdges(depsStart, depPositions);
  const { stuck } = kahnLayers(edges);
  if (stuck.length > 0) {
    return { ok: false, rejection: { reason: "cycle", ids: idsInOrder(nodes, stuck) } };
  }
  return { ok: true, positionById, edges };
}

/** The Kahn schedule: each layer holds the nodes whose deps all sit in earlier layers. */
export function dagLayers(dag: Dag): string[][] {
  return kahnLayers(reverseEdges(dag)).layers.map((layer) => idsInOrder(dag.nodes, layer));
}

/**
 * Kahn's algorithm over positions: the layers, and the nodes never freed (those on or behind a
 * cycle). Ids are only looked up and sorted by the caller that shows them: a 100 000-node DAG is
 * checked for cycles without sorting its ids.
 */
function kahnLayers(edges: ReverseEdges): { layers: number[][]; stuck: number[] } {
  const { distinctDeps, dependentsStart, dependents } = edges;
  const unmetDeps = distinctDeps.slice();
  const layers: number[][] = [];
  let layer = [...unmetDeps.keys()].filter((p) => unmetDeps[p] === 0);
  while (layer.length > 0) {
    layers.push(layer);
    const next: number[] = [];
    for (const p of layer) {
      for (
        let edge = dependentsStart[p] as number;
        edge < (dependentsStart[p + 1] as number);
        edge++
      ) {
        const dependent = dependents[edge] as number;
        unmetDeps[dependent] = (unmetDeps[dependent] as number) - 1;
        if (unmetDeps[dependent] === 0) next.push(dependent);
      }
    }
    layer = next;
  }
  return { layers, stuck: [...unmetDeps.keys()].filter((p) => (unmetDeps[p] as number) > 0) };
}

/** The ids at these positions, in code-point order. */
function idsInOrder(nodes: readonly DagNode[], positions: readonly number[]): string[] {
  return positions.map((p) => nodes[p]?.id as string).sort(compareCodePoints);
}

/**
 * Orders strings by Unicode code point, as the librecode model's `string<` does. JavaScript's `<` compares
 * UTF-16 code units, which puts an astral character (a surrogate pair) before U+E000–U+FFFF.
 * A lone surrogate compares as its own code unit value.
 *
 * Up to the first unit that differs the two agree; where neither of those units is a surrogate,
 * the units' order is the code points' (ids are mostly ASCII, and sorting 100 000 of them is on
 * the path of a spec's packing).
 */
export function compareCodePoints(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const unitA = a.charCodeAt(i);
    const unitB = b.charCodeAt(i);
    if (unitA === unitB) continue;
    if (isSurrogate(unitA) || isSurrogate(unitB)) return compareCodePointWalk(a, b);
    return unitA < unitB ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}

function compareCodePointWalk(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i) as number;
    const cb = b.codePointAt(j) as number;
    if (ca !== cb) return ca < cb ? -1 : 1;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  const aHasMore = i < a.length;
  const bHasMore = j < b.length;
  return aHasMore === bHasMore ? 0 : aHasMore ? 1 : -1;
}
