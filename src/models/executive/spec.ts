/**
 * The spec and the budget of the `executive` model (docs/models/executive.md, "Spec and
 * budget"), and their checks in three passes — shape, then each plan's DAG, then the budgets —
 * the first failure winning, named with the path to the offending value. What passes is copied
 * into plain frozen data in the canonical key order, so nothing the caller holds is read again.
 */
import { dagRejection } from "../dag/dag.js";
import {
  ABSENT,
  CALLER_VALUES,
  type Field,
  integerValue,
  isSafeInteger,
  PARSED_JSON,
  UNREADABLE,
  type ValueReader,
  wtf8Length,
} from "./plain-data.js";

export const EFFECTS = ["model", "tool", "context"] as const;
export type Effect = (typeof EFFECTS)[number];

/** The counters every frame keeps, in their canonical order. */
export const COUNTERS = [
  "steps",
  "modelCalls",
  "toolCalls",
  "contextOps",
  "retries",
  "outputBytes",
] as const;
export type Counter = (typeof COUNTERS)[number];

/** A root budget's fields, in their canonical order. */
export const BUDGET_FIELDS = [
  "steps",
  "depth",
  "modelCalls",
  "toolCalls",
  "contextOps",
  "retries",
  "outputBytes",
  "deadline",
] as const;
export type BudgetField = (typeof BUDGET_FIELDS)[number];
export type Budget = Readonly<Record<BudgetField, number>>;
/** A sub-plan's budget: any field but `depth`. */
export type ChildBudget = Readonly<Partial<Record<Exclude<BudgetField, "depth">, number>>>;

export interface EffectStep {
  readonly id: string;
  readonly deps: readonly string[];
  readonly effect: Effect;
}

export interface SubPlanStep {
  readonly id: string;
  readonly deps: readonly string[];
  readonly plan: Plan;
  readonly budget?: ChildBudget;
}

export type PlanStep = EffectStep | SubPlanStep;

export interface Plan {
  readonly steps: readonly PlanStep[];
}

export interface Spec {
  readonly task: string;
  readonly plan: Plan;
  readonly checkpointEvery?: number;
}

export const TASK_BYTES_MAX = 4096;
export const ID_BYTES_MAX = 1024;
export const DEPS_MAX = 1024;
/** Steps in a spec, all plans together. */
export const SPEC_STEPS_MAX = 100_000;
/** Plans nested in one another, the root plan the first. */
export const PLAN_NESTING_MAX = 64;
/** Every budget field lies in [0, BUDGET_VALUE_MAX]. */
export const BUDGET_VALUE_MAX = 2 ** 52;

/** Where a value lies in the spec (or, from "budget", the budget): keys and array indices. */
export type ValuePath = readonly (string | number)[];

export type SpecRejectionReason =
  | "invalid-spec"
  | "duplicate-id"
  | "dangling-dependency"
  | "cycle"
  | "invalid-budget";

export interface SpecRejection {
  readonly reason: SpecRejectionReason;
  readonly path: ValuePath;
}

export type ReadSpecResult =
  | { readonly ok: true; readonly spec: Spec; readonly budget: Budget }
  | { readonly ok: false; readonly rejection: SpecRejection };

/** Thrown inside this module only, to stop a pass at its first failure. */
class Rejected {
  constructor(readonly rejection: SpecRejection) {}
}

function reject(reason: SpecRejectionReason, path: ValuePath): never {
  throw new Rejected({ reason, path });
}

/** Checks a spec and a budget, first failure winning (docs/models/executive.md). */
export function readSpec(spec: unknown, budget: unknown): ReadSpecResult {
  return readSpecWith(CALLER_VALUES, spec, budget);
}

/** `readSpec` of values JSON.parse just made (a header's, a file's): the same answer, sooner. */
export function readParsedSpec(spec: unknown, budget: unknown): ReadSpecResult {
  return readSpecWith(PARSED_JSON, spec, budget);
}

