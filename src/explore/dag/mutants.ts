/**
 * The dag model's mutants (docs/explore.md, "Mutants"): deliberate one-line changes of the
 * reference's meaning, each replacing one case of the fold's effect or of the transitions'
 * preconditions, hunted by src/explore/mutants.ts. The answers compared are the report and the
 * final node states (what `statefold replay` prints).
 */
import { audit, foldUntilFault } from "../../models/dag/audit.js";
import type { Dag } from "../../models/dag/dag.js";
import type { KnownEvent, Refusal } from "../../models/dag/events.js";
import { LogIntegrityError } from "../../models/dag/events.js";
import { applyEvent, transitionEvent } from "../../models/dag/fold.js";
import { INVARIANT_NAMES, type Report } from "../../models/dag/report.js";
import {
  type Deposit,
  initialState,
  loggedEvents,
  type ModelState,
  type NodeState,
  type Semantics,
  TERMINAL_STATUSES,
} from "../../models/dag/state.js";
import { precondition } from "../../models/dag/transitions.js";
import { type HuntedModel, hunt } from "../mutants.js";
import { rulesByRecord } from "./counterexample.js";
import { type DagConfiguration, dagSubject, keyOf } from "./subject.js";

export interface DagMutant {
  readonly name: string;
  readonly description: string;
  readonly semantics: Semantics;
  /** What a configuration lacks for the change to ever matter (a dependency, say), or null when it has it. */
  readonly unexercisedBy?: (configuration: DagConfiguration) => string | null;
}

type Effect = Semantics["effect"];
type RefusalCheck = (state: ModelState, node: NodeState, event: KnownEvent) => Refusal | null;

/** The reference's semantics with the effect of one kind of event replaced. */
function effectOf(kind: KnownEvent["kind"], effect: Effect): Semantics {
  return {
    effect: (node, event) => (event.kind === kind ? effect(node, event) : applyEvent(node, event)),
    refusal: precondition,
  };
}

/** The reference's semantics with the precondition of one kind of event replaced. */
function refusalOf(kind: KnownEvent["kind"], refusal: RefusalCheck): Semantics {
  return {
    effect: applyEvent,
    refusal: (state, node, event) =>
      event.kind === kind ? refusal(state, node, event) : precondition(state, node, event),
  };
}

export const DAG_MUTANTS: readonly DagMutant[] = [
  {
    name: "gate-timeout-passes",
    description: "a gate check that timed out is counted as a pass",
    semantics: effectOf("gate-checked", (node, event) =>
      applyEvent(node, { ...event, result: event.result === "timeout" ? "pass" : event.result }),
    ),
  },
  {
    name: "quarantine-keeps-phase",
    description: "quarantine leaves the phase where it was instead of advancing it",
    semantics: effectOf("quarantined", (node, event) => {
      const after = applyEvent(node, event);
      return {
        ...after,
        phase: node.phase,
        deposit: { ...(after.deposit as Deposit), phase: node.phase },
      };
    }),
  },
  {
    name: "discharge-forgets-mode",
    description: "a discharge records its deposit as gated, not in the mode it was deposited in",
    semantics: effectOf("discharged", (node, event) => {
      const after = applyEvent(node, event);
      return { ...after, deposit: { ...(after.deposit as Deposit), mode: "gated" } };
    }),
  },
  {
    name: "failed-gate-requeues",
    description: "a failed gate check sends the node back to queued instead of to rework",
    semantics: effectOf("gate-checked", (node, event) => {
      const after = applyEvent(node, event);
      return after.status === "rework" ? { ...after, status: "queued" } : after;
    }),
  },
  {
    name: "discharge-pass-stays-pending",
    description: "a passing discharge proves the node but leaves its deposit pending",
    semantics: effectOf("discharged", (node, event) => {
      const after = applyEvent(node, event);
      return event.result === "pass"
        ? { ...after, deposit: { ...(after.deposit as Deposit), validation: "pending" } }
        : after;
    }),
  },
  {
    name: "land-drops-surface",
    unexercisedBy: ({ paths }) => (paths === 0 ? "no surface path to widen by (--paths 0)" : null),
    description: "landing forgets the node's surface",
    semantics: effectOf("landed", (node, event) => ({ ...applyEvent(node, event), surface: [] })),
  },
  {
    name: "land-keeps-old-deposit",
    description: "landing keeps the node's previous deposit instead of making a pending one",
    semantics: effectOf("landed", (node, event) => ({
      ...applyEvent(node, event),
      deposit: node.deposit,
    })),
  },
  {
    name: "dispatch-ignores-dependencies",
    unexercisedBy: ({ nodes, dag }) =>
      (dag === undefined ? nodes < 2 : dag.nodes.every((node) => node.deps.length === 0))
        ? "no node has a dependency"
        : null,
    description: "dispatch does not check that the node's dependencies are proven",
    semantics: refusalOf("dispatched", (_, node) =>
      node.status === "queued" || node.status === "rework" ? null : "wrong-status",
    ),
  },
  {
    name: "rework-not-redispatchable",
    description: "a node sent to rework cannot be dispatched again",
    semantics: refusalOf("dispatched", (state, node, event) =>
      node.status === "rework" ? "wrong-status" : precondition(state, node, event),
    ),
  },
  {
    name: "skip-after-terminal",
    description: "skip is accepted on a node that is already terminal",
    semantics: refusalOf("skipped", () => null),
  },
  {
    name: "escalated-not-terminal",
    description: "an escalated node is not terminal: it can still be skipped, escalated or widened",
    semantics: {
      effect: applyEvent,
      refusal: (state, node, event) =>
        node.status === "escalated" &&
        (event.kind === "skipped" || event.kind === "escalated" || event.kind === "surface-widened")
          ? precondition(state, { ...node, status: "queued" }, event)
          : precondition(state, node, event),
    },
  },
  {
    name: "quarantine-from-dispatched",
    description: "quarantine is accepted on a dispatched node that has not landed",
    semantics: refusalOf("quarantined", (_, node) =>
      node.status === "landed" || node.status === "dispatched" ? null : "wrong-status",
    ),
  },
  {
    name: "discharge-from-landed",
    description: "discharge is accepted on a landed node that was never quarantined",
    semantics: refusalOf("discharged", (state, node, event) =>
      precondition(
        state,
        node.status === "landed" ? { ...node, status: "quarantined" } : node,
        event,
      ),
    ),
  },
  {
    name: "widen-after-terminal",
    description: "a terminal node's surface can still be widened",
    semantics: refusalOf("surface-widened", (state, node, event) =>
      precondition(
        state,
        TERMINAL_STATUSES.has(node.status) ? { ...node, status: "queued" } : node,
        event,
      ),
    ),
  },
];

