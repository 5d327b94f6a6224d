import { DEFAULT_MODEL, type ModelName } from "../models/registry.js";
import { JournalError } from "./errors.js";

/**
 * The model a journal is audited against (docs/journals.md, "The header"): the one its header
 * names, or the one given (`--model`, the API's `model`, an engine of one model), or `dag`.
 * A header and a given model that differ are an error naming both.
 */
export function chooseModel(
  file: string,
  headerModel: ModelName | null,
  given: ModelName | undefined,
  givenAs = "--model",
): ModelName {
  if (headerModel === null || given === undefined) return headerModel ?? given ?? DEFAULT_MODEL;
  if (headerModel === given) return given;
  throw new JournalError(
    file,
    `expected ${article(given)} "${given}" journal (${givenAs}), found one whose header names the model "${headerModel}"`,
  );
}

/** "an" before a name that starts with a vowel sound ("an executive"), "a" otherwise. */
export function article(name: string): string {
  return /^[aeiou]/.test(name) ? "an" : "a";
}