function readSpecWith(values: ValueReader, spec: unknown, budget: unknown): ReadSpecResult {
  try {
    const reading = new SpecReading(values);
    const read = reading.spec(spec);
    for (const { plan, path } of reading.plans) checkDag(plan, path);
    const rootBudget = readRootBudget(values, budget);
    for (const pending of reading.childBudgets) {
      pending.step.budget = readChildBudget(values, pending.raw, pending.path);
    }
    for (const step of reading.subPlanSteps) Object.freeze(step);
    return { ok: true, spec: Object.freeze(read), budget: Object.freeze(rootBudget) };
  } catch (error) {
    if (error instanceof Rejected) return { ok: false, rejection: error.rejection };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Pass 1: the shape of the spec

interface MutablePlan {
  steps: (EffectStep | MutableSubPlan)[];
}

interface MutableSubPlan {
  id: string;
  deps: readonly string[];
  plan: MutablePlan;
  budget?: ChildBudget;
}

interface MutableSpec {
  task: string;
  plan: MutablePlan;
  checkpointEvery?: number;
}

/** A sub-plan's budget as given, read in pass 3. */
interface PendingBudget {
  readonly step: MutableSubPlan;
  readonly path: ValuePath;
  readonly raw: Field;
}

/** A plan met in pass 1, for pass 2, with where it lies. */
interface PlanAt {
  readonly plan: MutablePlan;
  readonly path: ValuePath;
}

/**
 * Pass 1. A value's path is built only when it is refused: a spec may hold 100 000 steps, and a
 * path per step and field read was most of the garbage a header made. What passes is frozen as
 * it is made, but a sub-plan step only after pass 3 has given it its budget.
 */
class SpecReading {
  stepCount = 0;
  /** In document order: a sub-plan step's before those of its own steps. */
  readonly childBudgets: PendingBudget[] = [];
  /** In document order: the root first, a sub-plan's before those inside it. */
  readonly plans: PlanAt[] = [];
  readonly subPlanSteps: MutableSubPlan[] = [];

  constructor(private readonly values: ValueReader) {}

  spec(value: unknown): MutableSpec {
    if (!this.values.isRecord(value)) reject("invalid-spec", []);
    const task = this.values.ownField(value, "task");
    if (typeof task !== "string" || wtf8Length(task) > TASK_BYTES_MAX) {
      reject("invalid-spec", ["task"]);
    }
    const plan = this.values.ownField(value, "plan");
    if (plan === ABSENT) reject("invalid-spec", ["plan"]);
    const spec: MutableSpec = { task, plan: this.plan(plan, ["plan"], 1) };
    const checkpointEvery = this.values.ownField(value, "checkpointEvery");
    if (checkpointEvery !== ABSENT) {
      if (!isSafeInteger(checkpointEvery) || checkpointEvery < 1) {
        reject("invalid-spec", ["checkpointEvery"]);
      }
      spec.checkpointEvery = integerValue(checkpointEvery);
    }
    refuseUnknownKeys(this.values, value, ["task", "plan", "checkpointEvery"], [], "invalid-spec");
    return spec;
  }

  plan(value: Field, path: ValuePath, nesting: number): MutablePlan {
    if (nesting > PLAN_NESTING_MAX || !this.values.isRecord(value)) reject("invalid-spec", path);
    const stepsPath = [...path, "steps"];
    const steps = this.values.ownField(value, "steps");
    if (!this.values.isArray(steps)) reject("invalid-spec", stepsPath);
    const length = this.values.arrayLength(steps);
    if (length === UNREADABLE) reject("invalid-spec", stepsPath);
    const plan: MutablePlan = { steps: [] };
    this.plans.push({ plan, path });
    for (let index = 0; index < length; index++) {
      this.stepCount += 1;
      if (this.stepCount > SPEC_STEPS_MAX) reject("invalid-spec", [...stepsPath, index]);
      plan.steps.push(
        this.step(this.values.ownField(steps, String(index)), stepsPath, index, nesting),
      );
    }
    refuseUnknownKeys(this.values, value, ["steps"], path, "invalid-spec");
    Object.freeze(plan.steps);
    return Object.freeze(plan);
  }

  /** The step at `index` of the plan whose steps lie at `stepsPath`. */
  step(
    value: Field,
    stepsPath: ValuePath,
    index: number,
    nesting: number,
  ): EffectStep | MutableSubPlan {
    if (!this.values.isRecord(value)) reject("invalid-spec", [...stepsPath, index]);
    const id = this.values.ownField(value, "id");
    if (!isBoundedId(id)) reject("invalid-spec", [...stepsPath, index, "id"]);
    const deps = readDeps(this.values, this.values.ownField(value, "deps"), stepsPath, index);
    const effect = this.values.ownField(value, "effect");
    const plan = this.values.ownField(value, "plan");
    if ((effect === ABSENT) === (plan === ABSENT)) reject("invalid-spec", [...stepsPath, index]);
    if (effect !== ABSENT) {
      if (!(EFFECTS as readonly unknown[]).includes(effect)) {
        reject("invalid-spec", [...stepsPath, index, "effect"]);
      }
      const unknown = firstUnknownKey(this.values, value, EFFECT_STEP_KEYS);
      if (unknown !== null) rejectKey("invalid-spec", [...stepsPath, index], unknown);
      return Object.freeze({ id, deps, effect: effect as Effect });
    }
    const path = [...stepsPath, index];
    const step: MutableSubPlan = { id, deps, plan: { steps: [] } };
    const budget = this.values.ownField(value, "budget");
    if (budget !== ABSENT) this.childBudgets.push({ step, path: [...path, "budget"], raw: budget });
    step.plan = this.plan(plan, [...path, "plan"], nesting + 1);
    refuseUnknownKeys(this.values, value, SUB_PLAN_STEP_KEYS, path, "invalid-spec");
    this.subPlanSteps.push(step);
    return step;
  }
}

const EFFECT_STEP_KEYS = ["id", "deps", "effect"];
const SUB_PLAN_STEP_KEYS = ["id", "deps", "plan", "budget"];

function isBoundedId(value: unknown): value is string {
  return typeof value === "string" && wtf8Length(value) <= ID_BYTES_MAX;
}

/** The `deps` of the step at `index` of the plan whose steps lie at `stepsPath`. */
function readDeps(
  values: ValueReader,
  value: Field,
  stepsPath: ValuePath,
  index: number,
): readonly string[] {
  if (!values.isArray(value)) reject("invalid-spec", [...stepsPath, index, "deps"]);
  const length = values.arrayLength(value);
  if (length === UNREADABLE) reject("invalid-spec", [...stepsPath, index, "deps"]);
  const deps: string[] = [];
  for (let at = 0; at < length; at++) {
    if (at === DEPS_MAX) reject("invalid-spec", [...stepsPath, index, "deps", at]);
    const dep = values.ownField(value, String(at));
    if (!isBoundedId(dep)) reject("invalid-spec", [...stepsPath, index, "deps", at]);
    deps.push(dep);
  }
  return Object.freeze(deps);
}

/** The object's keys not among `known`, in own-key order: the first is refused. */
function refuseUnknownKeys(
  values: ValueReader,
  object: object,
  known: readonly string[],
  path: ValuePath,
  reason: SpecRejectionReason,
): void {
  const unknown = firstUnknownKey(values, object, known);
  if (unknown !== null) rejectKey(reason, path, unknown);
}

/** The first of the object's own keys not among `known`, null, or UNREADABLE (no keys listed). */
function firstUnknownKey(
  values: ValueReader,
  object: object,
  known: readonly string[],
): PropertyKey | typeof UNREADABLE | null {
  const keys = values.ownKeys(object);
  if (keys === UNREADABLE) return UNREADABLE;
  for (const key of keys) {
    if (typeof key !== "string" || !known.includes(key)) return key;
  }
  return null;
}

/** Refuses the unknown key found at `path` (or, when the keys could not be listed, `path`). */
function rejectKey(
  reason: SpecRejectionReason,
  path: ValuePath,
  key: PropertyKey | typeof UNREADABLE,
): never {
  if (key === UNREADABLE) reject(reason, path);
  reject(reason, [...path, typeof key === "string" ? key : key.toString()]);
}

// ---------------------------------------------------------------------------------------------
// Pass 2: each plan's steps a DAG, by the dag model's rules and in their order

function checkDag(plan: MutablePlan, path: ValuePath): void {
  const rejection = dagRejection(plan.steps);
  if (rejection === null) return;
  const stepsPath = [...path, "steps"];
  switch (rejection.reason) {
    case "duplicate-id": {
      const firstIndex = new Map<string, number>();
      for (const [index, { id }] of plan.steps.entries()) {
        if (firstIndex.has(id)) reject("duplicate-id", [...stepsPath, index, "id"]);
        firstIndex.set(id, index);
      }
      break;
    }
    case "dangling-dependency": {
      const ids = new Set(plan.steps.map(({ id }) => id));
      const node = plan.steps.findIndex(({ deps }) => deps.some((dep) => !ids.has(dep)));
      const dep = (plan.steps[node] as PlanStep).deps.findIndex((d) => !ids.has(d));
      reject("dangling-dependency", [...stepsPath, node, "deps", dep]);
      break;
    }
    default:
      reject("cycle", stepsPath);
  }
}

// ---------------------------------------------------------------------------------------------
// Pass 3: the budgets

function isBudgetValue(value: unknown): value is number {
  return isSafeInteger(value) && value >= 0 && value <= BUDGET_VALUE_MAX;
}

function readRootBudget(values: ValueReader, value: unknown): Record<BudgetField, number> {
  const path = ["budget"];
  if (!values.isRecord(value)) reject("invalid-budget", path);
  const budget = {} as Record<BudgetField, number>;
  for (const field of BUDGET_FIELDS) {
    const given = values.ownField(value, field);
    if (!isBudgetValue(given)) reject("invalid-budget", [...path, field]);
    budget[field] = integerValue(given);
  }
  refuseUnknownKeys(values, value, BUDGET_FIELDS, path, "invalid-budget");
  return budget;
}

function readChildBudget(values: ValueReader, value: Field, path: ValuePath): ChildBudget {
  if (!values.isRecord(value)) reject("invalid-budget", path);
  const budget: Partial<Record<BudgetField, number>> = {};
  for (const field of BUDGET_FIELDS) {
    const given = values.ownField(value, field);
    if (given === ABSENT) continue;
    if (field === "depth" || !isBudgetValue(given)) reject("invalid-budget", [...path, field]);
    budget[field] = integerValue(given);
  }
  refuseUnknownKeys(values, value, BUDGET_FIELDS, path, "invalid-budget");
  return Object.freeze(budget) as ChildBudget;
}