/** What the model says of a journal: its report, and the state its fold reaches. */
interface Answer {
  readonly report: Report;
  readonly nodes: readonly NodeState[];
}

function answerOf(dag: Dag, events: readonly unknown[], semantics?: Semantics): Answer {
  return {
    report: audit(dag, events, {}, semantics),
    nodes: foldUntilFault(dag, events, semantics).final.nodes,
  };
}

/**
 * The first part of the answers in which the mutant and the reference differ — `integrity`, an
 * invariant, `legality`, `final` (the report's counts), or `state of node X` — or null when they
 * agree.
 */
function firstDifference(dag: Dag, reference: Answer, mutant: Answer): string | null {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(reference.report.integrity, mutant.report.integrity)) return "integrity";
  for (const name of INVARIANT_NAMES) {
    if (!same(reference.report.invariants[name], mutant.report.invariants[name])) return name;
  }
  if (!same(reference.report.legality, mutant.report.legality)) return "legality";
  if (!same(reference.report.final, mutant.report.final)) return "final";
  const node = dag.nodes.findIndex((_, i) => !same(reference.nodes[i], mutant.nodes[i]));
  return node < 0 ? null : `state of node ${dag.nodes[node]?.id}`;
}

export function differenceOf(
  dag: Dag,
  events: readonly unknown[],
  semantics: Semantics,
): string | null {
  return firstDifference(dag, answerOf(dag, events), answerOf(dag, events, semantics));
}

/** What one machine says of the kill's journal. */
export interface Told {
  /** The rules each record breaks, by this machine's audit. */
  readonly rules: readonly string[][];
  /** The state its fold reaches. */
  readonly nodes: readonly NodeState[];
}

export interface Kill {
  readonly dag: Dag;
  /** Whose public actions made the journal that first told them apart. */
  readonly madeBy: "reference" | "mutant";
  /** The minimal journal that tells them apart. */
  readonly journal: readonly unknown[];
  /** The part of the answer that differs (`differenceOf`). */
  readonly differs: string;
  readonly reference: Told;
  readonly mutant: Told;
}

export interface MutantVerdict {
  readonly mutant: DagMutant;
  /** Distinct pairs of states explored until it was killed, or all of them. */
  readonly distinctStates: number;
  readonly kill: Kill | null;
}

/** The dag model as the hunt drives it: a journal's events, its audit and its fold. */
function huntedDag(configuration: DagConfiguration): HuntedModel<ModelState, Semantics> {
  const machine = dagSubject(configuration);
  return {
    *initialStates(semantics) {
      for (const { state } of machine.initialStates()) yield initialState(state.dag, semantics);
    },
    successors: (state) => machine.successors(state),
    key: keyOf,
    follow(other, next) {
      try {
        return transitionEvent(other, next.log?.event);
      } catch (error) {
        if (error instanceof LogIntegrityError) return null;
        throw error;
      }
    },
    journal: loggedEvents,
    difference: (from, journal, semantics) => differenceOf(from.dag, journal, semantics),
    makeable(from, journal, semantics) {
      const report = audit(from.dag, journal, {}, semantics);
      return report.integrity === null && report.legality.illegal === 0;
    },
  };
}

/** Explores until a journal tells the mutant from the reference, and shrinks that journal. */
export async function huntMutant(
  configuration: DagConfiguration,
  depth: number,
  mutant: DagMutant,
): Promise<MutantVerdict> {
  const { distinctStates, found } = await hunt(huntedDag(configuration), depth, mutant.semantics);
  if (found === null) return { mutant, distinctStates, kill: null };
  const { dag } = found.state;
  const { journal } = found;
  const told = (answer: Answer): Told => ({
    rules: rulesByRecord(answer.report, journal),
    nodes: answer.nodes,
  });
  return {
    mutant,
    distinctStates,
    kill: {
      dag,
      madeBy: found.madeBy,
      journal,
      differs: found.differs,
      reference: told(answerOf(dag, journal)),
      mutant: told(answerOf(dag, journal, mutant.semantics)),
    },
  };
}
