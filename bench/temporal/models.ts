/**
 * The two forms of the shipped `temporal` model the benchmarks audit with: the shipped model
 * itself, whose records are the `events` array of a JSON document (docs/models/temporal.md), and
 * the same model reading its records as JSONL, built here from the shipped file with
 * `records.source` set to `"lines"` (docs/models/data.md, "Records") — one model file, so the two
 * measure the same tables. Both keep the shipped name, so both give the same report for the same
 * records.
 */
import { checkModel } from "../../src/models/data/check.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { temporalModel } from "../../src/models/data/shipped/models.js";
import temporalFile from "../../src/models/data/shipped/temporal.json" with { type: "json" };
import { DOCUMENT_EXTENSION } from "../json-document.js";

/** The shipped model: a history that is a JSON document. */
export const TEMPORAL_DOCUMENT_MODEL: CompiledModel = temporalModel.compiled;

/** The shipped model's tables over a journal of JSONL. */
export const TEMPORAL_LINES_MODEL: CompiledModel = checkModel(
  { ...temporalFile, records: { ...temporalFile.records, source: "lines" } },
  "temporal.json (its records read as JSONL)",
);

/** The model a journal file of the benchmarks is audited with, by its name. */
export function temporalModelFor(path: string): CompiledModel {
  return path.endsWith(DOCUMENT_EXTENSION) ? TEMPORAL_DOCUMENT_MODEL : TEMPORAL_LINES_MODEL;
}
