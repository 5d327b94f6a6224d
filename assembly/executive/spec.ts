/**
 * The spec of the `executive` model as the kernel holds it (docs/models/executive.md, "Spec and
 * budget"; mirrors src/models/executive/spec.ts). The host checks a spec and a budget with the
 * reference's `readSpec` — shape, each plan's DAG, the budgets, with paths — and packs what
 * passed (bindings/executive/pack-spec.ts); the kernel reads the packed tables where they lie.
 *
 * Packed layout (little-endian; offsets from the start of the blob):
 *   0    i32 × 8   plans, steps, deps, child budgets, id bytes, 3 unused
 *   32   f64 × 9   checkpointEvery (-1 when absent), depth, the root limits (Limit order)
 *   104  f64 × 8 per child budget: a field mask (bit = Limit index), then the 7 fields
 *        i32 × 2 per plan: first step, step count (plans depth first, the root first)
 *        i32 × STEP_INTS per step (see Step), steps plan by plan
 *        i32 per step: by rank — the local index of each plan's steps in code-point order of id
 *        i32 per dep: distinct deps, local indices; then as many dependents, local indices
 *        u8 × id bytes: the ids, WTF-8
 * A step's local index is its place in its plan; per-frame arrays are indexed by it.
 */

import { reserve } from "../memory";

export namespace Kind {
  export const MODEL: i32 = 0;
  export const TOOL: i32 = 1;
  export const CONTEXT: i32 = 2;
  export const SUB_PLAN: i32 = 3;
}

/** A frame's limits, in the canonical order: the six counters, then the deadline. */
export namespace Limit {
  export const STEPS: i32 = 0;
  export const MODEL_CALLS: i32 = 1;
  export const TOOL_CALLS: i32 = 2;
  export const CONTEXT_OPS: i32 = 3;
  export const RETRIES: i32 = 4;
  export const OUTPUT_BYTES: i32 = 5;
  export const DEADLINE: i32 = 6;
  export const COUNT: i32 = 7;
}
/** The counters: every limit but the deadline. */
export const COUNTERS: i32 = 6;

/** A step's ints in the packed layout: offsets in its STEP_BYTES record (header.ts writes them). */
export namespace Step {
  export const PLAN: usize = 0;
  export const KIND: usize = 4;
  export const SUB_PLAN: usize = 8;
  export const DEPS_START: usize = 12;
  export const DEPS_COUNT: usize = 16;
  export const DEPENDENTS_START: usize = 20;
  export const DEPENDENTS_COUNT: usize = 24;
  export const RANK: usize = 28;
  export const ID_START: usize = 32;
  export const ID_LENGTH: usize = 36;
  export const BUDGET: usize = 40;
  export const BYTES: usize = 44;
}

export const HEADER_BYTES: usize = 32;
export const SCALARS_BYTES: usize = 9 * 8;
export const CHILD_BUDGET_BYTES: usize = 8 * 8;

let blob: usize = 0;
let blobBytes: usize = 0;
let plans: usize = 0;
let steps: usize = 0;
let byRank: usize = 0;
let deps: usize = 0;
let dependents: usize = 0;
let budgets: usize = 0;
let ids: usize = 0;
export let planCount: i32 = 0;
export let stepCount: i32 = 0;

/** Reserves room for a packed spec of `bytes`; 0 when memory cannot grow. */
export function reserveSpec(bytes: usize): usize {
  blob = reserve(bytes);
  blobBytes = bytes;
  return blob;
}

/** Where the packed spec lies, and its length: for a host that did not write it (header.ts did). */
export function packedSpecPointer(): usize {
  return blob;
}

export function packedSpecLength(): usize {
  return blobBytes;
}

/** Reads the packed spec's tables; false when its counts do not fit the bytes given. */
export function readSpecTables(): bool {
  if (blobBytes < HEADER_BYTES + SCALARS_BYTES) return false;
  planCount = load<i32>(blob);
  stepCount = load<i32>(blob, 4);
  const depCount = <usize>load<i32>(blob, 8);
  const budgetCount = <usize>load<i32>(blob, 12);
  const idBytes = <usize>load<i32>(blob, 16);
  budgets = blob + HEADER_BYTES + SCALARS_BYTES;
  plans = budgets + budgetCount * CHILD_BUDGET_BYTES;
  steps = plans + <usize>planCount * 8;
  byRank = steps + <usize>stepCount * Step.BYTES;
  deps = byRank + <usize>stepCount * 4;
  dependents = deps + depCount * 4;
  ids = dependents + depCount * 4;
  return planCount >= 1 && ids + idBytes == blob + blobBytes;
}

