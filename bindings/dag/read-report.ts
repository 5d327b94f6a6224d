/**
 * Reads the kernel's report block (layout in assembly/dag/audit.ts, offsets from the kernel's own
 * exports) into the reference's report shape, with `line` beside every `index` when the events
 * came from a journal file.
 */
import { type IntegrityFault, integrityMessage } from "../../src/models/dag/events.js";
import type {
  IllegalEvent,
  IntegrityReport,
  InvariantsReport,
  Report,
  StepVerdict,
  TamperVerdict,
} from "../../src/models/dag/report.js";
import type { Status } from "../../src/models/dag/state.js";
import type { TornTail } from "../../src/models/journal-source.js";
import type { KernelExports } from "../kernel.js";
import { decodeWtf8 } from "../wtf8.js";
import {
  EVENT_KINDS,
  ILLEGALITY_REASONS,
  INTEGRITY_REASONS,
  MALFORMED_PROBLEMS,
  STATUSES,
  STEP_INVARIANTS,
  type StepInvariantName,
} from "./codes.js";
import type { NodeIds } from "./header-dag.js";

export interface ReportContext {
  readonly ids: NodeIds;
  /**
   * Where `line` comes from: the kernel (it scanned the journal), the lines of the events a
   * reader produced, or nowhere (bare events: no `line` in the report).
   */
  readonly lines: "kernel" | readonly number[] | undefined;
  /** The subject of an unknown-node or unknown-kind fault when the host, not the kernel, saw it. */
  readonly faultSubject?: (index: number, reason: "unknown-node" | "unknown-kind") => string;
}

/** The `line` field for an event, as the context says. */
function lineField(context: ReportContext, index: number, kernelLine: number): { line?: number } {
  if (context.lines === undefined) return {};
  return { line: context.lines === "kernel" ? kernelLine : (context.lines[index] as number) };
}

export function readReport(kernel: KernelExports, context: ReportContext): Report {
  const view = new DataView(kernel.memory.buffer, kernel.reportPointer());
  const at = (global: WebAssembly.Global) => global.value as number;
  const f64 = (offset: number) => view.getFloat64(offset, true);
  const i32 = (offset: number) => view.getInt32(offset, true);
  const idOf = (node: number) => context.ids.idAt(node);

  const invariants: Record<string, StepVerdict | TamperVerdict> = {};
  for (const [position, name] of STEP_INVARIANTS.entries()) {
    const offset = at(kernel.REPORT_STEP_INVARIANTS) + position * at(kernel.STEP_INVARIANT_BYTES);
    const index = f64(offset);
    invariants[name satisfies StepInvariantName] =
      index < 0
        ? { holds: true }
        : {
            holds: false,
            index,
            ...lineField(context, index, f64(offset + 8)),
            node: idOf(i32(offset + 16)),
          };
  }
  const tampered: string[] = [];
  for (let node = kernel.nextTampered(0); node >= 0; node = kernel.nextTampered(node + 1)) {
    tampered.push(idOf(node));
  }
  invariants.tamperEvident =
    tampered.length === 0 ? { holds: true } : { holds: false, nodes: tampered };

  const illegal: IllegalEvent[] = [];
  for (let i = 0; i < i32(at(kernel.REPORT_ILLEGAL_LISTED)); i++) {
    const offset = at(kernel.REPORT_ILLEGAL_LIST) + i * at(kernel.ILLEGAL_ENTRY_BYTES);
    const index = f64(offset);
    illegal.push({
      index,
      ...lineField(context, index, f64(offset + 8)),
      kind: EVENT_KINDS[i32(offset + 16)] as string,
      node: idOf(i32(offset + 20)),
      reason: ILLEGALITY_REASONS[i32(offset + 24)] as IllegalEvent["reason"],
    });
  }
  const illegalCount = f64(at(kernel.REPORT_ILLEGAL));

  const counts = {} as Record<Status, number>;
  for (const [code, status] of STATUSES.entries())
    counts[status] = f64(at(kernel.REPORT_STATUS_COUNTS) + code * 8);

  const fault = readIntegrityFault(kernel, context);
  const integrity: IntegrityReport | null =
    fault === null
      ? null
      : {
          index: fault.index,
          ...lineField(context, fault.index, fault.line),
          reason: fault.fault.reason,
          message: integrityMessage(fault.fault),
        };
  const tornLine = f64(at(kernel.REPORT_TORN_TAIL_LINE));
  const tornTail: TornTail | null =
    tornLine === 0 ? null : { line: tornLine, offset: f64(at(kernel.REPORT_TORN_TAIL_OFFSET)) };
  const verdicts = invariants as unknown as InvariantsReport;
  const conformant =
    integrity === null && Object.values(verdicts).every((verdict) => verdict.holds);
  return {
    model: "dag",
    conformant,
    strictlyConformant: conformant && illegalCount === 0,
    events: f64(at(kernel.REPORT_EVENTS)),
    integrity,
    tornTail,
    invariants: {
      phaseMonotonic: verdicts.phaseMonotonic,
      noPendingProven: verdicts.noPendingProven,
      tamperEvident: verdicts.tamperEvident,
      dagPreserved: verdicts.dagPreserved,
      scheduleCorrect: verdicts.scheduleCorrect,
      surfaceMonotonic: verdicts.surfaceMonotonic,
    },
    legality: { illegal: illegalCount, first: illegal },
    final: { counts },
  };
}

export interface KernelFault {
  readonly index: number;
  readonly line: number;
  readonly fault: IntegrityFault;
}

export function readIntegrityFault(
  kernel: KernelExports,
  context: ReportContext,
): KernelFault | null {
  const view = new DataView(kernel.memory.buffer, kernel.reportPointer());
  const at = (global: WebAssembly.Global) => global.value as number;
  const index = view.getFloat64(at(kernel.REPORT_INTEGRITY_INDEX), true);
  if (index < 0) return null;
  const reason = INTEGRITY_REASONS[view.getInt32(at(kernel.REPORT_INTEGRITY_REASON), true)];
  const detail = view.getInt32(at(kernel.REPORT_INTEGRITY_DETAIL), true);
  let subject: string;
  switch (reason) {
    case "malformed-event":
      subject = MALFORMED_PROBLEMS[detail] as string;
      break;
    case "discharge-without-deposit":
      subject = context.ids.idAt(detail);
      break;
    case "unknown-node":
    case "unknown-kind": {
      const pointer = view.getUint32(at(kernel.REPORT_SUBJECT_POINTER), true);
      const length = view.getUint32(at(kernel.REPORT_SUBJECT_LENGTH), true);
      subject =
        context.faultSubject?.(index, reason) ??
        decodeWtf8(new Uint8Array(kernel.memory.buffer, pointer, length));
      break;
    }
    default:
      throw new Error("statefold kernel reported an unknown integrity reason code");
  }
  return {
    index,
    line: view.getFloat64(at(kernel.REPORT_INTEGRITY_LINE), true),
    fault: { reason, subject },
  };
}
