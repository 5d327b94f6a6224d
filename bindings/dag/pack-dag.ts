/**
 * Writes a DAG into the kernel in the packed layout of assembly/dag/dag.ts: ids as WTF-8, and per
 * node its distinct-dependency count and its dependents (the reverse edges, deduplicated, since a
 * deps list may name a node twice), all from flat typed arrays.
 */
import type { Dag } from "../../src/models/dag/dag.js";
import { reverseEdges } from "../../src/models/dag/reverse-edges.js";
import type { KernelExports } from "../kernel.js";
import { encodeWtf8Into } from "../wtf8.js";

export function packDag(kernel: KernelExports, dag: Dag): boolean {
  const n = dag.nodes.length;
  const { distinctDeps, dependentsStart, dependents } = reverseEdges(dag);
  const idBytes = new Uint8Array(3 * dag.nodes.reduce((units, node) => units + node.id.length, 0));
  const idOffsets = new Uint32Array(n + 1);
  let idEnd = 0;
  for (const [position, node] of dag.nodes.entries()) {
    idOffsets[position] = idEnd;
    idEnd = encodeWtf8Into(node.id, idBytes, idEnd);
  }
  idOffsets[n] = idEnd;

  const edges = dependents.length;
  const pointer = kernel.prepareDag(n, edges, idEnd);
  if (pointer === 0) return false;
  const words = new Uint32Array(kernel.memory.buffer, pointer, 3 + 3 * n + 2 + edges);
  words.set([n, edges, idEnd]);
  words.set(idOffsets, 3);
  words.set(distinctDeps, 3 + n + 1);
  words.set(dependentsStart, 3 + 2 * n + 1);
  words.set(dependents, 3 + 3 * n + 2);
  new Uint8Array(kernel.memory.buffer, pointer + words.length * 4, idEnd).set(
    idBytes.subarray(0, idEnd),
  );
  return kernel.loadDag() === 0;
}
