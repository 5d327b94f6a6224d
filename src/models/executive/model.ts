/**
 * The executive model as the rest of statefold sees it (docs/models/executive.md): its entry in
 * the model registry.
 */
import { executiveGate } from "../../gate/executive/candidates.js";
import type { Model } from "../model.js";
import type { ExecutiveReport } from "./audit.js";
import type { ExecutiveAuditOptions } from "./engine.js";

export const executiveModel: Model<"executive", ExecutiveReport, ExecutiveAuditOptions> = {
  name: "executive",
  summary: "a task executive running a plan on a budget: its recorded decisions checked",
  reference: async () => (await import("./engine.js")).referenceExecutiveEngine,
  kernel: async (options) =>
    (await import("../../../bindings/executive/engine.js")).loadExecutiveEngine(options),
  kernelOptions: ["wasm", "flavour", "memoryLimitBytes"],
  commandLine: { flags: [], engineOptions: async () => ({}), ownFormats: [] },
  gate: executiveGate,
};
