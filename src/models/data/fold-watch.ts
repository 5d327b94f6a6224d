/**
 * The hook through which the reference interpreter (audit.ts) can be watched as a journal folds:
 * what replay.ts gathers for the views, beyond the report. The interpreter declares it; it never
 * needs a watcher.
 */
import type { Clause, Value } from "./compiled.js";
import type { DataReason } from "./report.js";

/**
 * What a replay is shown as one journal folds, beyond its report: the audit itself
 * watches nothing (audit.ts, `auditDataEntries`). States, entities, kinds, fields and counters are their places in the model.
 */
export interface FoldWatcher {
  /** The journal's record `index` begins to fold. */
  record(index: number): void;
  /** An instance was created (`from` null) or moved, by the record folding. */
  moved(entity: number, key: bigint | string, from: number | null, to: number): void;
  /** A finding, in the order the report counts them (the listed ones first). */
  found(finding: WatchedFinding): void;
}

export interface WatchedFinding {
  readonly index: number;
  readonly rule: number;
  readonly reason: DataReason;
  /**
   * The instance it names (new, step, need, open-at-end), or else its clause's current instance;
   * null when there is none.
   */
  readonly instance: WatchedInstance | null;
  readonly compared: Compared | null;
}

/** An instance when a finding was made; `state` null when no instance has the key. */
export interface WatchedInstance {
  readonly entity: number;
  readonly key: bigint | string;
  readonly state: number | null;
}

/** The values a finding compared: a finding changes nothing, so they are what its clause saw. */
export type Compared =
  | {
      readonly type: "check";
      readonly clause: Extract<Clause, { op: "check" }>;
      readonly left: Value;
      readonly right: Value;
    }
  /** wrong-state, and open-at-end: the instance's state and the states it could be in. */
  | { readonly type: "state"; readonly state: number; readonly accepted: readonly number[] }
  /** limit: the counter's value before the count. */
  | {
      readonly type: "counter";
      readonly clause: Extract<Clause, { op: "count" }>;
      readonly value: bigint;
    }
  /** missing-key: what the key operand read. */
  | { readonly type: "key"; readonly value: Value }
  | { readonly type: "sequence"; readonly expected: bigint; readonly found: bigint | null }
  | {
      readonly type: "increase";
      readonly field: number;
      readonly strict: boolean;
      readonly previous: bigint;
      readonly value: bigint;
    }
  /** unexpected-kind: the kinds the obligation allowed. */
  | { readonly type: "kinds"; readonly expected: readonly number[] };
