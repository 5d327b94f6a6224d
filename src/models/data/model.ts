/**
 * A model defined by data as the rest of statefold sees it (docs/models/data.md): the model
 * contract's value for a compiled model file, whether statefold ships it or a user's file was
 * loaded. Its words come from the file (its rules' descriptions); its engines interpret its tables.
 */
import { dataGate } from "../../gate/data/candidates.js";
import { readDataJournal } from "../../journal/data/read.js";
import { HEADER_FIELDS_ONLY } from "../../journal/model-command-line.js";
import { dataHtml } from "../../report/data/html.js";
import { dataText } from "../../report/data/text.js";
import type { Model } from "../model.js";
import type { ModelName } from "../registry.js";
import type { CompiledModel } from "./compiled.js";
import type { DataAuditOptions } from "./engine.js";
import type { DataReport } from "./report.js";

export type DataModel<Name extends string = string> = Model<
  Name,
  DataReport<Name>,
  DataAuditOptions,
  null
> & {
  /** The compiled model file both engines audit with. */
  readonly compiled: CompiledModel;
};

export function dataModel<Name extends string>(
  name: Name,
  compiled: CompiledModel,
  summary: string,
): DataModel<Name> {
  if (compiled.name !== name)
    throw new Error(`the model file is named "${compiled.name}", not "${name}"`);
  return {
    name,
    summary,
    compiled,
    readHeaderFields: () => null,
    commandLine: {
      ...HEADER_FIELDS_ONLY,
      readJournal: (bytes, path) => readDataJournal(compiled, bytes, path),
    },
    reference: async () =>
      (await import("./engine.js")).referenceDataEngine(
        compiled,
        name as unknown as ModelName,
      ) as never,
    kernel: async (options) =>
      (await import("../../../bindings/data/engine.js")).loadDataEngine(compiled, options) as never,
    kernelOptions: ["wasm", "flavour", "memoryLimitBytes"],
    text: dataText(compiled) as never,
    html: dataHtml(compiled) as never,
    gate: dataGate(compiled) as never,
    replay: {
      output: `A journal
of a model defined by data: its final block (docs/models/data.md).`,
      onKernel: false,
      print: async (journal, _engine, output) =>
        (await import("../../cli/data/replay.js")).replayData(compiled, journal, output),
    },
    commands: [],
  };
}
