/**
 * A spec and budget the reference's `readSpec` accepted, packed for the `executive` kernel in
 * the layout assembly/executive/spec.ts draws: plans depth first (the root first, a sub-plan
 * after the plan holding it), each plan's steps contiguous, deps and dependents as local
 * indices, each plan's steps ranked by code point of id. What the host needs to turn the
 * kernel's indices back into the reference's values is kept beside it.
 */
import { compareCodePoints } from "../../src/models/dag/dag.js";
import type { Budget, Plan, PlanStep, Spec } from "../../src/models/executive/spec.js";
import { encodeWtf8Into } from "../wtf8.js";
import { LIMITS } from "./codes.js";

export interface PackedSpec {
  readonly spec: Spec;
  readonly budget: Budget;
  readonly bytes: Uint8Array;
  /** Every step, by global index. */
  readonly steps: readonly PlanStep[];
  readonly plans: readonly Plan[];
  /** Each plan's first global step index, by plan index. */
  readonly firstSteps: readonly number[];
  /** The plan index of each Plan object. */
  readonly planIndex: ReadonlyMap<Plan, number>;
  /** Each plan's steps' local indices by id, by plan index. */
  readonly localIndex: readonly ReadonlyMap<string, number>[];
}

const KIND = { model: 0, tool: 1, context: 2 } as const;
const SUB_PLAN = 3;
const STEP_INTS = 11;
const HEADER_BYTES = 32;
const SCALARS = 9;
const CHILD_BUDGET_F64S = 8;

