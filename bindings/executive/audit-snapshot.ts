/**
 * An executive audit's state as a snapshot body, and back (docs/gate.md, "Snapshots"): the
 * machine's working state written as an executive snapshot — so that restoring it is the
 * machine's own `restore`, every check of an executive snapshot included — and the kernel's
 * report block (layout in assembly/executive/audit.ts), every field of which is checked here
 * before the kernel takes it back: a snapshot is the user's file, and a code or index out of its
 * range must be refused by name, never read by the kernel.
 */

import { restoreState, snapshotState } from "../../src/models/executive/snapshot.js";
import type { Frame } from "../../src/models/executive/state.js";
import { FINDINGS_LISTED_MAX } from "../../src/models/report-frame.js";
import {
  DECISION_TAGS,
  EXHAUSTED_BUDGETS,
  FAIL_REASONS,
  MALFORMED_LINE_MESSAGES,
  REJECT_REASONS,
} from "./codes.js";
import { type ExecutiveKernelExports, offsetOf } from "./kernel.js";
import { readWorkingState, writeWorkingState } from "./machine.js";
import type { PackedSpec } from "./pack-spec.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const RECORDED_POINTER = 48;
const RECORDED_LENGTH = 52;

export interface AuditState {
  readonly machine: string;
  readonly report: Uint8Array;
  readonly recorded: readonly string[];
}

/** The audit's state: the working state as an executive snapshot, the report block, the recorded decisions. */
export function auditState(kernel: ExecutiveKernelExports, run: PackedSpec): AuditState {
  const machine = utf8.decode(snapshotState(readWorkingState(kernel, run)));
  const block = new Uint8Array(
    kernel.memory.buffer,
    kernel.reportPointer(),
    offsetOf(kernel, "REPORT_BYTES"),
  ).slice();
  const view = new DataView(block.buffer);
  const listed = view.getInt32(offsetOf(kernel, "REPORT_MISMATCHES_LISTED"), true);
  const recorded: string[] = [];
  for (let i = 0; i < listed; i++) {
    const entry = offsetOf(kernel, "REPORT_MISMATCH_LIST") + i * offsetOf(kernel, "MISMATCH_BYTES");
    const pointer = view.getUint32(entry + RECORDED_POINTER, true);
    const length = view.getUint32(entry + RECORDED_LENGTH, true);
    recorded.push(utf8.decode(new Uint8Array(kernel.memory.buffer, pointer, length)));
    view.setUint32(entry + RECORDED_POINTER, 0, true);
  }
  return { machine, report: block, recorded };
}

/**
 * Puts a snapshot's audit state back into the kernel, whose journal has begun over `run`; the
 * reason it is refused, or null.
 */
export function restoreAuditState(
  kernel: ExecutiveKernelExports,
  run: PackedSpec,
  saved: AuditState,
): string | null {
  const restored = restoreState(new TextEncoder().encode(saved.machine));
  if (!("state" in restored)) return `its machine state is refused (${restored.rejected})`;
  const state = restored.state;
  const root = state.frames.get(0) as Frame;
  const sameRun =
    JSON.stringify(state.spec) === JSON.stringify(run.tables.spec) &&
    state.depth === run.tables.budget.depth &&
    Object.entries(root.limits).every(
      ([limit, value]) => run.tables.budget[limit as never] === value,
    );
  if (!sameRun) return "its machine state is of another spec or budget than the journal's header";
  const block = saved.report;
  if (!(block instanceof Uint8Array)) return "its report is not a section of bytes";
  const problem = reportProblem(kernel, run, block, saved.recorded);
  if (problem !== null) return `its report ${problem}`;
  writeWorkingState(kernel, run, state);
  new Uint8Array(kernel.memory.buffer, kernel.loadRoom(), block.length).set(block);
  kernel.restoreReport(kernel.loadRoom());
  const bytes = new TextEncoder();
  for (const [i, text] of saved.recorded.entries()) {
    const encoded = bytes.encode(text);
    const room = kernel.recordedRoom(i, encoded.length);
    if (room === 0) return "does not fit in the WebAssembly memory";
    new Uint8Array(kernel.memory.buffer, room, encoded.length).set(encoded);
  }
  return null;
}