export function checkpointEvery(): i64 {
  return <i64>load<f64>(blob + HEADER_BYTES);
}

export function rootDepth(): i64 {
  return <i64>load<f64>(blob + HEADER_BYTES, 8);
}

export function rootLimit(limit: i32): i64 {
  return <i64>load<f64>(blob + HEADER_BYTES + 16 + (<usize>limit << 3));
}

export function planFirstStep(plan: i32): i32 {
  return load<i32>(plans + (<usize>plan << 3));
}

export function planStepCount(plan: i32): i32 {
  return load<i32>(plans + (<usize>plan << 3), 4);
}

// @ts-expect-error: decorator
@inline
function stepField(step: i32, field: usize): i32 {
  return load<i32>(steps + <usize>step * Step.BYTES + field);
}

export function stepPlan(step: i32): i32 {
  return stepField(step, Step.PLAN);
}

export function stepKind(step: i32): i32 {
  return stepField(step, Step.KIND);
}

export function stepSubPlan(step: i32): i32 {
  return stepField(step, Step.SUB_PLAN);
}

/** The code-point rank of a step's id among its plan's. */
// @ts-expect-error: decorator
@inline
export function stepRank(step: i32): i32 {
  return stepField(step, Step.RANK);
}

export function stepIdPointer(step: i32): usize {
  return ids + <usize>stepField(step, Step.ID_START);
}

export function stepIdLength(step: i32): usize {
  return <usize>stepField(step, Step.ID_LENGTH);
}

export function depCount(step: i32): i32 {
  return stepField(step, Step.DEPS_COUNT);
}

export function dependentCount(step: i32): i32 {
  return stepField(step, Step.DEPENDENTS_COUNT);
}

/** The local index of the step's `i`th dependent (a step of its plan that depends on it). */
export function dependentAt(step: i32, i: i32): i32 {
  return load<i32>(dependents + (<usize>(stepField(step, Step.DEPENDENTS_START) + i) << 2));
}

export function depAt(step: i32, i: i32): i32 {
  return load<i32>(deps + (<usize>(stepField(step, Step.DEPS_START) + i) << 2));
}

/** The local index of the plan's step of rank `rank`. */
export function stepOfRank(plan: i32, rank: i32): i32 {
  return load<i32>(byRank + (<usize>(planFirstStep(plan) + rank) << 2));
}

/** Whether the sub-plan step's budget gives `limit`, and its value. */
export function childBudgetGives(step: i32, limit: i32): bool {
  const budget = stepField(step, Step.BUDGET);
  if (budget < 0) return false;
  return ((<i32>load<f64>(budgets + <usize>budget * CHILD_BUDGET_BYTES) >> limit) & 1) != 0;
}

export function childBudget(step: i32, limit: i32): i64 {
  const budget = stepField(step, Step.BUDGET);
  return <i64>load<f64>(budgets + <usize>budget * CHILD_BUDGET_BYTES + 8 + (<usize>limit << 3));
}

/**
 * The most per-frame array slots a frame stack can hold: over every chain of nested plans, the
 * sum of their step counts (a plan is entered only from its parent); -1 when memory cannot grow.
 */
export function deepestChainSteps(): i32 {
  // Plans are numbered depth first, so a sub-plan comes after the plan holding it.
  const chain = reserve(<usize>planCount << 2);
  if (chain == 0) return -1;
  for (let plan = planCount - 1; plan >= 0; plan--) {
    let below: i32 = 0;
    const first = planFirstStep(plan);
    const count = planStepCount(plan);
    for (let local = 0; local < count; local++) {
      const sub = stepSubPlan(first + local);
      if (sub >= 0) below = max(below, load<i32>(chain + (<usize>sub << 2)));
    }
    store<i32>(chain + (<usize>plan << 2), count + below);
  }
  return load<i32>(chain);
}