export function packSpec(spec: Spec, budget: Budget): PackedSpec {
  const plans: Plan[] = [];
  const firstSteps: number[] = [];
  const steps: PlanStep[] = [];
  const planIndex = new Map<Plan, number>();
  const number = (plan: Plan) => {
    planIndex.set(plan, plans.length);
    plans.push(plan);
    firstSteps.push(steps.length);
    for (const step of plan.steps) steps.push(step);
    for (const step of plan.steps) if ("plan" in step) number(step.plan);
  };
  number(spec.plan);

  // Flat arrays, not an array or set per step: a spec may hold 100 000 steps.
  const stepCount = steps.length;
  const planOfStep = new Int32Array(stepCount);
  for (const [p, plan] of plans.entries()) {
    planOfStep.fill(p, firstSteps[p] as number, (firstSteps[p] as number) + plan.steps.length);
  }
  const localIndex = plans.map((plan) => {
    const index = new Map<string, number>();
    for (let i = 0; i < plan.steps.length; i++) index.set((plan.steps[i] as PlanStep).id, i);
    return index;
  });
  const depsStart = new Int32Array(stepCount + 1);
  let depCount = 0;
  for (const step of steps) depCount += step.deps.length;
  const deps = new Int32Array(depCount);
  const lastNamedBy = new Int32Array(stepCount).fill(-1); // a dep named twice in one list counts once
  const dependentsStart = new Int32Array(stepCount + 1);
  depCount = 0;
  for (let global = 0; global < stepCount; global++) {
    const plan = planOfStep[global] as number;
    const first = firstSteps[plan] as number;
    const local = localIndex[plan] as Map<string, number>;
    const stepDeps = (steps[global] as PlanStep).deps;
    for (let d = 0; d < stepDeps.length; d++) {
      const dep = first + (local.get(stepDeps[d] as string) as number);
      if (lastNamedBy[dep] === global) continue;
      lastNamedBy[dep] = global;
      deps[depCount++] = dep - first;
      dependentsStart[dep + 1] = (dependentsStart[dep + 1] as number) + 1;
    }
    depsStart[global + 1] = depCount;
  }
  for (let global = 0; global < stepCount; global++) {
    dependentsStart[global + 1] =
      (dependentsStart[global + 1] as number) + (dependentsStart[global] as number);
  }
  const dependents = new Int32Array(depCount);
  const nextDependent = dependentsStart.slice(0, stepCount);
  for (let global = 0; global < stepCount; global++) {
    const first = firstSteps[planOfStep[global] as number] as number;
    for (let at = depsStart[global] as number; at < (depsStart[global + 1] as number); at++) {
      const dep = first + (deps[at] as number);
      dependents[nextDependent[dep] as number] = global - first;
      nextDependent[dep] = (nextDependent[dep] as number) + 1;
    }
  }
  let idRoom = 0;
  for (const step of steps) idRoom += 3 * step.id.length;
  const idBuffer = new Uint8Array(idRoom);
  const idStart = new Int32Array(stepCount + 1);
  for (const [global, step] of steps.entries()) {
    idStart[global + 1] = encodeWtf8Into(step.id, idBuffer, idStart[global] as number);
  }
  const idBytes = idStart[stepCount] as number;
  let budgeted = 0;
  for (const step of steps) if ("plan" in step && step.budget !== undefined) budgeted++;

  const intsStart = HEADER_BYTES + 8 * (SCALARS + CHILD_BUDGET_F64S * budgeted);
  const ints = 2 * plans.length + STEP_INTS * stepCount + stepCount + 2 * depCount;
  const bytes = new Uint8Array(intsStart + 4 * ints + idBytes);
  const view = new DataView(bytes.buffer);
  const counts = [plans.length, stepCount, depCount, budgeted, idBytes];
  for (const [i, value] of counts.entries()) view.setInt32(4 * i, value, true);
  const scalars = [
    spec.checkpointEvery ?? -1,
    budget.depth,
    ...LIMITS.map((limit) => budget[limit]),
  ];
  for (const [i, value] of scalars.entries()) view.setFloat64(HEADER_BYTES + 8 * i, value, true);

  let f64At = HEADER_BYTES + 8 * SCALARS;
  const budgetIndex = new Int32Array(stepCount).fill(-1);
  for (let global = 0, i = 0; global < stepCount; global++) {
    const step = steps[global] as PlanStep;
    if (!("plan" in step) || step.budget === undefined) continue;
    budgetIndex[global] = i++;
    let mask = 0;
    for (const [bit, limit] of LIMITS.entries()) {
      const value = step.budget[limit];
      if (value !== undefined) mask |= 1 << bit;
      view.setFloat64(f64At + 8 * (bit + 1), value ?? 0, true);
    }
    view.setFloat64(f64At, mask, true);
    f64At += 8 * CHILD_BUDGET_F64S;
  }

  let at = intsStart;
  const putInt = (value: number) => {
    view.setInt32(at, value, true);
    at += 4;
  };
  for (let p = 0; p < plans.length; p++) {
    putInt(firstSteps[p] as number);
    putInt((plans[p] as Plan).steps.length);
  }
  const ranks = new Int32Array(stepCount);
  const byRank = new Int32Array(stepCount);
  for (let p = 0; p < plans.length; p++) {
    const first = firstSteps[p] as number;
    const planSteps = (plans[p] as Plan).steps;
    const order: number[] = [];
    for (let i = 0; i < planSteps.length; i++) order.push(i);
    order.sort((a, b) =>
      compareCodePoints((planSteps[a] as PlanStep).id, (planSteps[b] as PlanStep).id),
    );
    for (let rank = 0; rank < order.length; rank++) {
      const local = order[rank] as number;
      ranks[first + local] = rank;
      byRank[first + rank] = local;
    }
  }
  for (let global = 0; global < stepCount; global++) {
    const step = steps[global] as PlanStep;
    putInt(planOfStep[global] as number);
    putInt("plan" in step ? SUB_PLAN : KIND[step.effect]);
    putInt("plan" in step ? (planIndex.get(step.plan) as number) : -1);
    putInt(depsStart[global] as number);
    putInt((depsStart[global + 1] as number) - (depsStart[global] as number));
    putInt(dependentsStart[global] as number);
    putInt((dependentsStart[global + 1] as number) - (dependentsStart[global] as number));
    putInt(ranks[global] as number);
    putInt(idStart[global] as number);
    putInt((idStart[global + 1] as number) - (idStart[global] as number));
    putInt(budgetIndex[global] as number);
  }
  // `deps` has room for every dep named; a dep named twice in one list was kept once.
  for (const section of [byRank, deps.subarray(0, depCount), dependents]) {
    for (const value of section) putInt(value);
  }
  bytes.set(idBuffer.subarray(0, idBytes), at);
  return { spec, budget, bytes, steps, plans, firstSteps, planIndex, localIndex };
}
