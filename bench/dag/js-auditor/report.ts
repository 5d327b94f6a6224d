/** The report of docs/models/dag.md from the state a JSONL audit ended in. */
import type { Dag } from "../../../src/models/dag/dag.js";
import {
  EVENT_KINDS,
  type IntegrityFault,
  integrityMessage,
} from "../../../src/models/dag/events.js";
import type {
  IllegalEvent,
  IntegrityReport,
  InvariantsReport,
  Report,
  StepVerdict,
} from "../../../src/models/dag/report.js";
import { STATUSES, type Status } from "../../../src/models/dag/state.js";
import type { Fault, JsonlAudit } from "./jsonl-audit.js";
import { STEP_INVARIANTS, Status as StatusCode } from "./node-states.js";

export function buildReport(dag: Dag, audit: JsonlAudit): Report {
  const states = audit.states;
  const idOf = (node: number) => dag.nodes[node]?.id as string;
  const step = (name: (typeof STEP_INVARIANTS)[number]): StepVerdict => {
    const invariant = STEP_INVARIANTS.indexOf(name);
    const index = states.violationIndex[invariant] as number;
    if (index < 0) return { holds: true };
    const line = states.violationLine[invariant] as number;
    return { holds: false, index, line, node: idOf(states.violationNode[invariant] as number) };
  };
  const tampered = dag.nodes
    .filter((_, node) => states.status[node] === StatusCode.PROVEN && states.passLogged[node] === 0)
    .map((node) => node.id);
  const invariants: InvariantsReport = {
    phaseMonotonic: step("phaseMonotonic"),
    noPendingProven: step("noPendingProven"),
    tamperEvident: tampered.length === 0 ? { holds: true } : { holds: false, nodes: tampered },
    dagPreserved: step("dagPreserved"),
    scheduleCorrect: step("scheduleCorrect"),
    surfaceMonotonic: step("surfaceMonotonic"),
  };
  const first: IllegalEvent[] = states.illegalListed.map((entry) => ({
    index: entry.index,
    line: entry.line,
    kind: EVENT_KINDS[entry.kind] as string,
    node: idOf(entry.node),
    reason: entry.reason,
  }));
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<
    Status,
    number
  >;
  for (const code of states.status) counts[STATUSES[code] as Status] += 1;
  const integrity = audit.fault === null ? null : integrityReport(dag, audit.fault);
  const conformant =
    integrity === null && Object.values(invariants).every((verdict) => verdict.holds);
  return {
    model: "dag",
    conformant,
    strictlyConformant: conformant && states.illegalCount === 0,
    events: audit.events,
    integrity,
    tornTail: audit.tornTail,
    invariants,
    legality: { illegal: states.illegalCount, first },
    final: { counts },
  };
}

function integrityReport(dag: Dag, fault: Fault): IntegrityReport {
  return {
    index: fault.index,
    line: fault.line,
    reason: fault.reason,
    message: integrityMessage(faultOf(dag, fault)),
  };
}

/** The fault as the model names it; an unknown id or kind is read back from the line's JSON. */
function faultOf(dag: Dag, fault: Fault): IntegrityFault {
  switch (fault.reason) {
    case "malformed-event":
      return { reason: fault.reason, subject: fault.detail as string };
    case "discharge-without-deposit":
      return { reason: fault.reason, subject: dag.nodes[fault.detail as number]?.id as string };
    case "unknown-node":
      return { reason: fault.reason, subject: JSON.parse(fault.detail as string).id };
    case "unknown-kind":
      return { reason: fault.reason, subject: JSON.parse(fault.detail as string).kind };
    default: {
      const unreachable: never = fault.reason;
      return unreachable;
    }
  }
}
