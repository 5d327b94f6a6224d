/**
 * A spec and budget the reference's `readSpec` accepted, packed for the `executive` kernel in
 * the layout assembly/executive/spec.ts draws: plans depth first (the root first, a sub-plan
 * after the plan holding it), each plan's steps contiguous, deps and dependents as local
 * indices, each plan's steps ranked by code point of id. The kernel packs a plain header's spec
 * itself (assembly/executive/header.ts) into the same bytes; what the host needs to turn the
 * kernel's indices back into the reference's values is kept beside them, or for a spec the
 * kernel read, made from the header line when first asked for.
 */
import { compareCodePoints } from "../../src/models/dag/dag.js";
import type { Budget, Effect, Plan, PlanStep, Spec } from "../../src/models/executive/spec.js";
import { decodeWtf8, encodeWtf8Into } from "../wtf8.js";
import { EFFECTS, LIMITS } from "./codes.js";

export interface PackedSpec {
  /** The packed spec, as the kernel loads it. */
  readonly bytes: Uint8Array;
  /** The reference's spec and budget, and the kernel's indices into them. */
  readonly tables: SpecTables;
}

export interface SpecTables {
  readonly spec: Spec;
  readonly budget: Budget;
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

const SUB_PLAN = 3;
const STEP_INTS = 11;
/** Where a step's kind, id offset and id length lie among its ints. */
const KIND_INT = 1;
const ID_START_INT = 8;
const ID_LENGTH_INT = 9;
const HEADER_BYTES = 32;
const SCALARS = 9;
const CHILD_BUDGET_F64S = 8;

export function packSpec(spec: Spec, budget: Budget): PackedSpec {
  const tables = specTables(spec, budget);
  return { bytes: packTables(tables), tables };
}

/**
 * The packed spec the kernel made of a header line, whose reference values `read` gives (from the
 * line, with the reference reader) only when something asks for them: a snapshot, the machine.
 */
export function kernelPackedSpec(bytes: Uint8Array, read: () => [Spec, Budget]): PackedSpec {
  let tables: SpecTables | null = null;
  return {
    bytes,
    get tables() {
      tables ??= specTables(...read());
      return tables;
    },
  };
}

function specTables(spec: Spec, budget: Budget): SpecTables {
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
  const localIndex = plans.map((plan) => {
    const index = new Map<string, number>();
    for (let i = 0; i < plan.steps.length; i++) index.set((plan.steps[i] as PlanStep).id, i);
    return index;
  });
  return { spec, budget, steps, plans, firstSteps, planIndex, localIndex };
}

function packTables(tables: SpecTables): Uint8Array {
  const { spec, budget, steps, plans, firstSteps, planIndex, localIndex } = tables;
  // Flat arrays, not an array or set per step: a spec may hold 100 000 steps.
  const stepCount = steps.length;
  const planOfStep = new Int32Array(stepCount);
  for (const [p, plan] of plans.entries()) {
    planOfStep.fill(p, firstSteps[p] as number, (firstSteps[p] as number) + plan.steps.length);
  }
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
    putInt("plan" in step ? SUB_PLAN : EFFECTS.indexOf(step.effect));
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
  return bytes;
}

/** Where a packed spec's step table and id bytes start (the layout above). */
function stepTableOf(bytes: Uint8Array): { view: DataView; steps: number; ids: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [plans, stepCount, depCount, budgeted] = [0, 4, 8, 12].map((at) => view.getInt32(at, true));
  const intsStart = HEADER_BYTES + 8 * (SCALARS + CHILD_BUDGET_F64S * (budgeted as number));
  const steps = intsStart + 8 * (plans as number);
  const ints = STEP_INTS * (stepCount as number) + (stepCount as number) + 2 * (depCount as number);
  return { view, steps, ids: steps + 4 * ints };
}

/** The id of the step at global index `step`, read from the packed bytes. */
export function packedStepId(run: PackedSpec, step: number): string {
  const { view, steps, ids } = stepTableOf(run.bytes);
  const at = steps + 4 * STEP_INTS * step;
  const start = ids + view.getInt32(at + 4 * ID_START_INT, true);
  return decodeWtf8(run.bytes.subarray(start, start + view.getInt32(at + 4 * ID_LENGTH_INT, true)));
}

/** The effect of the effect step at global index `step`, read from the packed bytes. */
export function packedStepEffect(run: PackedSpec, step: number): Effect {
  const { view, steps } = stepTableOf(run.bytes);
  return EFFECTS[view.getInt32(steps + 4 * STEP_INTS * step + 4 * KIND_INT, true)] as Effect;
}
