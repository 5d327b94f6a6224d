/**
 * The `executive` report read from the kernel's report block (layout drawn in
 * assembly/executive/audit.ts): the reference's shape (src/models/executive/audit.ts) field for
 * field, with the reference's own messages, and a listed mismatch's recorded decision parsed
 * from the bytes the kernel kept of it.
 */
import {
  type DecisionMismatch,
  type ExecutiveIntegrity,
  type ExecutiveReport,
  type ExecutiveVerdict,
  RECORDED_BYTES_MAX,
} from "../../src/models/executive/audit.js";
import type { Decision } from "../../src/models/executive/observation.js";
import { wtf8Length } from "../../src/models/executive/plain-data.js";
import { COUNTERS } from "../../src/models/executive/spec.js";
import type { Used } from "../../src/models/executive/state.js";
import { DECISION_TAGS, MALFORMED_LINE_MESSAGES, STATUSES } from "./codes.js";
import { decisionOf, terminalOf } from "./decision.js";
import { type ExecutiveKernelExports, offsetOf } from "./kernel.js";
import type { PackedSpec } from "./pack-spec.js";

const utf8 = new TextDecoder();

export function readExecutiveReport(
  kernel: ExecutiveKernelExports,
  run: PackedSpec,
): ExecutiveReport {
  const base = kernel.reportPointer();
  const view = new DataView(kernel.memory.buffer);
  const at = (name: keyof ExecutiveKernelExports) => base + offsetOf(kernel, name);
  const f64 = (name: keyof ExecutiveKernelExports) => view.getFloat64(at(name), true);
  const verdict = (name: keyof ExecutiveKernelExports): ExecutiveVerdict => {
    const index = f64(name);
    return index < 0
      ? { holds: true }
      : { holds: false, index, line: view.getFloat64(at(name) + 8, true) };
  };

  let integrity: ExecutiveIntegrity | null = null;
  const integrityIndex = f64("REPORT_INTEGRITY_INDEX");
  if (integrityIndex >= 0) {
    integrity = {
      index: integrityIndex,
      line: f64("REPORT_INTEGRITY_LINE"),
      reason: "malformed-event",
      message: MALFORMED_LINE_MESSAGES[
        view.getInt32(at("REPORT_INTEGRITY_PROBLEM"), true)
      ] as string,
    };
  }

  const mismatchBytes = offsetOf(kernel, "MISMATCH_BYTES");
  const listed = view.getInt32(at("REPORT_MISMATCHES_LISTED"), true);
  const first: DecisionMismatch[] = [];
  for (let i = 0; i < listed; i++) {
    const entry = at("REPORT_MISMATCH_LIST") + i * mismatchBytes;
    const recordedText = utf8.decode(
      new Uint8Array(
        kernel.memory.buffer,
        view.getUint32(entry + 48, true),
        view.getUint32(entry + 52, true),
      ),
    );
    const recorded: unknown = JSON.parse(recordedText);
    const bytes = wtf8Length(JSON.stringify(recorded));
    first.push({
      index: view.getFloat64(entry, true),
      line: view.getFloat64(entry + 8, true),
      reason: "decision-mismatch",
      expected: listedDecision(view, entry, run),
      ...(bytes > RECORDED_BYTES_MAX ? { recordedBytes: bytes } : { recorded }),
    });
  }

  const decisionsMatch = verdict("REPORT_DECISIONS_MATCH");
  const terminalRespected = verdict("REPORT_TERMINAL_RESPECTED");
  const conformant = integrity === null && decisionsMatch.holds && terminalRespected.holds;
  const tornLine = f64("REPORT_TORN_TAIL_LINE");
  return {
    model: "executive",
    conformant,
    strictlyConformant: conformant,
    events: f64("REPORT_EVENTS"),
    integrity,
    tornTail: tornLine === 0 ? null : { line: tornLine, offset: f64("REPORT_TORN_TAIL_OFFSET") },
    invariants: { decisionsMatch, terminalRespected },
    legality: { illegal: f64("REPORT_MISMATCHES"), first },
    final: finalOf(kernel),
  };
}

/** The machine's decision a listed mismatch kept (assembly/executive/audit.ts). */
function listedDecision(view: DataView, entry: number, run: PackedSpec): Decision {
  const tag = view.getInt32(entry + 16, true);
  // Only an execute's entry holds its path's sub-plan steps.
  const subPlans = DECISION_TAGS[tag] === "execute" ? view.getInt32(entry + 56, true) : 0;
  return decisionOf(
    {
      tag,
      reason: view.getInt32(entry + 20, true),
      budget: view.getInt32(entry + 24, true),
      step: view.getInt32(entry + 28, true),
      seq: view.getFloat64(entry + 32, true),
      attempt: view.getFloat64(entry + 40, true),
      subPlanSteps: Array.from({ length: subPlans }, (_, i) =>
        view.getInt32(entry + 64 + 4 * i, true),
      ),
    },
    run,
  );
}

/** The `final` block: the working state's status, seq, root counters and outcome. */
function finalOf(kernel: ExecutiveKernelExports): ExecutiveReport["final"] {
  const i32 = (name: keyof ExecutiveKernelExports) => kernel.stateI32(offsetOf(kernel, name));
  const status = STATUSES[i32("STATE_STATUS")] as ExecutiveReport["final"]["status"];
  const used = Object.fromEntries(
    COUNTERS.map((counter, i) => [counter, kernel.frameUsedOf(0, i)]),
  ) as unknown as Used;
  const seq = kernel.stateI64(offsetOf(kernel, "STATE_SEQ"));
  return { status, seq, used, outcome: terminalOf(kernel) };
}
