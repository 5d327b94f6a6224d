/**
 * The `operations` model as explore drives it (docs/explore.md, "The operations model"): a
 * runtime's commits as actions — accept the next op on a strand, an intent for each step (its
 * next attempt, a retry committed just before its notBefore and at it), each settlement of a
 * live effect (ok; an error, final or retryable, with and without the provider's hint; unknown),
 * each readback of one, cancel, each finish, a lease on a strand — each a record as a faithful
 * runtime writes it (its strand's epoch on it, a retry's notBefore as its machine's ladder has
 * it, fresh effect ids). A record the model's rules refuse is no step. Time is symbolic: every record is committed at the clock, which only a
 * retry moves, to its notBefore.
 */

import { audit } from "../../models/operations/audit.js";
import { foldRecord } from "../../models/operations/fold.js";
import { readRecord } from "../../models/operations/read-record.js";
import type { Policy } from "../../models/operations/records.js";
import { attemptsRemain, retryNotBefore } from "../../models/operations/retry-wait.js";
import type { OperationsState } from "../../models/operations/state.js";
import { initialState } from "../../models/operations/state.js";
import { plural } from "../../text/format-units.js";
import { type KernelAuditing, kernelAgrees, type Subject } from "../explore.js";
import { firstBrokenRule } from "./counterexample.js";
import { STATE_INVARIANTS } from "./invariants.js";

export interface OperationsConfiguration {
  /** Strands `s1` …, ops `o1` … (accepted in order), steps `k1` … per op. */
  readonly strands: number;
  readonly ops: number;
  readonly keys: number;
  /** The highest attempt number an intent is made with. */
  readonly attempts: number;
  /** How many leases may be taken, over all strands. */
  readonly leases: number;
  /** Every op's retry policy. */
  readonly policy: Policy;
}

/** The provider's hint a hinted retryable error carries: longer than the ladder's longest wait. */
export const HINT_MS = 2500;

/** A journal's records, newest first, sharing its tail with every earlier state's. */
type RecordLog = {
  readonly record: Readonly<Record<string, unknown>>;
  readonly earlier: RecordLog;
} | null;

export interface ExploredOperations {
  readonly model: OperationsState;
  /** The `at` of every record but a retry, which commits at its notBefore and moves it there. */
  readonly clock: number;
  /** Ops accepted so far: the next one is `o${accepted + 1}`. */
  readonly accepted: number;
  readonly leases: number;
  readonly log: RecordLog;
}

export function recordsOf(state: ExploredOperations): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (let entry = state.log; entry !== null; entry = entry.earlier) records.push(entry.record);
  return records.reverse();
}

const encoder = new TextEncoder();

/** A journal as JSONL bytes: its header naming the model, a line per record. */
export function operationsJournalBytes(records: readonly unknown[]): Uint8Array {
  const header = JSON.stringify({ statefold: "journal", version: 1, model: "operations" });
  return encoder.encode(`${[header, ...records.map((r) => JSON.stringify(r))].join("\n")}\n`);
}

export function operationsSubject(
  configuration: OperationsConfiguration,
  wasm?: KernelAuditing,
): Subject<ExploredOperations> {
  return {
    *initialStates() {
      yield {
        name: describeConfiguration(configuration),
        state: { model: initialState(), clock: 0, accepted: 0, leases: 0, log: null },
      };
    },
    *successors(state) {
      for (const { record, clock, accepted, leases } of candidates(configuration, state)) {
        const read = readRecord(record);
        if (!read.ok)
          throw new Error(`statefold: explore made a malformed record ${JSON.stringify(record)}`);
        const judged = foldRecord(state.model, read.record);
        if (judged.reason !== null) continue;
        yield {
          action: JSON.stringify(record),
          state: {
            model: judged.state,
            clock: clock ?? state.clock,
            accepted: accepted ?? state.accepted,
            leases: leases ?? state.leases,
            log: { record, earlier: state.log },
          },
        };
      }
    },
    key: keyOf,
    checkStep(before, after) {
      for (const [name, broken] of Object.entries(STATE_INVARIANTS)) {
        if (broken(before.model, after.model) !== null) return name;
      }
      return null;
    },
    checkState(state) {
      const records = recordsOf(state);
      const report = audit(records);
      const broken = firstBrokenRule(report, records);
      if (broken !== null || wasm === undefined) return broken?.rule ?? null;
      return kernelAgrees(wasm, operationsJournalBytes(records), report) ? null : "engines differ";
    },
  };
}

export function describeConfiguration(configuration: OperationsConfiguration): string {
  const { strands, ops, keys, attempts, leases, policy } = configuration;
  return `${plural(strands, "strand")}, ${plural(ops, "op")} of ${plural(keys, "step")}, attempts up to ${attempts}, ${plural(leases, "lease")}, policy ${JSON.stringify(policy)}`;
}

