/**
 * The kernel's codes, by position, as the reference's strings (assembly/dag/events.ts,
 * assembly/dag/state.ts, assembly/dag/transitions.ts, assembly/dag/invariants.ts and
 * assembly/dag/header.ts hold the same orders).
 */
import type { IntegrityReason, MalformedProblem } from "../../src/models/dag/events.js";
import type { InvariantsReport } from "../../src/models/dag/report.js";
import type { GateMode, Validation } from "../../src/models/dag/state.js";
import type { IllegalityReason } from "../../src/models/dag/transitions.js";
import type { ModelName } from "../../src/models/registry.js";

export { EVENT_KINDS } from "../../src/models/dag/events.js";
export { STATUSES } from "../../src/models/dag/state.js";

/**
 * The models a header names, as the kernel's header reader codes them (assembly/header.ts,
 * HeaderModel); null: the header names none.
 */
export const HEADER_MODELS: readonly (ModelName | null)[] = [
  "dag",
  "operations",
  "executive",
  null,
];

export const INTEGRITY_REASONS: readonly IntegrityReason[] = [
  "malformed-event",
  "unknown-node",
  "unknown-kind",
  "discharge-without-deposit",
];

export const MALFORMED_PROBLEMS: readonly MalformedProblem[] = [
  "invalid-utf8",
  "invalid-json",
  "not-an-object",
  "kind-not-a-string",
  "id-not-a-string",
];

export const ILLEGALITY_REASONS: readonly IllegalityReason[] = [
  "wrong-status",
  "dependencies-not-proven",
  "invalid-result",
  "already-terminal",
  "invalid-surface",
  "surface-shrinks",
];

export type StepInvariantName = Exclude<keyof InvariantsReport, "tamperEvident">;

export const STEP_INVARIANTS: readonly StepInvariantName[] = [
  "phaseMonotonic",
  "noPendingProven",
  "dagPreserved",
  "scheduleCorrect",
  "surfaceMonotonic",
];

/** Validation codes; 0 means no deposit. */
export const VALIDATIONS: readonly (Validation | null)[] = [null, "pending", "proven", "failed"];
export const GATE_MODES: readonly GateMode[] = ["gated", "degraded"];

export const Kind = {
  SURFACE_WIDENED: 7,
  FAULT_MALFORMED: 8,
  FAULT_UNKNOWN_NODE: 9,
  FAULT_UNKNOWN_KIND: 10,
} as const;
export const Result = { MISSING_OR_OTHER: 0, PASS: 1, FAIL: 2, TIMEOUT: 3 } as const;
export const SurfaceShape = { ABSENT: 0, STRINGS: 1, OTHER: 2 } as const;
export const Limit = { NONE: 0, MEMORY: 1, LINE_LENGTH: 2 } as const;
