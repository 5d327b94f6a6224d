/**
 * The format a model file's name says (docs/models/data.md, "YAML"), apart from the readers of
 * either, so that what only looks at a name (the page telling a dropped model file) loads no parser.
 */

export type ModelFormat = "json" | "yaml";

/** The format a model file's name says, or null when it says none statefold reads. */
export function modelFormatOf(file: string): ModelFormat | null {
  const lower = file.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  return null;
}
