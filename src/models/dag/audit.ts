/**
 * `audit(dag, events)`: the report of docs/models/dag.md, built from the literal predicates. The fold
 * stops at a log-integrity fault; the predicates and legality are then judged over the prefix
 * before it.
 */

import type { AuditSource } from "../journal-source.js";
import type { Dag } from "./dag.js";
import { integrityMessage, LogIntegrityError } from "./events.js";
import {
  STEP_INVARIANT_NAMES,
  type StepInvariantName,
  trajectory,
  unjustifiedIn,
  type Violation,
  violationAt,
} from "./invariants.js";
import {
  ILLEGAL_EVENTS_LISTED_MAX,
  type IllegalEvent,
  type IntegrityReport,
  type InvariantsReport,
  type Report,
  type StepVerdict,
} from "./report.js";
import { initialState, type ModelState, type Semantics, STATUSES, type Status } from "./state.js";
import { eventLegality } from "./transitions.js";

/** `semantics` are the reference's when not given; explore's mutants give their own. */
export function audit(
  dag: Dag,
  events: readonly unknown[],
  source: AuditSource = {},
  semantics?: Semantics,
): Report {
  const lineOf = (index: number) =>
    source.lines === undefined ? {} : { line: source.lines[index] as number };

  // One pass over the trajectory judges every step predicate and every event's legality: the
  // same verdicts as each predicate over the prefix before a fault, for one fold instead of one
  // per predicate.
  const violations = new Map<StepInvariantName, Violation>();
  const illegal: IllegalEvent[] = [];
  let illegalCount = 0;
  let final = initialState(dag, semantics);
  let fault: LogIntegrityError | null = null;
  try {
    for (const step of trajectory(dag, events, semantics)) {
      for (const name of STEP_INVARIANT_NAMES) {
        if (violations.has(name)) continue;
        const node = violationAt(name, step);
        if (node !== null) violations.set(name, { index: step.index, node });
      }
      const reason = eventLegality(step.before, step.event);
      if (reason !== null) {
        illegalCount += 1;
        if (illegal.length < ILLEGAL_EVENTS_LISTED_MAX) {
          const { index, event } = step;
          illegal.push({ index, ...lineOf(index), kind: event.kind, node: event.id, reason });
        }
      }
      final = step.after;
    }
  } catch (error) {
    if (!(error instanceof LogIntegrityError)) throw error;
    fault = error;
  }

  const stepVerdict = (name: StepInvariantName): StepVerdict => {
    const violation = violations.get(name);
    return violation === undefined
      ? { holds: true }
      : { holds: false, index: violation.index, ...lineOf(violation.index), node: violation.node };
  };
  const tampered = unjustifiedIn(final);
  const invariants: InvariantsReport = {
    phaseMonotonic: stepVerdict("phaseMonotonic"),
    noPendingProven: stepVerdict("noPendingProven"),
    tamperEvident: tampered.length === 0 ? { holds: true } : { holds: false, nodes: tampered },
    dagPreserved: stepVerdict("dagPreserved"),
    scheduleCorrect: stepVerdict("scheduleCorrect"),
    surfaceMonotonic: stepVerdict("surfaceMonotonic"),
  };

  const integrity: IntegrityReport | null =
    fault === null
      ? null
      : {
          index: fault.index,
          ...lineOf(fault.index),
          reason: fault.reason,
          message: integrityMessage(fault.fault),
        };
  const conformant =
    integrity === null && Object.values(invariants).every((verdict) => verdict.holds);
  return {
    model: "dag",
    conformant,
    strictlyConformant: conformant && illegalCount === 0,
    events: events.length,
    integrity,
    tornTail: source.tornTail ?? null,
    invariants,
    legality: { illegal: illegalCount, first: illegal },
    final: { counts: statusCounts(final) },
  };
}

/** The last state the fold reaches, and the integrity fault that stopped it if one did. */
export function foldUntilFault(
  dag: Dag,
  events: readonly unknown[],
  semantics?: Semantics,
): { final: ModelState; fault: LogIntegrityError | null } {
  let final = initialState(dag, semantics);
  try {
    for (const step of trajectory(dag, events, semantics)) final = step.after;
    return { final, fault: null };
  } catch (error) {
    if (error instanceof LogIntegrityError) return { final, fault: error };
    throw error;
  }
}

function statusCounts(state: ModelState): Record<Status, number> {
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<
    Status,
    number
  >;
  for (const node of state.nodes) counts[node.status] += 1;
  return counts;
}
