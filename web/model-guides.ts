/**
 * What the page tells of each model (docs/journals.md, "The header", and each model's doc under
 * docs/models/): what its journals hold and what to pick beside one. A record over every model,
 * so a new model does not compile until the page can say what its journals need. Text between
 * backticks is shown as code.
 */
import type { ProgramModelName } from "../src/models/registry.js";

export const MODEL_GUIDES: Readonly<Record<ProgramModelName, string>> = {
  dag: "a work DAG's events. A header line carries the DAG; a journal without one, and every `.lisp-expr` journal, needs its DAG file (`{\"nodes\":[…]}`) picked beside it. With a header the DAG file is optional, and must then be the header's DAG.",
  operations:
    "operations, their effects and retries. Nothing is picked beside it; a journal without a header line needs Model: operations.",
  executive:
    "an executive's observations and decisions. Its header line, with the run's spec and budget, is required: `statefold executive SPEC BUDGET` writes it. A journal without one cannot be audited, here or by `statefold audit`, which take no spec or budget file.",
};
