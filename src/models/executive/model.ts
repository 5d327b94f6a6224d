/**
 * The executive model as the rest of statefold sees it (docs/models/executive.md): its entry in
 * the model registry.
 */
import type { Model } from "../model.js";
import type { ExecutiveReport } from "./audit.js";
import type { ExecutiveAuditOptions } from "./engine.js";

export const executiveModel: Model<"executive", ExecutiveReport, ExecutiveAuditOptions> = {
  name: "executive",
  summary: "a task executive running a plan on a budget: its recorded decisions checked",
  reference: async () => (await import("./engine.js")).referenceExecutiveEngine,
  kernel: async (options) =>
    (await import("../../../bindings/executive/engine.js")).loadExecutiveEngine(options),
  commands: [
    {
      name: "executive",
      summary: "run the executive machine: observations on stdin, the journal on stdout",
      after: "gen",
      load: async () => (await import("../../cli/executive/executive.js")).executiveCommand,
    },
  ],
  gen: async () => (await import("../../cli/executive/gen.js")).executiveGenerator,
};
