/**
 * The operations model as the rest of statefold sees it (docs/models/operations.md): its entry
 * in the model registry.
 */
import { operationsExplore } from "../../explore/operations/facet.js";
import { operationsGate } from "../../gate/operations/candidates.js";
import type { AnyJournalFile } from "../../journal/index.js";
import { HEADER_FIELDS_ONLY } from "../../journal/model-command-line.js";
import { operationsHtml } from "../../report/operations/html.js";
import { operationsText } from "../../report/operations/text.js";
import type { Model } from "../model.js";
import type { OperationsAuditOptions } from "./engine.js";
import { RECORD_KINDS } from "./records.js";
import type { OperationsReport } from "./report.js";

export const operationsModel: Model<
  "operations",
  OperationsReport,
  OperationsAuditOptions,
  null,
  OperationsReport
> = {
  name: "operations",
  summary: "effects, retries and leases of long-running work: twelve rules",
  readHeaderFields: () => null,
  recognisesRecord: (value) =>
    (RECORD_KINDS as readonly unknown[]).includes((value as { kind?: unknown }).kind),
  commandLine: HEADER_FIELDS_ONLY,
  reference: async () => (await import("./engine.js")).referenceOperationsEngine,
  kernel: async (options) =>
    (await import("../../../bindings/operations/engine.js")).loadOperationsEngine(options),
  kernelOptions: ["wasm", "flavour", "memoryLimitBytes"],
  text: operationsText,
  html: operationsHtml,
  gate: operationsGate,
  replay: {
    output: `An
operations journal: {"strands":[...],"operations":[...],"effects":N}, one strand or operation
per line, each operation with its steps and live effects (docs/models/operations.md).`,
    onKernel: false,
    print: async (journal: AnyJournalFile, _engine, output) =>
      (await import("../../cli/operations/replay.js")).replayOperations(journal, output),
  },
  gen: async () => (await import("../../cli/operations/gen.js")).operationsGenerator,
  explore: operationsExplore,
  commands: [],
};
