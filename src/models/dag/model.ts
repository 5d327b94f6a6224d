/**
 * The dag model as the rest of statefold sees it (docs/models/dag.md): its entry in the model
 * registry. Everything a command, a page or a benchmark needs of the model is reached from here.
 */

import { dagGate } from "../../gate/dag/candidates.js";
import { dagCommandLine } from "../../journal/dag/command-line.js";
import type { Model } from "../model.js";
import type { AuditBytesOptions } from "./engine.js";
import type { Report } from "./report.js";

export const dagModel: Model<"dag", Report, AuditBytesOptions> = {
  name: "dag",
  summary: "a work campaign over a DAG of tasks: six invariants, eight transitions",
  reference: async () => (await import("./engine.js")).referenceEngine,
  kernel: async (options) => (await import("../../../bindings/dag/engine.js")).loadEngine(options),
  kernelOptions: ["wasm", "flavour"],
  commandLine: dagCommandLine,
  gate: dagGate,
};
