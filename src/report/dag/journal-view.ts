/**
 * What the HTML report shows of one audited dag journal, as plain data: the report itself, and —
 * when the journal could be read again — each finding in context and the DAG with final
 * statuses. Gathering it (reading, replaying) and rendering it are separate steps, so the renderer
 * is a pure function of this data that a browser page can call as well as the command line.
 * Every field is JSON-serialisable, so a view can cross a worker boundary.
 *
 * Everything quoted from a journal is bounded, so that no journal can make the page huge: a few
 * lines of context per finding and a prefix of each line (src/report/quote-lines.ts), a prefix of
 * each surface, and a DAG drawn node by node only while it is small (here).
 */

import type { IntegrityReason } from "../../models/dag/events.js";
import type { StepInvariantName } from "../../models/dag/invariants.js";
import type { Report } from "../../models/dag/report.js";
import type { Deposit, Status } from "../../models/dag/state.js";
import type { IllegalityReason } from "../../models/dag/transitions.js";
import type { QuotedEvent } from "../quote-lines.js";
import type { JournalView } from "../views.js";

/** Paths listed of one surface (before, after, added, dropped); the count says how many more. */
export const SURFACE_PATHS_LISTED_MAX = 20;
/** Dependencies listed with their status under a dispatch that broke the schedule. */
export const DEPENDENCIES_LISTED_MAX = 20;
/** Characters shown of a surface that is not a list of paths, as JSON. */
export const MALFORMED_SURFACE_CHARS_MAX = 200;
/**
 * Nodes drawn one by one; a larger DAG is summarised by layer (status counts), because a
 * drawing of thousands of boxes says nothing at a glance and makes the page heavy.
 */
export const DAG_NODES_DRAWN_MAX = 300;
/** Rows of a summarised DAG: a long chain of layers would otherwise be a table of thousands. */
export const LAYER_ROWS_MAX = 40;

export type DagJournalView = JournalView<Report, JournalContext>;

export interface JournalContext {
  readonly gathered: true;
  /** In journal order: event findings by index, the tamper finding and the torn tail last. */
  readonly findings: readonly Finding[];
  readonly dag: DagView;
}

export type Finding = EventFinding | TamperFinding | TornTailFinding;

/** One event, every rule it broke, the events before it and its node's state around it. */
export interface EventFinding {
  readonly kind: "event";
  readonly index: number;
  readonly line?: number;
  /** The event's kind and node, when it has them as strings (a malformed line may not). */
  readonly eventKind: string | null;
  readonly node: string | null;
  readonly broken: readonly BrokenRule[];
  /** The events before it, oldest first, then the event itself. */
  readonly quoted: readonly QuotedEvent[];
  /** The node's state just before the event; null when the event names no node of the DAG. */
  readonly before: NodeStateView | null;
  /** Just after it; null also when the fold stopped at it (an integrity error). */
  readonly after: NodeStateView | null;
  /** How the event changed the node's surface, when both states are known. */
  readonly surfaceChange: SurfaceChange | null;
  /**
   * For a dispatch that broke the schedule: the status of each of the node's dependencies just
   * before it (the first `DEPENDENCIES_LISTED_MAX`), which is what the rule judges.
   */
  readonly dependencies: readonly { readonly id: string; readonly status: Status }[] | null;
}

export type BrokenRule =
  | { readonly rule: "invariant"; readonly name: StepInvariantName }
  | { readonly rule: "illegal"; readonly reason: IllegalityReason }
  | { readonly rule: "integrity"; readonly reason: IntegrityReason; readonly message: string };

/** tamperEvident is a property of the final state, not of one event: its nodes as they ended. */
export interface TamperFinding {
  readonly kind: "tamper";
  readonly nodes: readonly { readonly id: string; readonly final: NodeStateView | null }[];
}

export interface TornTailFinding {
  readonly kind: "torn-tail";
  readonly line: number;
  readonly offset: number;
  /** The last events before it, then the unfinished line itself. */
  readonly quoted: readonly QuotedEvent[];
}

export interface NodeStateView {
  readonly status: Status;
  readonly phase: number;
  readonly deposit: Deposit | null;
  readonly surface: SurfaceView;
}

export type SurfaceView =
  | { readonly well: "paths"; readonly paths: readonly string[]; readonly total: number }
  | { readonly well: "malformed"; readonly json: string };

export interface SurfaceChange {
  readonly added: readonly string[];
  readonly addedTotal: number;
  readonly dropped: readonly string[];
  readonly droppedTotal: number;
}

export type DagView = DrawnDag | SummarisedDag;

/** Kahn layers (docs/models/dag.md, "The DAG"), each node with its deps and the status it ended in. */
export interface DrawnDag {
  readonly drawn: true;
  readonly layers: readonly (readonly DagNodeView[])[];
  /** Whether the statuses are those before an integrity error rather than at the end. */
  readonly beforeIntegrityError: boolean;
}

export interface DagNodeView {
  readonly id: string;
  readonly deps: readonly string[];
  readonly status: Status;
}

export interface SummarisedDag {
  readonly drawn: false;
  readonly nodes: number;
  readonly layers: number;
  /**
   * How many nodes ended in each status, per Kahn layer; past `LAYER_ROWS_MAX` layers, the last
   * row sums up all the rest.
   */
  readonly rows: readonly LayerRow[];
  readonly beforeIntegrityError: boolean;
}

export interface LayerRow {
  /** The 1-based Kahn layers the row counts, first to last. */
  readonly first: number;
  readonly last: number;
  readonly counts: Readonly<Record<Status, number>>;
}
