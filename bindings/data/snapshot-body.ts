/** What a snapshot's body holds for a journal audited with a model defined by data (src/snapshot-format.ts). */
import type { DATA_MODEL_SNAPSHOT, SnapshotBody } from "../../src/snapshot-format.js";

export interface DataSnapshotBody extends SnapshotBody {
  readonly model: typeof DATA_MODEL_SNAPSHOT;
  /** The model file's `name`. */
  readonly dataModel: string;
  /** The SHA-256 of the table the model was packed to (bindings/data/pack-model.ts): a snapshot resumes only with the same compiled model. */
  readonly table: string;
  /** The kernel's state (assembly/data/snapshot.ts). */
  readonly state: Uint8Array;
}
