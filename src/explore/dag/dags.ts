/**
 * Every DAG of 1 to n nodes, up to isomorphism (docs/explore.md, "Configurations"): nodes named
 * `a`, `b`, `c`, … in a topological order, each edge from an earlier node to a later one, and of
 * the labellings that are the same DAG under a renaming only the first kept. Up to 3 nodes there
 * are 1 + 2 + 6 = 9.
 */
import type { DagNode } from "../../models/dag/dag.js";

export function dagsUpTo(nodes: number): DagNode[][] {
  const dags: DagNode[][] = [];
  for (let n = 1; n <= nodes; n++) dags.push(...dagsOf(n));
  return dags;
}

function dagsOf(n: number): DagNode[][] {
  const pairs: [number, number][] = [];
  for (let to = 0; to < n; to++) for (let from = 0; from < to; from++) pairs.push([from, to]);
  const seen = new Set<string>();
  const dags: DagNode[][] = [];
  for (let mask = 0; mask < 2 ** pairs.length; mask++) {
    const edges = pairs.filter((_, i) => (mask >> i) & 1);
    const form = canonicalForm(n, edges);
    if (seen.has(form)) continue;
    seen.add(form);
    dags.push(
      Array.from({ length: n }, (_, node) => ({
        id: nameOf(node),
        deps: edges.filter(([, to]) => to === node).map(([from]) => nameOf(from)),
      })),
    );
  }
  return dags;
}

/** The least adjacency string over every renaming of the nodes. */
function canonicalForm(n: number, edges: readonly [number, number][]): string {
  let least: string | null = null;
  for (const order of permutations(n)) {
    const bits = new Array<string>(n * n).fill("0");
    for (const [from, to] of edges) bits[(order[from] as number) * n + (order[to] as number)] = "1";
    const form = bits.join("");
    if (least === null || form < least) least = form;
  }
  return least ?? "";
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((rest) =>
    Array.from({ length: n }, (_, at) => [...rest.slice(0, at), n - 1, ...rest.slice(at)]),
  );
}

export function nameOf(node: number): string {
  return String.fromCharCode(0x61 + node);
}
