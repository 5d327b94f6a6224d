/**
 * The fold: `transitionEvent` is the single primitive that moves state. Live transitions and
 * replay both route through it, so a live run and the replay of its log reach the same state
 * by construction. It applies a well-formed event without any legality check (the librecode model's
 * semantics); only a log-integrity fault stops it (docs/models/dag.md, "Log integrity").
 */

import { UnparseableLine } from "../journal-source.js";
import type { Dag } from "./dag.js";
import { type IntegrityFault, isEventKind, type KnownEvent, LogIntegrityError } from "./events.js";
import {
  type Deposit,
  initialState,
  logLength,
  type ModelState,
  type NodeState,
  type Semantics,
  surfacePayload,
} from "./state.js";

export function transitionEvent(state: ModelState, event: unknown): ModelState {
  const position = locate(state, event);
  const wellFormed = event as KnownEvent;
  const before = state.nodes[position] as NodeState;
  const after = (state.semantics?.effect ?? applyEvent)(before, wellFormed);
  if (after.deposit !== null) Object.freeze(after.deposit);
  const nodes = state.nodes.slice();
  nodes[position] = Object.freeze(after);
  const next = {
    dag: state.dag,
    nodes: Object.freeze(nodes),
    log: Object.freeze({ event: wellFormed, length: logLength(state) + 1, earlier: state.log }),
  };
  // The reference's states keep one shape; a mutant's carry its semantics on.
  return Object.freeze(
    state.semantics === undefined ? next : { ...next, semantics: state.semantics },
  );
}

export function replay(dag: Dag, events: readonly unknown[], semantics?: Semantics): ModelState {
  // A plain loop, not reduce: reduce skips the holes of a sparse array, and a hole is an event
  // (undefined, so malformed) like any other.
  let state = initialState(dag, semantics);
  for (const event of events) state = transitionEvent(state, event);
  return state;
}

/** The integrity checks, in the order of docs/models/dag.md, "Log integrity"; returns the named node's position. */
function locate(state: ModelState, event: unknown): number {
  const fault = (reason: IntegrityFault["reason"], subject: string) =>
    new LogIntegrityError(logLength(state), { reason, subject });
  if (event instanceof UnparseableLine) throw fault("malformed-event", event.problem);
  if (typeof event !== "object" || event === null || Array.isArray(event)) {
    throw fault("malformed-event", "not-an-object");
  }
  const { kind, id } = event as Record<string, unknown>;
  if (typeof kind !== "string") throw fault("malformed-event", "kind-not-a-string");
  if (typeof id !== "string") throw fault("malformed-event", "id-not-a-string");
  const position = state.dag.positionById.get(id);
  if (position === undefined) throw fault("unknown-node", id);
  if (!isEventKind(kind)) throw fault("unknown-kind", kind);
  if (kind === "discharged" && state.nodes[position]?.deposit === null) {
    throw fault("discharge-without-deposit", id);
  }
  return position;
}

/** What a well-formed event does to its node (the reference's `Semantics.effect`). */
export function applyEvent(node: NodeState, event: KnownEvent): NodeState {
  switch (event.kind) {
    case "dispatched":
      return { ...node, status: "dispatched" };
    case "landed":
      return {
        ...node,
        status: "landed",
        deposit: { validation: "pending", mode: "gated", phase: node.phase },
      };
    case "gate-checked": {
      const phase = node.phase + 1;
      return event.result === "pass"
        ? {
            ...node,
            phase,
            status: "proven",
            deposit: { validation: "proven", mode: "gated", phase },
          }
        : {
            ...node,
            phase,
            status: "rework",
            deposit: { validation: "failed", mode: "gated", phase },
          };
    }
    case "quarantined": {
      const phase = node.phase + 1;
      return {
        ...node,
        phase,
        status: "quarantined",
        deposit: { validation: "pending", mode: "degraded", phase },
      };
    }
    case "discharged": {
      const phase = node.phase + 1;
      const mode = (node.deposit as Deposit).mode;
      return event.result === "pass"
        ? { ...node, phase, status: "proven", deposit: { validation: "proven", mode, phase } }
        : { ...node, phase, status: "rework", deposit: { validation: "failed", mode, phase } };
    }
    case "skipped":
      return { ...node, status: "skipped" };
    case "escalated":
      return { ...node, status: "escalated" };
    case "surface-widened":
      return { ...node, surface: surfacePayload(event.surface) };
    default: {
      const unreachable: never = event.kind;
      return unreachable;
    }
  }
}
