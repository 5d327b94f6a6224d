/**
 * Models defined by data in the library (docs/api.md, "Models defined by data"): a model file
 * read and checked, and either engine made for it. An engine made here knows its model by name
 * for the rest of the process, so that its snapshots resume as every model's do.
 */
import { loadDataEngine, type WasmDataEngine } from "../../../bindings/data/engine.js";
import type { ModelEngine } from "../../engine.js";
import type { KernelOptions } from "../model.js";
import {
  addLoadedModel,
  isRegisteredModelName,
  type ModelName,
  SHIPPED_DATA_MODELS,
  type ShippedDataModelName,
} from "../registry.js";
import type { CompiledModel } from "./compiled.js";
import { type DataAuditOptions, referenceDataEngine } from "./engine.js";
import { dataModel } from "./model.js";
import type { DataAnswer } from "./report.js";

export type { WasmDataEngine } from "../../../bindings/data/engine.js";
export type { CompiledModel } from "./compiled.js";
export { auditDataJournals, type DataAuditOptions } from "./engine.js";
export { checkModel, loadModelFile, ModelFileError, parseModelFile } from "./load.js";
export type * from "./report.js";

/** The compiled models statefold ships, by name (`data.shipped.temporal`). */
export const shipped = Object.fromEntries(
  SHIPPED_DATA_MODELS.map((model) => [model.name, model.compiled]),
) as Readonly<Record<ShippedDataModelName, CompiledModel>>;

/** The reference engine of a model file's model. */
export function referenceEngineOf(model: CompiledModel): ModelEngine<DataAnswer, DataAuditOptions> {
  return referenceDataEngine(model, known(model));
}

/** The WebAssembly engine of a model file's model. */
export function loadEngineOf(
  model: CompiledModel,
  options: KernelOptions = {},
): Promise<WasmDataEngine> {
  known(model);
  return loadDataEngine(model, options);
}

function known(model: CompiledModel): ModelName {
  if (isRegisteredModelName(model.name)) return model.name;
  return addLoadedModel(dataModel(model.name, model, `the model ${model.name}`));
}
