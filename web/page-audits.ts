/**
 * How the page audits each model's journals (web/<model>/page-audit.ts): a record over every
 * model, so a new model does not compile until the page can audit it. The page needs its own
 * word from each model — which kernel build it serves (a literal URL Vite emits), what is picked
 * beside a journal (a dag journal's DAG file, a .lisp-expr journal read whole) — and nothing a
 * Node process should load, which is why this is the page's and not the models' manifests'.
 */
import type { ModelReport, ProgramModelName } from "../src/models/registry.js";
import { dagPageAudit } from "./dag/page-audit.js";
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
