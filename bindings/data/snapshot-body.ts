/** What a snapshot's body holds for a journal audited with a model defined by data (src/snapshot-format.ts). */
import type { SnapshotBody } from "../../src/snapshot-format.js";

export interface DataSnapshotBody extends SnapshotBody {
  /**
   * The SHA-256 of the table the model was packed to (bindings/data/pack-model.ts): a snapshot
   * resumes only with the model (`model`, the file's `name`) compiled as it was.
   */
  readonly table: string;
  /** The kernel's state (assembly/data/snapshot.ts). */
  readonly state: Uint8Array;
}
