/**
 * The dag model as the rest of statefold sees it (docs/models/dag.md): its entry in the model
 * registry. Everything a command, a page or a benchmark needs of the model is reached from here.
 */

import { dagExplore } from "../../explore/dag/facet.js";
import { dagGate } from "../../gate/dag/candidates.js";
import { dagCommandLine } from "../../journal/dag/command-line.js";
import { readDagHeaderField } from "../../journal/dag/header.js";
import type { AnyJournalFile } from "../../journal/index.js";
import { dagHtml } from "../../report/dag/html.js";
import { dagText } from "../../report/dag/text.js";
import type { Model } from "../model.js";
import type { Dag } from "./dag.js";
import type { AuditBytesOptions } from "./engine.js";
import type { Report } from "./report.js";

export const dagModel: Model<"dag", Report, AuditBytesOptions, Dag, Report> = {
  name: "dag",
  summary: "a work campaign over a DAG of tasks: six invariants, eight transitions",
  readHeaderFields: readDagHeaderField,
  commandLine: dagCommandLine,
  reference: async () => (await import("./engine.js")).referenceEngine,
  kernel: async (options) => (await import("../../../bindings/dag/engine.js")).loadEngine(options),
  kernelOptions: ["wasm", "flavour"],
  text: dagText,
  html: dagHtml,
  gate: dagGate,
  replay: {
    output: `A dag journal: one
node per line in DAG order, {"nodes":[{"id","status","phase","deposit","surface"}, ...]}; the
fold applies every well-formed event, legal or not, as the librecode model does.`,
    onKernel: true,
    print: async (journal: AnyJournalFile, engine, output) =>
      (await import("../../cli/dag/replay.js")).replayDag(journal, engine, output),
  },
  gen: async () => (await import("../../cli/dag/gen.js")).dagGenerator,
  explore: dagExplore,
  commands: [
    {
      name: "layers",
      summary: "print the Kahn layers of a DAG file or a dag journal's header",
      after: "replay",
      load: async () => (await import("../../cli/dag/layers.js")).layersCommand,
    },
  ],
};
