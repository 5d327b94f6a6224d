/**
 * The operations model's mutants (docs/explore.md, "Mutants"): deliberate one-line changes of
 * the reference's meaning — a rule that lets through what it should refuse, a change applied
 * otherwise, the ladder's wait computed otherwise — hunted by src/explore/mutants.ts. The
 * answers compared are the report and the final state (strands, ops, steps, effects, ids).
 */
import { apply } from "../../models/operations/apply.js";
import { audit } from "../../models/operations/audit.js";
import { foldRecord } from "../../models/operations/fold.js";
import { readRecord } from "../../models/operations/read-record.js";
import type { IntentRecord, OperationsRecord } from "../../models/operations/records.js";
import { type OperationsReport, type Reason, RULE_NAMES } from "../../models/operations/report.js";
import { retryWait } from "../../models/operations/retry-wait.js";
import { judge } from "../../models/operations/rules.js";
import {
  initialState,
  type OperationsSemantics,
  type OperationsState,
  withEntry,
} from "../../models/operations/state.js";
import { type HuntedModel, hunt } from "../mutants.js";
import { rulesByRecord } from "./counterexample.js";
import {
  type ExploredOperations,
  keyOf,
  type OperationsConfiguration,
  operationsSubject,
  recordsOf,
  stateText,
} from "./subject.js";

export interface OperationsMutant {
  readonly name: string;
  readonly description: string;
  readonly semantics: OperationsSemantics;
  /** What a configuration lacks for the change to ever matter (a retry, say), or null when it has it. */
  readonly unexercisedBy?: (configuration: OperationsConfiguration) => string | null;
}

/** Null when the configuration lets a step be retried; else why it does not. */
function noRetry({ policy, attempts }: OperationsConfiguration): string | null {
  if (policy.maxAttempts !== null && policy.maxAttempts < 2)
    return "the policy allows no retry (maxAttempts 1)";
  return attempts < 2 ? "no intent is made past attempt 1 (--attempts 1)" : null;
}

const REFERENCE: OperationsSemantics = { judge, apply, retryWait };

/** The reference, but a record refused for `reason` is judged by `instead` (let through by default). */
function allowing(
  reason: Reason,
  instead: (state: OperationsState, record: OperationsRecord) => Reason | null = () => null,
): OperationsSemantics {
  return {
    ...REFERENCE,
    judge: (state, record) => {
      const judged = judge(state, record);
      return judged === reason ? instead(state, record) : judged;
    },
  };
}

/** `state` with the op the record names running again: what a cancel would not have changed. */
function uncancelled(state: OperationsState, op: string): OperationsState {
  const operation = state.operations.get(op);
  if (operation === undefined) return state;
  const running = Object.freeze({ ...operation, control: "running" as const });
  return Object.freeze({ ...state, operations: withEntry(state.operations, op, running) });
}

export const OPERATIONS_MUTANTS: readonly OperationsMutant[] = [
  {
    name: "cancel-does-not-block-intents",
    description: "an intent is accepted on a cancelled op",
    semantics: allowing("cancelled", (state, record) =>
      judge(uncancelled(state, (record as IntentRecord).op), record),
    ),
  },
  {
    name: "unknown-does-not-block-intents",
    description: "an intent is accepted while an effect's outcome is unknown",
    semantics: allowing("outcome-unknown"),
  },
  {
    name: "settlement-accepted-twice",
    description: "an effect already settled can be settled again",
    semantics: allowing("already-settled"),
  },
  {
    name: "failed-step-retried",
    description: "a step that failed for good can still be retried",
    semantics: allowing("retry-not-allowed"),
  },
  {
    name: "retry-one-ms-early",
    unexercisedBy: noRetry,
    description: "a retry 1 ms before its notBefore is accepted",
    semantics: allowing("retry-too-early", (state, record) => {
      const { op, key, at } = record as IntentRecord;
      const notBefore = state.operations.get(op)?.steps.get(key)?.notBefore ?? null;
      return notBefore !== null && BigInt(at) + 1n >= notBefore ? null : "retry-too-early";
    }),
  },
  {
    name: "strand-busy-ignored",
    unexercisedBy: ({ ops }) =>
      ops < 2 ? "there is one op: no strand is ever busy (--ops 1)" : null,
    description: "an op is accepted on a strand another op still runs on",
    semantics: allowing("strand-busy"),
  },
  {
    name: "abort-without-cancel",
    description:
      "an op may finish with any outcome, aborted without a cancel and not aborted after one",
    semantics: allowing("outcome-mismatch"),
  },
  {
    name: "finish-with-effects-outstanding",
    description: "an op may finish while an effect is pending or unknown",
    semantics: allowing("effects-outstanding", (state, record) => {
      const { op, outcome } = record as { op: string; outcome: string };
      const cancelled = state.operations.get(op)?.control === "cancelled";
      return (outcome === "aborted") === cancelled ? null : "outcome-mismatch";
    }),
  },
  {
    name: "readback-absent-commits",
    description: "a readback that found the effect absent counts as committed",
    semantics: {
      ...REFERENCE,
      apply: (state, record) =>
        apply(
          state,
          record.kind === "readback" && record.found === "absent"
            ? { ...record, found: "committed" }
            : record,
        ),
    },
  },
  {
    name: "ladder-exponent-off-by-one",
    unexercisedBy: noRetry,
    description: "the ladder's exponent is the attempt, not the attempt less one",
    semantics: {
      ...REFERENCE,
      retryWait: (policy, attempt, effectId, hint) =>
        retryWait({ ...policy, baseDelayMs: policy.baseDelayMs * 2 }, attempt, effectId, hint),
    },
  },
  {
    name: "hint-ignored",
    unexercisedBy: noRetry,
    description: "the provider's retryAfterMs hint is ignored",
    semantics: {
      ...REFERENCE,
      retryWait: (policy, attempt, effectId) => retryWait(policy, attempt, effectId, undefined),
    },
  },
];

