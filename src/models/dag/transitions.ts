/**
 * The eight public transitions. Each is total: it checks its preconditions in the order of
 * docs/models/dag.md, "Transitions" and either rejects — returning the very same state object and logging nothing — or
 * builds the event and delegates to the fold. The same checks judge the legality of a logged
 * event (`eventLegality`), so "legal" means exactly "the public API could have produced it".
 */
import type { EventKind, KnownEvent, Refusal, RejectionReason } from "./events.js";
import { transitionEvent } from "./fold.js";
import {
  isStringArray,
  keepsSurface,
  type ModelState,
  type NodeState,
  nodeState,
  surfacePaths,
  surfacePayload,
  TERMINAL_STATUSES,
} from "./state.js";

export type { Refusal, RejectionReason } from "./events.js";

/** Why a logged event is illegal: an API rejection, or a surface event that drops paths. */
export type IllegalityReason = Refusal | "surface-shrinks";

export type Outcome = "ok" | { readonly rejected: RejectionReason };

export interface TransitionResult {
  readonly state: ModelState;
  readonly outcome: Outcome;
}

export const GATE_RESULTS: readonly unknown[] = ["pass", "fail", "timeout"];
export const DISCHARGE_RESULTS: readonly unknown[] = ["pass", "fail"];

export function dispatch(state: ModelState, id: string): TransitionResult {
  return attempt(state, id, { kind: "dispatched", id });
}
export function land(state: ModelState, id: string): TransitionResult {
  return attempt(state, id, { kind: "landed", id });
}
export function gateCheck(state: ModelState, id: string, result: unknown): TransitionResult {
  return attempt(state, id, { kind: "gate-checked", id, result });
}
export function quarantine(state: ModelState, id: string): TransitionResult {
  return attempt(state, id, { kind: "quarantined", id });
}
export function discharge(state: ModelState, id: string, result: unknown): TransitionResult {
  return attempt(state, id, { kind: "discharged", id, result });
}
export function skip(state: ModelState, id: string): TransitionResult {
  return attempt(state, id, { kind: "skipped", id });
}
export function escalate(state: ModelState, id: string): TransitionResult {
  return attempt(state, id, { kind: "escalated", id });
}

/**
 * Logs `surface-widened U` with U = current ∪ S (current paths first, then new ones in S's order);
 * a missing or null S is the empty list. The API never stores a malformed surface, so `current`
 * is an array of strings on every state the API alone has made.
 */
export function widenSurface(state: ModelState, id: string, surface: unknown): TransitionResult {
  const node = nodeState(state, id);
  const paths = surfacePayload(surface);
  const union =
    node !== undefined && isStringArray(paths)
      ? [...new Set([...surfacePaths(node.surface), ...paths])]
      : paths;
  return attempt(state, id, { kind: "surface-widened", id, surface: union });
}

function attempt(state: ModelState, id: string, event: KnownEvent): TransitionResult {
  const node = nodeState(state, id);
  if (node === undefined) return { state, outcome: { rejected: "unknown-node" } };
  const rejected = (state.semantics?.refusal ?? precondition)(state, node, event);
  if (rejected !== null) return { state, outcome: { rejected } };
  return { state: transitionEvent(state, event), outcome: "ok" };
}

/**
 * The checks of docs/models/dag.md, "Transitions", for the transition that logs `event`, given
 * the named node's state (the reference's `Semantics.refusal`).
 */
export function precondition(
  state: ModelState,
  node: NodeState,
  event: KnownEvent,
): Refusal | null {
  const kind: EventKind = event.kind;
  switch (kind) {
    case "dispatched":
      if (node.status !== "queued" && node.status !== "rework") return "wrong-status";
      return dependenciesProven(state, event.id) ? null : "dependencies-not-proven";
    case "landed":
      return node.status === "dispatched" ? null : "wrong-status";
    case "gate-checked":
      if (node.status !== "landed") return "wrong-status";
      return GATE_RESULTS.includes(event.result) ? null : "invalid-result";
    case "quarantined":
      return node.status === "landed" ? null : "wrong-status";
    case "discharged":
      if (node.status !== "quarantined") return "wrong-status";
      return DISCHARGE_RESULTS.includes(event.result) ? null : "invalid-result";
    case "skipped":
    case "escalated":
      return TERMINAL_STATUSES.has(node.status) ? "already-terminal" : null;
    case "surface-widened":
      if (TERMINAL_STATUSES.has(node.status)) return "already-terminal";
      return isStringArray(surfacePayload(event.surface)) ? null : "invalid-surface";
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/**
 * Why a logged (well-formed, known-node, known-kind) event is one the public API could not have
 * produced, or null when it could. The API logs the union of the current surface and its
 * argument, so a surface event must also keep every current path — of the surface the fold
 * stored, as stored (`keepsSurface`).
 */
export function eventLegality(state: ModelState, event: KnownEvent): IllegalityReason | null {
  const node = nodeState(state, event.id) as NodeState;
  const rejected = (state.semantics?.refusal ?? precondition)(state, node, event);
  if (rejected !== null || event.kind !== "surface-widened") return rejected;
  return keepsSurface(surfacePayload(event.surface), node.surface) ? null : "surface-shrinks";
}

export function dependenciesProven(state: ModelState, id: string): boolean {
  const position = state.dag.positionById.get(id) as number;
  const deps = state.dag.nodes[position]?.deps ?? [];
  return deps.every((dep) => nodeState(state, dep)?.status === "proven");
}
