/**
 * `audit(records, source?)`: the report of the `operations` model (docs/models/operations.md,
 * "The report"). Each entry is read (integrity), judged and folded in order; an integrity fault
 * stops the fold there, and the rules and the final summary are then those of the prefix
 * before it. Every rule is a legality rule: each illegal record is its rule's breach.
 */

import type { AuditSource } from "../journal-source.js";
import { foldRecord } from "./fold.js";
import { integrityMessage } from "./integrity.js";
import { readRecord } from "./read-record.js";
import type { OperationsRecord } from "./records.js";
import {
  type FinalSummary,
  type FindingSubject,
  ILLEGAL_RECORDS_LISTED_MAX,
  type IllegalRecord,
  type IntegrityReport,
  type InvariantsReport,
  type OperationsReport,
  type Reason,
  RULE_NAMES,
  RULE_OF_REASON,
  type RuleName,
  type RuleVerdict,
} from "./report.js";
import {
  initialState,
  type OperationsSemantics,
  type OperationsState,
  type StepStatus,
} from "./state.js";

/** `semantics` are the reference's when not given; explore's mutants give their own. */
export function audit(
  records: readonly unknown[],
  source: AuditSource = {},
  semantics?: OperationsSemantics,
): OperationsReport {
  const lineOf = (index: number) =>
    source.lines === undefined ? {} : { line: source.lines[index] as number };
  const firstBreach = new Map<RuleName, RuleVerdict>();
  const listed: IllegalRecord[] = [];
  let illegal = 0;
  let integrity: IntegrityReport | null = null;
  let state = initialState(semantics);

  // A plain index loop, not for…of over entries(): a hole in a sparse array is an entry
  // (undefined, so malformed) like any other.
  for (let index = 0; index < records.length; index++) {
    const read = readRecord(records[index]);
    if (!read.ok) {
      const message = integrityMessage(read.fault);
      integrity = { index, ...lineOf(index), reason: read.fault.reason, message };
      break;
    }
    const judged = foldRecord(state, read.record);
    state = judged.state;
    if (judged.reason === null) continue;
    illegal += 1;
    const subject = subjectOf(read.record);
    const rule = RULE_OF_REASON[judged.reason];
    if (!firstBreach.has(rule))
      firstBreach.set(rule, { holds: false, index, ...lineOf(index), ...subject });
    if (listed.length < ILLEGAL_RECORDS_LISTED_MAX) {
      listed.push(illegalRecord(index, lineOf(index), read.record, subject, judged.reason));
    }
  }

  const invariants = Object.fromEntries(
    RULE_NAMES.map((rule) => [rule, firstBreach.get(rule) ?? { holds: true }]),
  ) as InvariantsReport;
  const conformant = integrity === null && illegal === 0;
  return {
    model: "operations",
    conformant,
    strictlyConformant: conformant,
    events: records.length,
    integrity,
    tornTail: source.tornTail ?? null,
    invariants,
    legality: { illegal, first: listed },
    final: finalSummary(state),
  };
}

/** The op a record names, or a lease's strand; and the effect of an intent, settlement or readback. */
function subjectOf(record: OperationsRecord): FindingSubject {
  switch (record.kind) {
    case "lease":
      return { strand: record.strand };
    case "intent":
    case "settled":
    case "readback":
      return { op: record.op, effect: record.effect };
    case "accepted":
    case "cancel-requested":
    case "finished":
      return { op: record.op };
    default: {
      const unreachable: never = record;
      return unreachable;
    }
  }
}

function illegalRecord(
  index: number,
  line: { line?: number },
  record: OperationsRecord,
  subject: FindingSubject,
  reason: Reason,
): IllegalRecord {
  return { index, ...line, kind: record.kind, ...subject, reason };
}

const STEP_COUNT_KEYS: Readonly<Record<StepStatus, keyof FinalSummary["steps"]>> = {
  pending: "pending",
  ok: "ok",
  failed: "failed",
  "retry-wait": "retryWait",
  unknown: "unknown",
};

/** The `final` block, counted over the state the fold reached. */
export function finalSummary(state: OperationsState): FinalSummary {
  const operations = { running: 0, cancelled: 0, completed: 0, failed: 0, aborted: 0 };
  const steps = { pending: 0, ok: 0, failed: 0, retryWait: 0, unknown: 0 };
  for (const op of state.operations.values()) {
    operations[op.finished ?? op.control] += 1;
    for (const step of op.steps.values()) steps[STEP_COUNT_KEYS[step.status]] += 1;
  }
  return { operations, steps, effects: state.reserved.size, strands: state.strands.size };
}
