/**
 * The models statefold knows, by the name a journal's header gives (docs/journals.md, "The
 * header"). A journal that names none is a `dag` journal.
 */
import type { Report as DagReport } from "./dag/report.js";
import type { ExecutiveReport } from "./executive/audit.js";
import type { OperationsReport } from "./operations/report.js";

export const MODEL_NAMES = ["dag", "operations", "executive"] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

export const DEFAULT_MODEL: ModelName = "dag";

/** A report of any model; `model` tells which. */
export type ModelReport = DagReport | OperationsReport | ExecutiveReport;

export function isModelName(name: unknown): name is ModelName {
  return (MODEL_NAMES as readonly unknown[]).includes(name);
}
