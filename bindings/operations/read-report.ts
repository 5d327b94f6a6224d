/**
 * The `operations` report read from the kernel's report block (layout drawn in
 * assembly/operations/audit.ts): the reference's shape (src/models/operations/report.ts) field
 * for field, with the reference's own integrity messages.
 */
import {
  type FinalSummary,
  type FindingSubject,
  type IllegalRecord,
  type IntegrityReport,
  type InvariantsReport,
  integrityMessage,
  type OperationsReport,
  type Reason,
  type RuleVerdict,
} from "../../src/models/operations/index.js";
import { decodeWtf8 } from "../wtf8.js";
import { faultOf, REASONS, RECORD_KINDS, RULE_NAMES } from "./codes.js";
import type { OperationsKernelExports } from "./kernel.js";

const STRAND_SUBJECT = 1;
const HAS_EFFECT = 2;

export function readOperationsReport(kernel: OperationsKernelExports): OperationsReport {
  const base = kernel.reportPointer();
  const view = new DataView(kernel.memory.buffer);
  const offset = (name: keyof OperationsKernelExports) =>
    base + ((kernel[name] as WebAssembly.Global).value as number);
  const f64 = (name: keyof OperationsKernelExports) => view.getFloat64(offset(name), true);
  const i32 = (name: keyof OperationsKernelExports) => view.getInt32(offset(name), true);
  const text = (pointer: number, length: number) =>
    decodeWtf8(new Uint8Array(kernel.memory.buffer, pointer, length));
  const findingBytes = kernel.FINDING_BYTES.value as number;

  const subjectAt = (at: number): FindingSubject => {
    const subject = text(view.getUint32(at + 24, true), view.getUint32(at + 28, true));
    const flags = view.getInt32(at + 40, true);
    const named = flags & STRAND_SUBJECT ? { strand: subject } : { op: subject };
    if (!(flags & HAS_EFFECT)) return named;
    return { ...named, effect: text(view.getUint32(at + 32, true), view.getUint32(at + 36, true)) };
  };

  const rules = offset("REPORT_RULES");
  const invariants = Object.fromEntries(
    RULE_NAMES.map((rule, i): [string, RuleVerdict] => {
      const at = rules + i * findingBytes;
      const index = view.getFloat64(at, true);
      if (index < 0) return [rule, { holds: true }];
      return [rule, { holds: false, index, line: view.getFloat64(at + 8, true), ...subjectAt(at) }];
    }),
  ) as unknown as InvariantsReport;

  const list = offset("REPORT_ILLEGAL_LIST");
  const first: IllegalRecord[] = [];
  for (let i = 0; i < i32("REPORT_ILLEGAL_LISTED"); i++) {
    const at = list + i * findingBytes;
    first.push({
      index: view.getFloat64(at, true),
      line: view.getFloat64(at + 8, true),
      kind: RECORD_KINDS[view.getInt32(at + 16, true)] as string,
      ...subjectAt(at),
      reason: REASONS[view.getInt32(at + 20, true)] as Reason,
    });
  }

  let integrity: IntegrityReport | null = null;
  const integrityIndex = f64("REPORT_INTEGRITY_INDEX");
  if (integrityIndex >= 0) {
    const fault = faultOf(
      i32("REPORT_INTEGRITY_REASON"),
      i32("REPORT_INTEGRITY_PROBLEM"),
      i32("REPORT_INTEGRITY_FIELD"),
      i32("REPORT_INTEGRITY_EXPECTED"),
      i32("REPORT_INTEGRITY_COMPANION"),
      text(
        view.getUint32(offset("REPORT_INTEGRITY_KIND_POINTER"), true),
        view.getUint32(offset("REPORT_INTEGRITY_KIND_LENGTH"), true),
      ),
    );
    integrity = {
      index: integrityIndex,
      line: f64("REPORT_INTEGRITY_LINE"),
      reason: fault.reason,
      message: integrityMessage(fault),
    };
  }

  const final = offset("REPORT_FINAL");
  const count = (i: number) => view.getFloat64(final + 8 * i, true);
  const summary: FinalSummary = {
    operations: {
      running: count(0),
      cancelled: count(1),
      completed: count(2),
      failed: count(3),
      aborted: count(4),
    },
    steps: {
      pending: count(5),
      ok: count(6),
      failed: count(7),
      retryWait: count(8),
      unknown: count(9),
    },
    effects: count(10),
    strands: count(11),
  };

  const illegal = f64("REPORT_ILLEGAL");
  const conformant = integrity === null && illegal === 0;
  const tornLine = f64("REPORT_TORN_TAIL_LINE");
  return {
    model: "operations",
    conformant,
    strictlyConformant: conformant,
    events: f64("REPORT_EVENTS"),
    integrity,
    tornTail: tornLine === 0 ? null : { line: tornLine, offset: f64("REPORT_TORN_TAIL_OFFSET") },
    invariants,
    legality: { illegal, first },
    final: summary,
  };
}
