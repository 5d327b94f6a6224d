/**
 * A model file's compiled model made known by its name, as `--model FILE` and the page's model
 * file do (docs/models/data.md): registered as a loaded model, after which journals and headers
 * find it like any model.
 */
import { JournalError } from "../../journal/errors.js";
import { addLoadedModel, type ModelName } from "../registry.js";
import type { CompiledModel } from "./compiled.js";
import { dataModel } from "./model.js";

/** Its name from then on; a name another model has is refused, naming the file. */
export function useCompiledModel(compiled: CompiledModel, file: string): ModelName {
  try {
    return addLoadedModel(dataModel(compiled.name, compiled, `the model file ${file}`));
  } catch (error) {
    throw new JournalError(file, (error as Error).message);
  }
}
