/**
 * The reference's values from the executive kernel's codes (assembly/executive/step.ts and
 * state.ts): a decision, a failure, the outcome of a state — whether the codes come from the
 * kernel's working state (machine.ts) or a listed mismatch of its report (read-report.ts).
 */
import type { Terminal } from "../../src/models/executive/machine.js";
import type { Decision } from "../../src/models/executive/observation.js";
import type { Failure } from "../../src/models/executive/state.js";
import {
  DECISION_TAGS,
  EXHAUSTED_BUDGETS,
  FAIL_REASONS,
  REJECT_REASONS,
  STATUSES,
} from "./codes.js";
import { type ExecutiveKernelExports, offsetOf } from "./kernel.js";
import { type PackedSpec, packedStepEffect, packedStepId } from "./pack-spec.js";

/** A decision as the kernel writes it. */
export interface DecisionCodes {
  readonly tag: number;
  readonly seq: number;
  /** A reject's reason or a fail's. */
  readonly reason: number;
  readonly budget: number;
  /** An execute's effect step (global index), and the sub-plan steps on its path, root first. */
  readonly step: number;
  readonly subPlanSteps: readonly number[];
  readonly attempt: number;
}

export function decisionOf(codes: DecisionCodes, run: PackedSpec): Decision {
  const { seq } = codes;
  switch (DECISION_TAGS[codes.tag]) {
    case "reject":
      return { tag: "reject", reason: REJECT_REASONS[codes.reason] as never };
    case "execute":
      return {
        tag: "execute",
        seq,
        path: Object.freeze(
          [...codes.subPlanSteps, codes.step].map((step) => packedStepId(run, step)),
        ),
        effect: packedStepEffect(run, codes.step),
        attempt: codes.attempt,
      };
    case "fail":
      return { tag: "fail", seq, ...(failureOf(codes.reason, codes.budget) as Failure) };
    default:
      return { tag: DECISION_TAGS[codes.tag] as "checkpoint" | "wait" | "complete", seq };
  }
}

/** A failure from its codes; null for the reason code -1 (not failed). */
export function failureOf(reason: number, budget: number): Failure | null {
  if (reason < 0) return null;
  return Object.freeze({
    reason: FAIL_REASONS[reason] as Failure["reason"],
    ...(budget < 0 ? {} : { budget: EXHAUSTED_BUDGETS[budget] as Failure["budget"] }),
  });
}

/** `terminal` of the kernel's working state. */
export function terminalOf(kernel: ExecutiveKernelExports): Terminal {
  const i32 = (name: keyof ExecutiveKernelExports) => kernel.stateI32(offsetOf(kernel, name));
  const status = STATUSES[i32("STATE_STATUS")];
  if (status === "completed") return { outcome: "completed" };
  if (status !== "failed") return null;
  const failure = failureOf(i32("STATE_FAILURE_REASON"), i32("STATE_FAILURE_BUDGET"));
  return { outcome: "failed", ...(failure as Failure) };
}
