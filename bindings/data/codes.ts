/**
 * The data kernel's codes (assembly/data/report.ts Reason, assembly/data/record.ts Problem and
 * Found) turned back into the reference's words, by position; test/bindings/data/pack-model.test.ts
 * holds them to the kernel's namespaces.
 */
import type { FieldType, Path } from "../../src/models/data/compiled.js";
import { DATA_REASONS, type DataReason } from "../../src/models/data/report.js";

export const REASONS: readonly DataReason[] = DATA_REASONS;

export const PROBLEMS = [
  "invalid-utf8",
  "invalid-json",
  "not-an-object",
  "kind-not-a-string",
  "wrong-type",
  "int-out-of-range",
] as const;

export type Problem = (typeof PROBLEMS)[number];

export const FOUND = ["string", "number", "bool", "object", "array", "null"] as const;

const TYPE_WORDS: Readonly<Record<FieldType, string>> = {
  int: "an int",
  string: "a string",
  bool: "a bool",
};

/** A path as a model file writes it (member names joined by `.`, a suffix step as `*SUFFIX`). */
export function pathText(path: Path): string {
  return path.map((step) => ("member" in step ? step.member : `*${step.suffix}`)).join(".");
}

/** The message of a record's integrity fault. */
export function integrityMessage(
  problem: Problem,
  field: { readonly name: string; readonly type: FieldType } | null,
  kindPath: Path,
): string {
  switch (problem) {
    case "invalid-utf8":
      return "the line is not valid UTF-8";
    case "invalid-json":
      return "the line is not valid JSON";
    case "not-an-object":
      return "the record is not a JSON object";
    case "kind-not-a-string":
      return `the record has no string at its kind path ${JSON.stringify(pathText(kindPath))}`;
    case "wrong-type":
      return `field ${JSON.stringify(field?.name)} is not ${TYPE_WORDS[field?.type ?? "int"]}`;
    case "int-out-of-range":
      return `field ${JSON.stringify(field?.name)} is an int outside [-2^63, 2^63-1]`;
    default: {
      const unreachable: never = problem;
      return unreachable;
    }
  }
}
