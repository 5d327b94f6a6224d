/** What an operations snapshot's body holds (src/snapshot-format.ts). */
import type { SnapshotBody } from "../../src/snapshot-format.js";

export interface OperationsSnapshotBody extends SnapshotBody {
  readonly model: "operations";
  /** The kernel's state (assembly/operations/snapshot.ts). */
  readonly state: Uint8Array;
}