/** What is wrong with a report block, or null: every count, index and code within its range. */
function reportProblem(
  kernel: ExecutiveKernelExports,
  run: PackedSpec,
  block: Uint8Array,
  recorded: readonly string[],
): string | null {
  if (block.length !== offsetOf(kernel, "REPORT_BYTES")) return "block has the wrong size";
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const f64 = (name: keyof ExecutiveKernelExports, plus = 0) =>
    view.getFloat64(offsetOf(kernel, name) + plus, true);
  const i32 = (name: keyof ExecutiveKernelExports) => view.getInt32(offsetOf(kernel, name), true);
  const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;
  const events = f64("REPORT_EVENTS");
  if (!isCount(events)) return "counts no events";
  const isIndex = (value: number) => value === -1 || (isCount(value) && value < events);
  const integrity = f64("REPORT_INTEGRITY_INDEX");
  if (!isIndex(integrity) || !isCount(f64("REPORT_INTEGRITY_LINE")))
    return "has a bad integrity index";
  const problem = i32("REPORT_INTEGRITY_PROBLEM");
  if (problem < 0 || problem >= MALFORMED_LINE_MESSAGES.length)
    return "has an unknown integrity problem";
  if (i32("REPORT_LIMIT") !== 0 || f64("REPORT_TORN_TAIL_LINE") !== 0) {
    return "records the end of an audit, not a point within one";
  }
  for (const rule of ["REPORT_DECISIONS_MATCH", "REPORT_TERMINAL_RESPECTED"] as const) {
    if (!isIndex(f64(rule)) || !isCount(f64(rule, 8))) return "has a bad rule verdict";
  }
  const mismatches = f64("REPORT_MISMATCHES");
  const listed = i32("REPORT_MISMATCHES_LISTED");
  if (!isCount(mismatches) || listed !== Math.min(mismatches, FINDINGS_LISTED_MAX)) {
    return "counts its mismatches wrongly";
  }
  if ((mismatches === 0) !== (f64("REPORT_DECISIONS_MATCH") === -1))
    return "counts its mismatches wrongly";
  if (recorded.length !== listed) return "lists another number of recorded decisions";
  const entryBytes = offsetOf(kernel, "MISMATCH_BYTES");
  for (let i = 0; i < listed; i++) {
    const at = offsetOf(kernel, "REPORT_MISMATCH_LIST") + i * entryBytes;
    if (!mismatchFits(view, at, run, events)) return `has listed mismatch ${i + 1} out of range`;
    try {
      JSON.parse(recorded[i] as string);
    } catch {
      return `has listed mismatch ${i + 1}'s recorded decision that is not JSON`;
    }
  }
  return null;
}

function mismatchFits(view: DataView, at: number, run: PackedSpec, events: number): boolean {
  const index = view.getFloat64(at, true);
  const line = view.getFloat64(at + 8, true);
  const tag = DECISION_TAGS[view.getInt32(at + 16, true)];
  const reason = view.getInt32(at + 20, true);
  const budget = view.getInt32(at + 24, true);
  const step = view.getInt32(at + 28, true);
  const seq = view.getFloat64(at + 32, true);
  const attempt = view.getFloat64(at + 40, true);
  const subPlans = view.getInt32(at + 56, true);
  if (!Number.isSafeInteger(index) || index < 0 || index >= events) return false;
  if (!Number.isSafeInteger(line) || line < 1 || tag === undefined) return false;
  if (!Number.isSafeInteger(seq) || !Number.isSafeInteger(attempt)) return false;
  if (tag === "reject") return reason >= 0 && reason < REJECT_REASONS.length;
  if (tag === "fail") {
    if (reason < 0 || reason >= FAIL_REASONS.length) return false;
    return FAIL_REASONS[reason] === "budget-exhausted"
      ? budget >= 0 && budget < EXHAUSTED_BUDGETS.length
      : true;
  }
  if (tag !== "execute") return true;
  const isStep = (global: number, subPlan: boolean) => {
    const planStep = run.tables.steps[global];
    return planStep !== undefined && "plan" in planStep === subPlan;
  };
  if (!isStep(step, false) || subPlans < 0 || subPlans > 63) return false;
  for (let i = 0; i < subPlans; i++)
    if (!isStep(view.getInt32(at + 64 + 4 * i, true), true)) return false;
  return true;
}
