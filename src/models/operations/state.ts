/**
 * The state of the `operations` model (docs/models/operations.md, "State"): strands, operations
 * with their steps and effects, and every effect id ever reserved. Immutable: the fold builds a
 * new state that shares every unchanged part with the one before. A finished operation keeps
 * only its strand, policy, control and outcome — its steps and effects are dropped, their ids
 * stay reserved — so the state is O(ops + effects + live steps).
 *
 * The tables are persistent maps and sets (the `immutable` package): setting an entry makes a
 * new table that shares all the others, in O(log n), where copying a `Map` per record would make
 * a long journal's fold quadratic. Ordered, so a state lists its entries as they were first made.
 */
import { OrderedMap, Set as PersistentSet } from "immutable";
import type { FinishedOutcome, OperationsRecord, OpRecord, Policy, Request } from "./records.js";
import type { Reason } from "./report.js";

/** A persistent table by id, in the order its entries were first made. */
export type Table<V> = OrderedMap<string, V>;

export function emptyTable<V>(): Table<V> {
  return OrderedMap<string, V>();
}

export type Control = "running" | "cancelled";

export const STEP_STATUSES = ["pending", "ok", "failed", "retry-wait", "unknown"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** An effect is settled or resolved once its outcome is in; unknown until a readback resolves it. */
export type EffectStatus = "pending" | "settled" | "unknown" | "resolved";

export interface Strand {
  /** The op running on the strand, or null. */
  readonly current: string | null;
  /** The last lease's epoch, or the last one adopted from a record; null before any lease. */
  readonly epoch: number | null;
}

/** A step: the logical work its attempts serve, named by `key` within its op. */
export interface Step {
  /** The current attempt's number. */
  readonly attempt: number;
  /** The current attempt's effect id. */
  readonly effect: string;
  readonly status: StepStatus;
  /** retry-wait only: the earliest `at` of the next attempt (exact, so a bigint). */
  readonly notBefore: bigint | null;
}

/** A live effect: one of an unfinished op, as its intent reserved it. */
export interface Effect {
  readonly key: string;
  readonly attempt: number;
  readonly intentAt: number;
  readonly request: Request | null;
  readonly outputLimit: number;
  /** The `at` of its settlement, once settled. */
  readonly settledAt: number | null;
  readonly status: EffectStatus;
}

export interface Operation {
  readonly strand: string;
  readonly policy: Policy;
  readonly control: Control;
  /** The outcome its `finished` recorded, or null while it runs. */
  readonly finished: FinishedOutcome | null;
  /** By key; empty once finished. */
  readonly steps: Table<Step>;
  /** By effect id; empty once finished. */
  readonly effects: Table<Effect>;
}

export interface OperationsState {
  readonly strands: Table<Strand>;
  readonly operations: Table<Operation>;
  /** Every effect id ever reserved, of finished ops too. */
  readonly reserved: PersistentSet<string>;
  /** Absent on the reference's states: they follow docs/models/operations.md. */
  readonly semantics?: OperationsSemantics;
}

/**
 * The model's meaning, in the three places explore's mutants change it (docs/explore.md,
 * "Mutants"): the rules that judge a record, what a record changes, and the retry ladder's wait.
 * A state carries the semantics that made it, and every state folded from it keeps them.
 */
export interface OperationsSemantics {
  readonly judge: (state: OperationsState, record: OperationsRecord) => Reason | null;
  readonly apply: (state: OperationsState, record: OperationsRecord) => OperationsState;
  readonly retryWait: RetryWait;
}

/** The retry ladder's wait (retry-wait.ts, `retryWait`). */
export type RetryWait = (
  policy: Policy,
  attempt: number,
  effectId: string,
  retryAfterMs: unknown,
) => number;

export function initialState(semantics?: OperationsSemantics): OperationsState {
  const empty = {
    strands: emptyTable<Strand>(),
    operations: emptyTable<Operation>(),
    reserved: PersistentSet<string>(),
  };
  return Object.freeze(semantics === undefined ? empty : { ...empty, semantics });
}

export const NEW_STRAND: Strand = Object.freeze({ current: null, epoch: null });

/** `table` with `key` set to `value`; `table` itself is left as it was. */
export function withEntry<V>(table: Table<V>, key: string, value: V): Table<V> {
  return table.set(key, value);
}

export function withMember(set: PersistentSet<string>, member: string): PersistentSet<string> {
  return set.add(member);
}

/**
 * The strand whose lease fences `record`: the one an `accepted` record names, else its op's.
 * Only called once the op is known to exist.
 */
export function fencingStrand(state: OperationsState, record: OpRecord): string {
  if (record.kind === "accepted") return record.strand;
  return (state.operations.get(record.op) as Operation).strand;
}

/** The op a well-placed record names; only called once the lifecycle check has passed. */
export function operationOf(state: OperationsState, record: OpRecord): Operation {
  return state.operations.get(record.op) as Operation;
}

/** Whether some effect of `op` has one of the given statuses. */
export function hasEffectIn(op: Operation, statuses: readonly EffectStatus[]): boolean {
  return [...op.effects.values()].some((effect) => statuses.includes(effect.status));
}
