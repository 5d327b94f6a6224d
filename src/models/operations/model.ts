/**
 * The operations model as the rest of statefold sees it (docs/models/operations.md): its entry
 * in the model registry.
 */
import { operationsGate } from "../../gate/operations/candidates.js";
import type { Model } from "../model.js";
import type { OperationsAuditOptions } from "./engine.js";
import type { OperationsReport } from "./report.js";

export const operationsModel: Model<"operations", OperationsReport, OperationsAuditOptions> = {
  name: "operations",
  summary: "effects, retries and leases of long-running work: twelve rules",
  reference: async () => (await import("./engine.js")).referenceOperationsEngine,
  kernel: async (options) =>
    (await import("../../../bindings/operations/engine.js")).loadOperationsEngine(options),
  kernelOptions: ["wasm", "flavour", "memoryLimitBytes"],
  commandLine: { flags: [], engineOptions: async () => ({}), ownFormats: [] },
  gate: operationsGate,
};
