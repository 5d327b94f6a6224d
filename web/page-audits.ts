/**
 * How the page audits each model's journals (web/<model>/page-audit.ts): a record over every
 * model written as a program, so a new one does not compile until the page can audit it, and one
 * page audit for every model defined by data (web/data/page-audit.ts), shipped or picked as a
 * file. The page needs its own word from each model — which kernel build it serves (a literal URL
 * Vite emits), what is picked beside a journal (a dag journal's DAG file, a .lisp-expr journal
 * read whole) — and nothing a Node process should load, which is why this is the page's and not
 * the models' manifests'.
 */
import type { DataModel } from "../src/models/data/model.js";
import type { Model } from "../src/models/model.js";
import {
  isProgramModelName,
  type ModelReport,
  type ProgramModelName,
} from "../src/models/registry.js";
import { dagPageAudit } from "./dag/page-audit.js";
import { dataPageAudit, isDataModel } from "./data/page-audit.js";
import { executivePageAudit } from "./executive/page-audit.js";
import { operationsPageAudit } from "./operations/page-audit.js";
import type { PageAudit } from "./page-audit.js";

export const PAGE_AUDITS: {
  readonly [Name in ProgramModelName]: PageAudit<Extract<ModelReport, { model: Name }>>;
} = {
  dag: dagPageAudit,
  operations: operationsPageAudit,
  executive: executivePageAudit,
};

/** The page's audit of a model's journals: its own for a program, the data one for a data model. */
export function pageAuditOf(model: Model): PageAudit<ModelReport> {
  // Each model's page audit takes that model's report; the record pairs them by name.
  if (isDataModel(model)) return dataPageAudit(model as DataModel) as PageAudit<ModelReport>;
  if (isProgramModelName(model.name)) return PAGE_AUDITS[model.name] as PageAudit<ModelReport>;
  throw new Error(`the page cannot audit journals of the model "${model.name}"`);
}
