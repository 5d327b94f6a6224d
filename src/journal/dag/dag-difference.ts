import type { Dag } from "../../models/dag/dag.js";
import { formatCount, plural } from "../../text/format-units.js";

/**
 * The first difference between two DAGs, node by node in order, or null when they are the same
 * DAG. Order matters: node states and reports follow DAG order.
 */
export function dagDifference(
  dag: Dag,
  other: Dag,
  names: { readonly dag: string; readonly other: string },
): string | null {
  const count = Math.max(dag.nodes.length, other.nodes.length);
  for (let i = 0; i < count; i += 1) {
    const node = dag.nodes[i];
    const otherNode = other.nodes[i];
    if (node === undefined || otherNode === undefined) {
      return `${names.dag} has ${plural(dag.nodes.length, "node")}, ${names.other} has ${formatCount(other.nodes.length)}`;
    }
    if (node.id !== otherNode.id) {
      return `nodes[${i}] is ${JSON.stringify(node.id)} in ${names.dag}, ${JSON.stringify(otherNode.id)} in ${names.other}`;
    }
    if (JSON.stringify(node.deps) !== JSON.stringify(otherNode.deps)) {
      return `node ${JSON.stringify(node.id)} depends on ${JSON.stringify(node.deps)} in ${names.dag}, on ${JSON.stringify(otherNode.deps)} in ${names.other}`;
    }
  }
  return null;
}
