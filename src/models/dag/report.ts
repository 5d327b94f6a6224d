/**
 * The audit report (docs/models/dag.md, "The report"): one shape for every engine and every journal format. `line` is
 * present beside every `index` when the events came from a journal file.
 */

import { FINDINGS_LISTED_MAX, type ReportFrame } from "../report-frame.js";
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
export const ILLEGAL_EVENTS_LISTED_MAX = FINDINGS_LISTED_MAX;

/** `final`: node counts by status in the last state the fold reached. */
export type Report = ReportFrame<
  "dag",
  IntegrityReport,
  InvariantsReport,
  IllegalEvent,
  { readonly counts: Readonly<Record<Status, number>> }
>;
