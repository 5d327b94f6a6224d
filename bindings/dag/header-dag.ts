/**
 * A journal header's DAG as the kernel read it (assembly/dag/header.ts) and holds it: its ids come
 * from the kernel's memory one at a time, for the few a report names. The reference's `Dag` —
 * an object per node, what a snapshot stores or a DAG given beside the journal is compared
 * with — is made from the header line only when something asks for it.
 */

import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import type { Dag } from "../../src/models/dag/dag.js";
import type { KernelExports } from "../kernel.js";
import { decodeWtf8 } from "../wtf8.js";

/** The ids of a DAG's nodes by position: what a report needs of its DAG. */
export interface NodeIds {
  readonly nodeCount: number;
  idAt(position: number): string;
}

export function nodeIdsOf(dag: Dag): NodeIds {
  return { nodeCount: dag.nodes.length, idAt: (position) => dag.nodes[position]?.id as string };
}

export class KernelHeaderDag implements NodeIds {
  readonly nodeCount: number;
  private made: Dag | null = null;

  constructor(
    private readonly kernel: KernelExports,
    /** The header line, the session's own copy of it. */
    readonly line: Uint8Array,
    private readonly file: string,
  ) {
    this.nodeCount = kernel.nodes();
  }

  /** Read while the kernel holds this DAG (a session reads its report before the next starts). */
  idAt(position: number): string {
    if (this.made !== null) return this.made.nodes[position]?.id as string;
    const pointer = this.kernel.nodeIdPointer(position);
    return decodeWtf8(
      new Uint8Array(this.kernel.memory.buffer, pointer, this.kernel.nodeIdLength(position)),
    );
  }

  /** The reference's DAG of the same header: the same nodes in the same positions. */
  dag(): Dag {
    this.made ??= dagOfHeader(readJsonlHeader(this.line, this.file)) as Dag;
    return this.made;
  }
}

/** The reference's DAG, whichever way it was read. */
export function referenceDag(dag: Dag | KernelHeaderDag): Dag {
  return dag instanceof KernelHeaderDag ? dag.dag() : dag;
}

/** The ids of a DAG, whichever way it was read. */
export function idsOf(dag: Dag | KernelHeaderDag): NodeIds {
  return dag instanceof KernelHeaderDag ? dag : nodeIdsOf(dag);
}
