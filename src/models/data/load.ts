/**
 * Reads a model file from disk (docs/models/data.md): its name says its format, its text is
 * checked and compiled before any journal is read.
 */
import { readFile } from "node:fs/promises";
import { JournalError } from "../../journal/errors.js";
import type { CompiledModel } from "./compiled.js";
import { modelFormatOf, parseModelFile } from "./model-text.js";

export { checkModel, ModelFileError } from "./check.js";
export { parseModelFile } from "./model-text.js";

/** The model a file states; a `JournalError` (a `ModelFileError` for its content) when it cannot be. */
export async function loadModelFile(path: string): Promise<CompiledModel> {
  const format = modelFormatOf(path);
  if (format === null)
    throw new JournalError(
      path,
      "a model file is JSON (.json) or YAML (.yaml, .yml); this name says neither",
    );
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new JournalError(path, `cannot read the model file: ${(error as Error).message}`);
  }
  return parseModelFile(bytes, path);
}
