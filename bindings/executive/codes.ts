/**
 * The `executive` kernel's codes, by position, as the reference's strings (assembly/executive/
 * state.ts, step.ts, observation.ts and audit.ts hold the same orders).
 */
import {
  type ExhaustedBudget,
  FAIL_REASONS,
  OBSERVATION_TAGS,
  REJECT_REASONS,
} from "../../src/models/executive/observation.js";
import { COUNTERS, EFFECTS } from "../../src/models/executive/spec.js";
import { STATUSES } from "../../src/models/executive/state.js";

export { EFFECTS, FAIL_REASONS, OBSERVATION_TAGS, REJECT_REASONS, STATUSES };

export const DECISION_TAGS = [
  "execute",
  "checkpoint",
  "wait",
  "complete",
  "fail",
  "reject",
] as const;

/** A budget-exhausted fail's budget: the counters in their order, then depth. */
export const EXHAUSTED_BUDGETS: readonly ExhaustedBudget[] = [...COUNTERS, "depth"];

/** A frame's limits in the kernel's order: the counters, then the deadline. */
export const LIMITS = [...COUNTERS, "deadline"] as const;

export const OUTSTANDING = { none: 0, execute: 1, checkpoint: 2 } as const;

/** Why a line is no observation and its decision (assembly/executive/audit.ts, Problem). */
export { MALFORMED_LINE_MESSAGES } from "../../src/models/executive/audit.js";
