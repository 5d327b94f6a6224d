/** What a dag snapshot's body holds (src/snapshot-format.ts): the dag kernel's state as bytes. */
import type { DagNode } from "../../src/models/dag/dag.js";
import type { SnapshotBody } from "../../src/snapshot-format.js";

/** A dag body's `dag` when the DAG is the one the journal's header line carries. */
export const HEADER_DAG = "header";

export interface DagSnapshotBody extends SnapshotBody {
  readonly model: "dag";
  /**
   * The DAG audited against: HEADER_DAG when it is the journal header's (the prefix holds it),
   * else its nodes; null when the journal's first line was not yet seen.
   */
  readonly dag: { readonly nodes: readonly DagNode[] } | typeof HEADER_DAG | null;
  /** The node records, 16 bytes per node. */
  readonly nodeRecords: Uint8Array;
  /** Every interned path's bytes (WTF-8), one after another in id order. */
  readonly pathBytes: Uint8Array;
  /** A u32 (little-endian) per path: where its bytes end in `pathBytes`. */
  readonly pathEnds: Uint8Array;
  /**
   * A u32 per node: how many path ids its surface holds, or `MALFORMED_SURFACE` when the stored
   * payload is malformed; the ids, u32 each, follow one another in `surfaceIds`.
   */
  readonly surfaceLengths: Uint8Array;
  readonly surfaceIds: Uint8Array;
  /** The report block, and the integrity subject it points to. */
  readonly report: Uint8Array;
  readonly subject: Uint8Array;
}

/** A surface length that marks a malformed stored payload (no surface can hold 2³² − 1 ids). */
export const MALFORMED_SURFACE = 0xffffffff;
