/**
 * What the page tells of each model (docs/journals.md, "The header", and each model's doc under
 * docs/models/): what its journals hold and what to pick beside one. A record over every model
 * written as a program, so a new one does not compile until the page can say what its journals
 * need; a model defined by data is told from its own file (its summary, where its records are),
 * so that no shipped model's words are written here. Text between backticks is shown as code.
 */
import { formatPath } from "../src/journal/json-array-source.js";
import type { RecordSource } from "../src/models/data/compiled.js";
import type { DataModel } from "../src/models/data/model.js";
import type { Model } from "../src/models/model.js";
import {
  isProgramModelName,
  isRegisteredModelName,
  type ProgramModelName,
} from "../src/models/registry.js";
import { isDataModel } from "./data/page-audit.js";

const PROGRAM_MODEL_GUIDES: Readonly<Record<ProgramModelName, string>> = {
  dag: "a work DAG's events. A header line carries the DAG; a journal without one, and every `.lisp-expr` journal, needs its DAG file (`{\"nodes\":[…]}`) picked beside it. With a header the DAG file is optional, and must then be the header's DAG.",
  operations:
    "operations, their effects and retries. Nothing is picked beside it; a journal without a header line needs Model: operations.",
  executive:
    "an executive's observations and decisions. Its header line, with the run's spec and budget, is required: `statefold executive SPEC BUDGET` writes it. A journal without one cannot be audited, here or by `statefold audit`, which take no spec or budget file.",
};

/** The guide to a model file of one's own, picked beside the journal. */
export const MODEL_FILE_GUIDE =
  "a model file of your own, JSON or YAML (docs/models/data.md), picked as Model file: checked as `statefold audit --model FILE` checks it, a refusal naming the line and the JSON Pointer of what is wrong; its journals are JSONL or one JSON document, as its `records.source` says.";

export function modelGuide(model: Model): string {
  if (isDataModel(model)) return dataModelGuide(model);
  if (isProgramModelName(model.name)) return PROGRAM_MODEL_GUIDES[model.name];
  throw new Error(`the page has no guide to the model "${model.name}"`);
}

/** A model defined by data: its summary, where its records are, and where its rules are told. */
export function dataModelGuide(model: DataModel): string {
  const rules = isRegisteredModelName(model.name)
    ? `docs/models/${model.name}.md`
    : "the model file, and docs/models/data.md";
  return `${model.summary}: a model defined by data. ${journalShape(model.compiled.source)} Nothing is picked beside it; its rules, and what a finding means: ${rules}.`;
}

/** How a journal of a model defined by data is written, as its `records.source` says. */
export function journalShape(source: RecordSource): string {
  if ("lines" in source)
    return 'Its journal is JSONL, one record a line; a header line (`{"statefold":"journal","version":1}`) is optional.';
  const places = source.arrays.map((path) =>
    path.length === 0 ? "the document itself" : `the array at \`${formatPath(path)}\``,
  );
  const last = places.pop();
  const where = places.length === 0 ? last : `${places.join(", ")} or ${last}, whichever it has`;
  return `Its journal is one JSON document (\`.json\`), whose records are ${where}.`;
}
