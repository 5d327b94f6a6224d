/**
 * Which of the files dropped on the page is a model file (docs/models/data.md): a YAML file, or a
 * JSON file whose opening says it is one (`"statefold": "model"`, the member every model file
 * starts its object with or carries near the top). A journal or a DAG file never says so.
 */
import { modelFormatOf } from "../src/models/data/model-format.js";

/** How much of a dropped JSON file is read to tell a model file from a journal or a DAG file. */
export const MODEL_FILE_HEAD_BYTES = 4096;

const SAYS_MODEL = /"statefold"\s*:\s*"model"/;

/** Whether a file of this name, opening with `head`, is a model file. */
export function looksLikeModelFile(name: string, head: string): boolean {
  const format = modelFormatOf(name);
  return format === "yaml" || (format === "json" && SAYS_MODEL.test(head));
}

/** The files dropped, the model file among them (at most one is taken) told apart. */
export async function sortDropped(
  files: readonly File[],
): Promise<{ readonly modelFiles: File[]; readonly others: File[] }> {
  const modelFiles: File[] = [];
  const others: File[] = [];
  for (const file of files) {
    const head = await file.slice(0, MODEL_FILE_HEAD_BYTES).text();
    (looksLikeModelFile(file.name, head) ? modelFiles : others).push(file);
  }
  return { modelFiles, others };
}
