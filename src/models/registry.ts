/**
 * The models statefold ships, each registered once (docs/architecture.md, "The model contract").
 * Every list of models, every choice of one and every union of their reports is derived from
 * `MODELS`; nothing else names a model.
 */
import { dagModel } from "./dag/model.js";
import { executiveModel } from "./executive/model.js";
import type { Model } from "./model.js";
import { operationsModel } from "./operations/model.js";

export const MODELS = [
  dagModel,
  operationsModel,
  executiveModel,
] as const satisfies readonly Model[];

type RegisteredModel = (typeof MODELS)[number];

export type ModelName = RegisteredModel["name"];

export const MODEL_NAMES: readonly ModelName[] = MODELS.map((model) => model.name);

/** The model of a journal that names none, nor is given one (docs/journals.md, "The header"). */
export const DEFAULT_MODEL: ModelName = dagModel.name;

/** A report of any model; `model` tells which. */
export type ModelReport = ReportOf<RegisteredModel>;

type ReportOf<M> = M extends Model<string, infer Report> ? Report : never;

export function isModelName(name: unknown): name is ModelName {
  return (MODEL_NAMES as readonly unknown[]).includes(name);
}

/** The registered model of that name. */
export function modelNamed<Name extends ModelName>(
  name: Name,
): Extract<RegisteredModel, { name: Name }> {
  return MODELS.find((model) => model.name === name) as Extract<RegisteredModel, { name: Name }>;
}
