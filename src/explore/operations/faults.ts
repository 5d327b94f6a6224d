/**
 * Fault injection on the operations model's explored journals (docs/explore.md, "Faults"): the
 * common operators, and the three faults of a runtime that performs effects —
 *
 *   lost-response            a settlement's answer lost: the settlement recorded as `unknown`
 *   lost-response-read-back  the same, then read back: `committed` for an ok, `absent` for an error
 *   stale-owner              the previous owner still writing after a lease: a later record of its
 *                            strand under the epoch before the lease (none if there was none), or
 *                            the previous owner's last record landing after the lease
 *   conflicting-retry        a retry under another step's key; or a retry the runtime forgot was
 *                            one, started afresh as attempt 1 of a new key
 *
 * Each mutant is audited by the reference; the restart check runs on the WebAssembly engine.
 */
import type { WasmOperationsEngine } from "../../../bindings/operations/engine.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { audit } from "../../models/operations/audit.js";
import type { OperationsReport } from "../../models/operations/report.js";
import {
  COMMON_FAULTS,
  checkRestarts as checkRestartsOn,
  commonMutants,
  type Sensitivity,
  tally,
  tornFinalWrite,
} from "../faults.js";
import { rulesByRecord } from "./counterexample.js";
import { operationsJournalBytes } from "./subject.js";

export const OPERATIONS_FAULTS = [
  ...COMMON_FAULTS,
  "lost-response",
  "lost-response-read-back",
  "stale-owner",
  "conflicting-retry",
] as const;
export type OperationsFault = (typeof OPERATIONS_FAULTS)[number];

type JournalRecord = Readonly<Record<string, unknown>>;

export function injectOperationsFaults(
  sensitivity: Sensitivity<OperationsFault>,
  records: readonly JournalRecord[],
  keys: number,
): void {
  const judge = (fault: OperationsFault, mutant: readonly unknown[]) =>
    tally(sensitivity.faults[fault], rulesBroken(audit(mutant), mutant), mutant);
  for (const [fault, mutant] of commonMutants(records)) judge(fault, mutant);
  for (const [fault, mutant] of effectMutants(records, keys)) judge(fault, mutant);
  if (records.length === 0) return;
  const torn = tornFinalWrite(operationsJournalBytes(records), records);
  const read = readJsonlJournal(torn, "torn");
  const report = audit(read.events, { tornTail: read.tornTail });
  tally(sensitivity.faults["torn-write"], rulesBroken(report, read.events), records);
}

/** Each rule broken as `rule (reason)` — an operations rule is broken for its record's one reason — and a torn tail. */
function rulesBroken(report: OperationsReport, records: readonly unknown[]): string[] {
  const rules = new Set(rulesByRecord(report, records).flat());
  if (report.tornTail !== null) rules.add("torn tail");
  return [...rules];
}

function* effectMutants(
  records: readonly JournalRecord[],
  keys: number,
): Generator<[OperationsFault, JournalRecord[]]> {
  const replaced = (i: number, ...by: JournalRecord[]) => [
    ...records.slice(0, i),
    ...by,
    ...records.slice(i + 1),
  ];
  const strandOf = new Map<unknown, unknown>();
  for (const record of records) {
    if (record.kind === "accepted") strandOf.set(record.op, record.strand);
  }
  const epochs = new Map<unknown, unknown>();
  for (const [i, record] of records.entries()) {
    if (record.kind === "settled" && record.outcome !== "unknown") {
      const { op, effect, at, epoch } = record;
      const lost = {
        kind: "settled",
        op,
        effect,
        outcome: "unknown",
        at,
        ...(epoch === undefined ? {} : { epoch }),
      };
      yield ["lost-response", replaced(i, lost)];
      const found = record.outcome === "ok" ? "committed" : "absent";
      const readback = {
        kind: "readback",
        op,
        effect,
        found,
        at,
        ...(epoch === undefined ? {} : { epoch }),
      };
      yield ["lost-response-read-back", replaced(i, lost, readback)];
    }
    if (record.kind === "lease") {
      const previous = epochs.get(record.strand);
      epochs.set(record.strand, record.epoch);
      const ofStrand = (j: number) =>
        records[j]?.kind !== "lease" &&
        strandOfRecord(records[j] as JournalRecord, strandOf) === record.strand;
      // A later record of the strand re-stamped with the epoch before the lease…
      const later = records.findIndex((_, j) => j > i && ofStrand(j));
      if (later >= 0) {
        const { epoch: _, ...unfenced } = records[later] as JournalRecord;
        const stale = previous === undefined ? unfenced : { ...unfenced, epoch: previous };
        yield ["stale-owner", replaced(later, stale)];
      }
      // …or the previous owner's last record landing after the takeover, as it wrote it.
      let earlier = i - 1;
      while (earlier >= 0 && !ofStrand(earlier)) earlier -= 1;
      if (earlier >= 0) {
        const moved = records[earlier] as JournalRecord;
        const without = [...records.slice(0, earlier), ...records.slice(earlier + 1)];
        const lease = i - 1;
        yield ["stale-owner", [...without.slice(0, lease + 1), moved, ...without.slice(lease + 1)]];
      }
    }
    if (record.kind === "intent" && typeof record.attempt === "number" && record.attempt > 1) {
      for (let k = 1; k <= keys; k++) {
        if (`k${k}` !== record.key)
          yield ["conflicting-retry", replaced(i, { ...record, key: `k${k}` })];
      }
      yield [
        "conflicting-retry",
        replaced(i, { ...record, key: `${record.key}-again`, attempt: 1 }),
      ];
    }
  }
}

function strandOfRecord(record: JournalRecord, strandOf: ReadonlyMap<unknown, unknown>): unknown {
  return record.kind === "accepted" ? record.strand : strandOf.get(record.op);
}

/** The journal audited whole, then split at every line by a snapshot and resumed: the same report each time. */
export function checkOperationsRestarts(
  sensitivity: Sensitivity,
  wasm: WasmOperationsEngine,
  records: readonly unknown[],
): Promise<void> {
  const engine = {
    open: (snapshots: boolean) => wasm.openAuditor({ snapshots }),
    resume: (snapshot: Uint8Array, bytes: Uint8Array) => wasm.resume(snapshot, [bytes]),
  };
  return checkRestartsOn(sensitivity, engine, operationsJournalBytes(records), records);
}
