/** What an executive snapshot's body holds (src/snapshot-format.ts). */
import type { SnapshotBody } from "../../src/snapshot-format.js";

export interface ExecutiveSnapshotBody extends SnapshotBody {
  readonly model: "executive";
  /** The journal's first line, its header: the run's spec and budget (the prefix covers it). */
  readonly header: string;
  /** The machine's state over the lines audited, as an executive snapshot's text. */
  readonly machine: string;
  /** The report block, its recorded-decision pointers zeroed. */
  readonly report: Uint8Array;
  /** Each listed mismatch's recorded decision, as the journal spelled it. */
  readonly recorded: readonly string[];
}