interface Candidate {
  readonly record: Record<string, unknown>;
  readonly clock?: number;
  readonly accepted?: number;
  readonly leases?: number;
}

/** Every record a runtime could commit next, as a faithful one writes it. */
function* candidates(
  configuration: OperationsConfiguration,
  state: ExploredOperations,
): Generator<Candidate> {
  const { model, clock } = state;
  const strands = Array.from({ length: configuration.strands }, (_, i) => `s${i + 1}`);
  const epochOn = (strand: string) => {
    const epoch = model.strands.get(strand)?.epoch ?? null;
    return epoch === null ? {} : { epoch };
  };
  if (state.accepted < configuration.ops) {
    const op = `o${state.accepted + 1}`;
    for (const strand of strands) {
      yield {
        record: { kind: "accepted", op, strand, policy: configuration.policy, ...epochOn(strand) },
        accepted: state.accepted + 1,
      };
    }
  }
  for (const [op, operation] of model.operations) {
    if (operation.finished !== null) continue;
    const epoch = epochOn(operation.strand);
    for (let k = 1; k <= configuration.keys; k++) {
      const key = `k${k}`;
      const step = operation.steps.get(key);
      const attempt = step === undefined ? 1 : step.attempt + 1;
      if (attempt > configuration.attempts) continue;
      const intent = { kind: "intent", op, key, effect: `${op}.${key}.${attempt}`, attempt };
      const notBefore = step?.notBefore;
      if (notBefore === null || notBefore === undefined || Number(notBefore) <= clock) {
        yield { record: { ...intent, at: clock, ...epoch } };
      } else {
        const due = Number(notBefore);
        yield { record: { ...intent, at: due - 1, ...epoch }, clock: due - 1 };
        yield { record: { ...intent, at: due, ...epoch }, clock: due };
      }
    }
    // Every live effect is offered every settlement and readback: the rules refuse those a
    // faithful runtime would not commit (a second settlement, a readback of a known outcome).
    for (const [effect, held] of operation.effects) {
      const at = clock;
      const settled = { kind: "settled", op, effect, at };
      yield { record: { ...settled, outcome: "ok", ...epoch } };
      yield { record: { ...settled, outcome: "error", ...epoch } };
      // A retryable failure of the step's current attempt with attempts left schedules a retry:
      // a faithful runtime records its notBefore.
      const schedules =
        operation.steps.get(held.key)?.effect === effect &&
        attemptsRemain(operation.policy, held.attempt);
      for (const hint of [{}, { retryAfterMs: HINT_MS }]) {
        const notBefore = schedules
          ? {
              notBefore: Number(
                retryNotBefore(
                  operation.policy,
                  at,
                  held.attempt,
                  effect,
                  hint.retryAfterMs,
                  model.semantics?.retryWait,
                ),
              ),
            }
          : {};
        yield {
          record: {
            ...settled,
            outcome: "error",
            retryable: true,
            ...hint,
            ...notBefore,
            ...epoch,
          },
        };
      }
      yield { record: { ...settled, outcome: "unknown", ...epoch } };
      for (const found of ["committed", "absent"]) {
        yield { record: { kind: "readback", op, effect, found, at, ...epoch } };
      }
    }
    yield { record: { kind: "cancel-requested", op, at: clock, ...epoch } };
    for (const outcome of ["completed", "failed", "aborted"]) {
      yield { record: { kind: "finished", op, outcome, at: clock, ...epoch } };
    }
  }
  if (state.leases < configuration.leases) {
    for (const strand of strands) {
      const epoch = (model.strands.get(strand)?.epoch ?? 0) + 1;
      yield { record: { kind: "lease", strand, epoch }, leases: state.leases + 1 };
    }
  }
}

/**
 * A state's canonical key: the model's whole state — strands, ops with their steps and effects,
 * every reserved id — with the clock and what is left to take (ops to accept, leases). Effect
 * ids are named by their op, step and attempt, so two journals that reach one state name its
 * effects alike.
 */
export function keyOf(state: ExploredOperations): string {
  return `${state.clock} ${state.accepted} ${state.leases} ${stateText(state.model)}`;
}

/** The model's whole state as text: strands, ops with their steps and effects, reserved ids. */
export function stateText(model: OperationsState): string {
  return JSON.stringify(
    [
      model.strands.toJS(),
      [...model.operations].map(([op, operation]) => [
        op,
        operation.strand,
        operation.control,
        operation.finished,
        operation.steps.toJS(),
        operation.effects.toJS(),
      ]),
      [...model.reserved].sort(),
    ],
    (_, value) => (typeof value === "bigint" ? `${value}n` : value),
  );
}
