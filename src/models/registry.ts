/**
 * The models statefold ships, each registered once (docs/architecture.md, "The model contract").
 * Every list of models, every choice of one and every union of their reports is derived from
 * `MODELS`; nothing else names a model.
 */

import type { ExploreFacet } from "../explore/facet.js";
import type { ModelGenerator } from "../generate/model-generator.js";
import { dagModel } from "./dag/model.js";
import type { DataReport } from "./data/report.js";
import { cadenceModel, stepfunctionsModel, temporalModel } from "./data/shipped/models.js";
import { executiveModel } from "./executive/model.js";
import type { Model } from "./model.js";
import { operationsModel } from "./operations/model.js";
import type { AuditAnswer } from "./report-frame.js";

/** The models written as programs, each with its own engines, generator and explorer. */
export const PROGRAM_MODELS = [
  dagModel,
  operationsModel,
  executiveModel,
] as const satisfies readonly Model[];

/** The models statefold ships as model files (docs/models/data.md, "Shipped models"). */
export const SHIPPED_DATA_MODELS = [
  temporalModel,
  cadenceModel,
  stepfunctionsModel,
] as const satisfies readonly Model[];

export const MODELS = [...PROGRAM_MODELS, ...SHIPPED_DATA_MODELS] as const;

type RegisteredModel = (typeof MODELS)[number];

declare const loadedFromFile: unique symbol;
/** The name of a model a file defines, once the file is loaded (`addLoadedModel`). */
export type LoadedModelName = string & { readonly [loadedFromFile]: true };

export type RegisteredModelName = RegisteredModel["name"];
/** The name of a model defined by data that statefold ships. */
export type ShippedDataModelName = (typeof SHIPPED_DATA_MODELS)[number]["name"];
/** The name of a model written as a program. */
export type ProgramModelName = (typeof PROGRAM_MODELS)[number]["name"];
/** A registered model's name, or a loaded model file's. */
export type ModelName = RegisteredModelName | LoadedModelName;

export const MODEL_NAMES: readonly RegisteredModelName[] = MODELS.map((model) => model.name);

/** A model `statefold explore` runs: one written as a program, whose actions it enumerates. */
export type ExplorableModel = Model & { readonly explore: ExploreFacet };

/** The models explore runs (docs/explore.md): a model defined by data has no actions to explore. */
export const EXPLORABLE_MODELS: readonly ExplorableModel[] = (MODELS as readonly Model[]).filter(
  (model: Model): model is ExplorableModel => model.explore !== undefined,
);

/** A model `statefold gen` makes journals of. */
export type GeneratingModel = Model & { gen(): Promise<ModelGenerator> };

/** The models gen makes journals of (docs/commands.md, gen). */
export const GENERATING_MODELS: readonly GeneratingModel[] = (MODELS as readonly Model[]).filter(
  (model: Model): model is GeneratingModel => model.gen !== undefined,
);

/** The model of a journal that names none, nor is given one (docs/journals.md, "The header"). */
export const DEFAULT_MODEL: ProgramModelName = dagModel.name;

/** A report of any model; `model` tells which. */
export type ModelReport = ReportOf<RegisteredModel> | DataReport<LoadedModelName>;

/** What any model's engine answers for one file or stream (a split stream: a report per journal). */
export type ModelAnswer = AuditAnswer<ModelReport>;

type ReportOf<M> = M extends Model<string, infer Report> ? Report : never;

/**
 * The models files define that this process was given (`--model FILE`, the API): from then on
 * they are found by name like the registered ones (docs/models/data.md).
 */
const loadedModels = new Map<string, Model>();

/**
 * Adds a model a file defines, by its name; a model file loaded later under the same name takes
 * its place (a command takes one `--model`). A registered model's name is refused: it names
 * that model everywhere.
 */
export function addLoadedModel(model: Model): LoadedModelName {
  if (isRegisteredModelName(model.name))
    throw new Error(
      `"${model.name}" is the name of a model statefold ships; a model file needs a name of its own`,
    );
  loadedModels.set(model.name, model);
  return model.name as LoadedModelName;
}

export function isModelName(name: unknown): name is ModelName {
  return isRegisteredModelName(name) || (typeof name === "string" && loadedModels.has(name));
}

export function isRegisteredModelName(name: unknown): name is RegisteredModelName {
  return (MODEL_NAMES as readonly unknown[]).includes(name);
}

export const PROGRAM_MODEL_NAMES: readonly ProgramModelName[] = PROGRAM_MODELS.map(
  (model) => model.name,
);

export function isProgramModelName(name: unknown): name is ProgramModelName {
  return (PROGRAM_MODEL_NAMES as readonly unknown[]).includes(name);
}

/** A name that must be a program model's, where models defined by data are not taken yet. */
export function programModelName(name: ModelName, where: string): ProgramModelName {
  if (!isProgramModelName(name))
    throw new Error(
      `${where} takes the models written as programs (${PROGRAM_MODEL_NAMES.join(", ")}), not "${name}"`,
    );
  return name;
}

/** The registered model of that name, or the loaded one. */
export function modelNamed<Name extends RegisteredModelName>(
  name: Name,
): Extract<RegisteredModel, { name: Name }>;
export function modelNamed(name: ModelName): Model;
export function modelNamed(name: ModelName): Model {
  const model = MODELS.find((registered) => registered.name === name) ?? loadedModels.get(name);
  if (model === undefined) throw new Error(`no model named "${name}" is registered or loaded`);
  return model;
}
