/**
 * A spec and budget the reference's `readSpec` accepted, packed for the `executive` kernel in
 * the layout assembly/executive/spec.ts draws: plans depth first (the root first, a sub-plan
 * after the plan holding it), each plan's steps contiguous, deps and dependents as local
 * indices, each plan's steps ranked by code point of id. What the host needs to turn the
 * kernel's indices back into the reference's values is kept beside it.
 */
import { compareCodePoints } from "../../src/models/dag/dag.js";
import type { Budget, Plan, PlanStep, Spec } from "../../src/models/executive/spec.js";
import { encodeWtf8 } from "../wtf8.js";
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
    steps.push(...plan.steps);
    for (const step of plan.steps) if ("plan" in step) number(step.plan);
  };
  number(spec.plan);

  const ids = steps.map((step) => encodeWtf8(step.id));
  const idBytes = ids.reduce((sum, id) => sum + id.length, 0);
  const localIndex = plans.map((plan) => new Map(plan.steps.map((step, i) => [step.id, i])));
  const localDeps = steps.map((step, global) => {
    const local = localIndex[planOf(firstSteps, global)] as Map<string, number>;
    return [...new Set(step.deps)].map((dep) => local.get(dep) as number);
  });
  const depCount = localDeps.reduce((sum, deps) => sum + deps.length, 0);
  const budgeted = steps.filter((step) => "plan" in step && step.budget !== undefined);

  const intsStart = HEADER_BYTES + 8 * (SCALARS + CHILD_BUDGET_F64S * budgeted.length);
  const ints = 2 * plans.length + STEP_INTS * steps.length + steps.length + 2 * depCount;
  const bytes = new Uint8Array(intsStart + 4 * ints + idBytes);
  const view = new DataView(bytes.buffer);
  const counts = [plans.length, steps.length, depCount, budgeted.length, idBytes];
  for (const [i, value] of counts.entries()) view.setInt32(4 * i, value, true);
  const scalars = [
    spec.checkpointEvery ?? -1,
    budget.depth,
    ...LIMITS.map((limit) => budget[limit]),
  ];
  for (const [i, value] of scalars.entries()) view.setFloat64(HEADER_BYTES + 8 * i, value, true);

  let f64At = HEADER_BYTES + 8 * SCALARS;
  const budgetOf = new Map<PlanStep, number>();
  for (const [i, step] of budgeted.entries()) {
    const given = "plan" in step ? (step.budget ?? {}) : {};
    budgetOf.set(step, i);
    let mask = 0;
    for (const [bit, limit] of LIMITS.entries()) {
      const value = given[limit];
      if (value !== undefined) mask |= 1 << bit;
      view.setFloat64(f64At + 8 * (bit + 1), value ?? 0, true);
    }
    view.setFloat64(f64At, mask, true);
    f64At += 8 * CHILD_BUDGET_F64S;
  }

  let at = intsStart;
  const int = (value: number) => {
    view.setInt32(at, value, true);
    at += 4;
  };
  for (const [p, plan] of plans.entries()) {
    int(firstSteps[p] as number);
    int(plan.steps.length);
  }
  const dependents = steps.map((): number[] => []);
  for (const [global, deps] of localDeps.entries()) {
    const first = firstSteps[planOf(firstSteps, global)] as number;
    for (const dep of deps) (dependents[first + dep] as number[]).push(global - first);
  }
  const ranks = new Array<number>(steps.length);
  const byRank: number[] = [];
  for (const [p, plan] of plans.entries()) {
    const first = firstSteps[p] as number;
    const order = plan.steps.map((_, i) => i);
    order.sort((a, b) => compareCodePoints(plan.steps[a]?.id ?? "", plan.steps[b]?.id ?? ""));
    for (const [rank, local] of order.entries()) ranks[first + local] = rank;
    byRank.push(...order);
  }
  let depsAt = 0;
  let dependentsAt = 0;
  let idAt = 0;
  for (const [global, step] of steps.entries()) {
    const deps = localDeps[global] as number[];
    int(planOf(firstSteps, global));
    int("plan" in step ? SUB_PLAN : KIND[step.effect]);
    int("plan" in step ? (planIndex.get(step.plan) as number) : -1);
    int(depsAt);
    int(deps.length);
    int(dependentsAt);
    int((dependents[global] as number[]).length);
    int(ranks[global] as number);
    int(idAt);
    int((ids[global] as Uint8Array).length);
    int(budgetOf.get(step) ?? -1);
    depsAt += deps.length;
    dependentsAt += (dependents[global] as number[]).length;
    idAt += (ids[global] as Uint8Array).length;
  }
  for (const local of byRank) int(local);
  for (const deps of localDeps) for (const dep of deps) int(dep);
  for (const list of dependents) for (const dependent of list) int(dependent);
  for (const id of ids) {
    bytes.set(id, at);
    at += id.length;
  }
  return { spec, budget, bytes, steps, plans, firstSteps, planIndex, localIndex };
}

/** The plan holding the global step (plans' first steps ascend). */
export function planOf(firstSteps: readonly number[], global: number): number {
  let low = 0;
  let high = firstSteps.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((firstSteps[middle] as number) <= global) low = middle;
    else high = middle - 1;
  }
  return low;
}
