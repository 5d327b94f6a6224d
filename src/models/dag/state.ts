/**
 * Node state and model state. A model state is immutable: every transition returns a new one
 * that shares the unchanged node states with its predecessor.
 */
import type { Dag } from "./dag.js";
import type { Event, KnownEvent, Refusal } from "./events.js";

export const STATUSES = [
  "queued",
  "dispatched",
  "landed",
  "proven",
  "quarantined",
  "rework",
  "skipped",
  "escalated",
] as const;
export type Status = (typeof STATUSES)[number];

/** Absorbing statuses: no public transition starts from them. */
export const TERMINAL_STATUSES: ReadonlySet<Status> = new Set(["proven", "skipped", "escalated"]);

export type Validation = "pending" | "proven" | "failed";
export type GateMode = "gated" | "degraded";

export interface Deposit {
  readonly validation: Validation;
  readonly mode: GateMode;
  readonly phase: number;
}

export interface NodeState {
  readonly status: Status;
  readonly phase: number;
  readonly deposit: Deposit | null;
  /**
   * The node's file surface. The public API only ever stores an array of strings, but the fold
   * stores a logged payload verbatim, so a raw journal can put anything here; the
   * surfaceMonotonic invariant is what judges it.
   */
  readonly surface: unknown;
}

/** The event log, newest first, sharing its tail with every earlier state's log. */
export type EventLog = {
  readonly event: Event;
  readonly length: number;
  readonly earlier: EventLog;
} | null;

export interface ModelState {
  readonly dag: Dag;
  /** One state per DAG node, in DAG order. */
  readonly nodes: readonly NodeState[];
  readonly log: EventLog;
  /** Absent on the reference's states: they follow docs/models/dag.md. */
  readonly semantics?: Semantics;
}

/**
 * The model's meaning, in the two places explore's mutants change it (docs/explore.md,
 * "Mutants"): what a well-formed event does to its node (the fold), and why the public API
 * refuses the transition that would log an event (the preconditions, which also judge legality).
 * A state carries the semantics that made it, so every transition from it, and the fold of a
 * journal started from it, keep them.
 */
export interface Semantics {
  readonly effect: (node: NodeState, event: KnownEvent) => NodeState;
  readonly refusal: (state: ModelState, node: NodeState, event: KnownEvent) => Refusal | null;
}

const QUEUED: NodeState = Object.freeze({
  status: "queued",
  phase: 0,
  deposit: null,
  surface: Object.freeze([]),
});

export function initialState(dag: Dag, semantics?: Semantics): ModelState {
  const nodes = Object.freeze(dag.nodes.map(() => QUEUED));
  return Object.freeze(
    semantics === undefined ? { dag, nodes, log: null } : { dag, nodes, log: null, semantics },
  );
}

export function nodeState(state: ModelState, id: string): NodeState | undefined {
  const position = state.dag.positionById.get(id);
  return position === undefined ? undefined : state.nodes[position];
}

export function loggedEvents(state: ModelState): Event[] {
  const events: Event[] = [];
  for (let entry = state.log; entry !== null; entry = entry.earlier) events.push(entry.event);
  return events.reverse();
}

export function logLength(state: ModelState): number {
  return state.log?.length ?? 0;
}

export function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * A surface payload as the model reads it: a missing or null one is the empty list, as `nil` is
 * in the original Lisp model (docs/models/dag.md, "Surfaces").
 */
export function surfacePayload(surface: unknown): unknown {
  return surface ?? [];
}

/** The paths of a surface; a malformed surface (only a raw log can make one) holds none. */
export function surfacePaths(surface: unknown): readonly string[] {
  return isStringArray(surface) ? surface : [];
}

/**
 * Whether the surface `next` keeps every path of `current`. Only an array of strings keeps
 * anything, and a malformed `current` (only a raw log can store one) is kept by nothing: it is
 * compared as stored, never read as empty.
 */
export function keepsSurface(next: unknown, current: unknown): boolean {
  if (!isStringArray(next) || !isStringArray(current)) return false;
  const paths = new Set(next);
  return current.every((path) => paths.has(path));
}