/** What the model says of a journal: its report, and the state its fold reaches. */
interface Answer {
  readonly report: OperationsReport;
  readonly state: string;
}

function answerOf(records: readonly unknown[], semantics?: OperationsSemantics): Answer {
  let state = initialState(semantics);
  for (const record of records) {
    const read = readRecord(record);
    if (!read.ok) break;
    state = foldRecord(state, read.record).state;
  }
  return { report: audit(records, {}, semantics), state: stateText(state) };
}

/**
 * The first part of the answers in which the mutant and the reference differ — `integrity`, a
 * rule, `legality`, `final` (the report's counts), or `state` — or null when they agree.
 */
function firstDifference(reference: Answer, mutant: Answer): string | null {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(reference.report.integrity, mutant.report.integrity)) return "integrity";
  for (const rule of RULE_NAMES) {
    if (!same(reference.report.invariants[rule], mutant.report.invariants[rule])) return rule;
  }
  if (!same(reference.report.legality, mutant.report.legality)) return "legality";
  if (!same(reference.report.final, mutant.report.final)) return "final";
  return reference.state === mutant.state ? null : "state";
}

export function differenceOf(
  records: readonly unknown[],
  semantics: OperationsSemantics,
): string | null {
  return firstDifference(answerOf(records), answerOf(records, semantics));
}

function huntedOperations(
  configuration: OperationsConfiguration,
): HuntedModel<ExploredOperations, OperationsSemantics> {
  const machine = operationsSubject(configuration);
  return {
    *initialStates(semantics) {
      for (const { state } of machine.initialStates()) {
        yield { ...state, model: initialState(semantics) };
      }
    },
    successors: (state) => machine.successors(state),
    key: keyOf,
    follow(other, next) {
      const record = next.log?.record;
      const read = readRecord(record);
      if (!read.ok) return null;
      const { clock, accepted, leases, log } = next;
      return { model: foldRecord(other.model, read.record).state, clock, accepted, leases, log };
    },
    journal: recordsOf,
    difference: (_, journal, semantics) => differenceOf(journal, semantics),
    makeable(_, journal, semantics) {
      const report = audit(journal, {}, semantics);
      return report.integrity === null && report.legality.illegal === 0;
    },
  };
}

/** What one machine says of the kill's journal: the rules each record breaks, its final state. */
export interface OperationsTold {
  readonly rules: readonly string[][];
  readonly state: string;
}

export interface OperationsKill {
  readonly madeBy: "reference" | "mutant";
  readonly journal: readonly unknown[];
  readonly differs: string;
  readonly reference: OperationsTold;
  readonly mutant: OperationsTold;
}

export interface OperationsMutantVerdict {
  readonly mutant: OperationsMutant;
  readonly distinctStates: number;
  readonly kill: OperationsKill | null;
}

export async function huntOperationsMutant(
  configuration: OperationsConfiguration,
  depth: number,
  mutant: OperationsMutant,
): Promise<OperationsMutantVerdict> {
  const hunted = huntedOperations(configuration);
  const { distinctStates, found } = await hunt(hunted, depth, mutant.semantics);
  if (found === null) return { mutant, distinctStates, kill: null };
  const { journal } = found;
  const told = (answer: Answer): OperationsTold => ({
    rules: rulesByRecord(answer.report, journal),
    state: answer.state,
  });
  return {
    mutant,
    distinctStates,
    kill: {
      madeBy: found.madeBy,
      journal,
      differs: found.differs,
      reference: told(answerOf(journal)),
      mutant: told(answerOf(journal, mutant.semantics)),
    },
  };
}
