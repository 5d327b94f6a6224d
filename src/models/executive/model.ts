/**
 * The executive model as the rest of statefold sees it (docs/models/executive.md): its entry in
 * the model registry.
 */

import { executiveExplore } from "../../explore/executive/facet.js";
import { readExecutiveRun } from "../../journal/executive/header.js";
import type { Model } from "../model.js";
import type { ExecutiveReport, ExecutiveRun } from "./audit.js";
import type { ExecutiveAuditOptions } from "./engine.js";

export const executiveModel: Model<
  "executive",
  ExecutiveReport,
  ExecutiveAuditOptions,
  ExecutiveRun
> = {
  name: "executive",
  summary: "a task executive running a plan on a budget: its recorded decisions checked",
  readHeaderFields: readExecutiveRun,
  recognisesRecord: (value) =>
    Object.hasOwn(value, "observation") && Object.hasOwn(value, "decision"),
  reference: async () => (await import("./engine.js")).referenceExecutiveEngine,
  kernel: async (options) =>
    (await import("../../../bindings/executive/engine.js")).loadExecutiveEngine(options),
  explore: executiveExplore,
};
