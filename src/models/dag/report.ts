/**
 * The audit report (docs/models/dag.md, "The report"): one shape for every engine and every journal format. `line` is
 * present beside every `index` when the events came from a journal file.
 */

import type { TornTail } from "../journal-source.js";
import type { IntegrityReason } from "./events.js";
import type { Status } from "./state.js";
import type { IllegalityReason } from "./transitions.js";

export interface IntegrityReport {
  readonly index: number;
  readonly line?: number;
  readonly reason: IntegrityReason;
  readonly message: string;
}

export type StepVerdict =
  | { readonly holds: true }
  | {
      readonly holds: false;
      readonly index: number;
      readonly line?: number;
      readonly node: string;
    };

export type TamperVerdict =
  | { readonly holds: true }
  | { readonly holds: false; readonly nodes: readonly string[] };

export interface InvariantsReport {
  readonly phaseMonotonic: StepVerdict;
  readonly noPendingProven: StepVerdict;
  readonly tamperEvident: TamperVerdict;
  readonly dagPreserved: StepVerdict;
  readonly scheduleCorrect: StepVerdict;
  readonly surfaceMonotonic: StepVerdict;
}

export const INVARIANT_NAMES = [
  "phaseMonotonic",
  "noPendingProven",
  "tamperEvident",
  "dagPreserved",
  "scheduleCorrect",
  "surfaceMonotonic",
] as const satisfies readonly (keyof InvariantsReport)[];

export interface IllegalEvent {
  readonly index: number;
  readonly line?: number;
  readonly kind: string;
  readonly node: string;
  readonly reason: IllegalityReason;
}

/** How many illegal events a report lists; it counts all of them. */
export const ILLEGAL_EVENTS_LISTED_MAX = 10;

export interface Report {
  /** The model the journal was audited against (docs/report.md). */
  readonly model: "dag";
  readonly conformant: boolean;
  readonly strictlyConformant: boolean;
  /** Events in the log (lines that are neither blank, the header, nor a torn tail). */
  readonly events: number;
  readonly integrity: IntegrityReport | null;
  readonly tornTail: TornTail | null;
  readonly invariants: InvariantsReport;
  readonly legality: { readonly illegal: number; readonly first: readonly IllegalEvent[] };
  /** Node counts by status in the last state the fold reached. */
  readonly final: { readonly counts: Readonly<Record<Status, number>> };
}
