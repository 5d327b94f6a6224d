import { loadModelFile } from "../models/data/load.js";
import { useCompiledModel } from "../models/data/loaded.js";
import { modelFormatOf } from "../models/data/model-text.js";
import { isModelName, MODEL_NAMES, type ModelName, modelNamed } from "../models/registry.js";
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
  return useCompiledModel(await loadModelFile(path), path);
}

/** The help's words for `--model`, beside a command's own. */
export const MODEL_FLAG_HELP = `${MODEL_NAMES.join(", ")}, or a model file of your own (.json, .yaml: docs/models/data.md)`;

/**
 * Whether a model's journals are JSON documents (`records.source` an array: docs/models/data.md,
 * "Journals"): written whole, so audited whole — never snapshotted, nor watched as they grow.
 */
export function journalsAreDocuments(model: ModelName): boolean {
  return modelNamed(model).commandLine.readsDocuments === true;
}
