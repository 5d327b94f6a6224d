/**
 * Writes a DAG into the kernel in the packed layout of assembly/dag.ts: ids as WTF-8, and per
 * node its distinct-dependency count and its dependents (the reverse edges, deduplicated, since a
 * deps list may name a node twice).
 */
import type { Dag } from "../src/model/dag.js";
import type { KernelExports } from "./kernel.js";
import { encodeWtf8 } from "./wtf8.js";

export function packDag(kernel: KernelExports, dag: Dag): boolean {
  const n = dag.nodes.length;
  const ids = dag.nodes.map((node) => encodeWtf8(node.id));
  const idBytesLength = ids.reduce((sum, id) => sum + id.length, 0);
  const dependentsOf: number[][] = dag.nodes.map(() => []);
  const depCounts = new Uint32Array(n);
  for (const [position, node] of dag.nodes.entries()) {
    const deps = new Set(node.deps);
    depCounts[position] = deps.size;
    for (const dep of deps) dependentsOf[dag.positionById.get(dep) as number]?.push(position);
  }
  const edges = dependentsOf.reduce((sum, list) => sum + list.length, 0);
  const pointer = kernel.prepareDag(n, edges, idBytesLength);
  if (pointer === 0) return false;

  const words = new Uint32Array(kernel.memory.buffer, pointer, 3 + 3 * n + 2 + edges);
  words.set([n, edges, idBytesLength]);
  let at = 3;
  let idOffset = 0;
  for (const id of ids) {
    words[at++] = idOffset;
    idOffset += id.length;
  }
  words[at++] = idOffset;
  words.set(depCounts, at);
  at += n;
  let edge = 0;
  for (const list of dependentsOf) {
    words[at++] = edge;
    edge += list.length;
  }
  words[at++] = edge;
  for (const list of dependentsOf) {
    words.set(list, at);
    at += list.length;
  }
  const bytes = new Uint8Array(kernel.memory.buffer, pointer + at * 4, idBytesLength);
  let byteAt = 0;
  for (const id of ids) {
    bytes.set(id, byteAt);
    byteAt += id.length;
  }
  return kernel.loadDag() === 0;
}
