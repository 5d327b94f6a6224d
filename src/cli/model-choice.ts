/**
 * `--model NAME|FILE` of the commands that audit (docs/commands.md): a registered model's name,
 * or a model file (docs/models/data.md), loaded, checked and added to the registry by its name
 * for the rest of the process. A worker thread is handed the file and loads it too.
 */
import { JournalError } from "../journal/errors.js";
import { loadDataModelFile } from "../models/data/load.js";
import type { DataModel } from "../models/data/model.js";
import { modelFormatOf } from "../models/data/model-text.js";
import {
  addLoadedModel,
  isModelName,
  MODEL_NAMES,
  type ModelName,
  modelNamed,
} from "../models/registry.js";
import { UsageError } from "./command.js";

/** What `--model` chose: the model's name, and the file that defines it when it was one. */
export interface ModelChoice {
  readonly model: ModelName | undefined;
  readonly modelFile?: string | undefined;
}

export async function chooseModelFlag(
  command: string,
  value: string | undefined,
): Promise<ModelChoice> {
  if (value === undefined) return { model: undefined };
  if (isModelName(value)) return { model: value };
  if (modelFormatOf(value) === null) {
    const names = MODEL_NAMES.map((name) => `'${name}'`).join(", ");
    throw new UsageError(
      `--model must be a model's name (${names}) or a model file (.json, .yaml, .yml), found '${value}'`,
      command,
    );
  }
  return { model: await useModelFile(value), modelFile: value };
}

/** Loads the model a file defines into this process's registry; its name from then on. */
export async function useModelFile(path: string): Promise<ModelName> {
  const model = await loadDataModelFile(path);
  try {
    return addLoadedModel(model);
  } catch (error) {
    throw new JournalError(path, (error as Error).message);
  }
}

/** The help's words for `--model`, beside a command's own. */
export const MODEL_FLAG_HELP = `${MODEL_NAMES.join(", ")}, or a model file of your own (.json, .yaml: docs/models/data.md)`;

/**
 * Whether a model's journals are JSON documents (`records.source` an array: docs/models/data.md,
 * "Journals"): written whole, so audited whole — never snapshotted, nor watched as they grow.
 */
export function journalsAreDocuments(model: ModelName): boolean {
  const chosen = modelNamed(model);
  return "compiled" in chosen && !("lines" in (chosen as DataModel).compiled.source);
}
