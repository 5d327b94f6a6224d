/**
 * The executive model as the rest of statefold sees it (docs/models/executive.md): its entry in
 * the model registry.
 */

import { executiveExplore } from "../../explore/executive/facet.js";
import { executiveGate } from "../../gate/executive/candidates.js";
import { readExecutiveRun } from "../../journal/executive/header.js";
import type { AnyJournalFile } from "../../journal/index.js";
import { HEADER_FIELDS_ONLY } from "../../journal/model-command-line.js";
import { executiveHtml } from "../../report/executive/html.js";
import { executiveText } from "../../report/executive/text.js";
import type { Model } from "../model.js";
import type { ExecutiveReport, ExecutiveRun } from "./audit.js";
import type { ExecutiveAuditOptions } from "./engine.js";

export const executiveModel: Model<
  "executive",
  ExecutiveReport,
  ExecutiveAuditOptions,
  ExecutiveRun,
  ExecutiveReport
> = {
  name: "executive",
  summary: "a task executive running a plan on a budget: its recorded decisions checked",
  readHeaderFields: readExecutiveRun,
  recognisesRecord: (value) =>
    Object.hasOwn(value, "observation") && Object.hasOwn(value, "decision"),
  commandLine: HEADER_FIELDS_ONLY,
  reference: async () => (await import("./engine.js")).referenceExecutiveEngine,
  kernel: async (options) =>
    (await import("../../../bindings/executive/engine.js")).loadExecutiveEngine(options),
  kernelOptions: ["wasm", "flavour", "memoryLimitBytes"],
  text: executiveText,
  html: executiveHtml,
  gate: executiveGate,
  replay: {
    output: `An
executive journal: the state the machine reaches when every observation is replayed through
it, the recorded decisions aside — {"version","spec","status","seq","now","frames",...}, the
body of its snapshot (docs/models/executive.md, "State").`,
    onKernel: true,
    print: async (journal: AnyJournalFile, engine, output) =>
      (await import("../../cli/executive/replay.js")).replayExecutive(journal, engine, output),
  },
  gen: async () => (await import("../../cli/executive/gen.js")).executiveGenerator,
  explore: executiveExplore,
  commands: [
    {
      name: "executive",
      summary: "run the executive machine: observations on stdin, the journal on stdout",
      after: "gen",
      load: async () => (await import("../../cli/executive/executive.js")).executiveCommand,
    },
  ],
};
