/**
 * A model defined by data as the rest of statefold sees it (docs/models/data.md): the model
 * contract's value for a compiled model file, whether statefold ships it or a user's file was
 * loaded. Its words come from the file (its rules' descriptions); its engines interpret its tables.
 */

import type { ModelEngine } from "../../engine.js";
import { dataGate } from "../../gate/data/candidates.js";
import { readDataJournal } from "../../journal/data/read.js";
import { HEADER_FIELDS_ONLY } from "../../journal/model-command-line.js";
import { dataHtml } from "../../report/data/html.js";
import { dataText } from "../../report/data/text.js";
import type { KernelEngine, Model } from "../model.js";
import type { ModelName } from "../registry.js";
import type { CompiledModel } from "./compiled.js";
import type { DataAuditOptions } from "./engine.js";
import type { DataAnswer, DataReport } from "./report.js";

export type DataModel<Name extends string = string> = Model<
  Name,
  DataReport<Name>,
  DataAuditOptions,
  null,
  DataAnswer<Name>
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
  let reference: Promise<ModelEngine<DataAnswer<Name>, DataAuditOptions>> | undefined;
  return {
    name,
    summary,
    compiled,
    readHeaderFields: () => null,
    commandLine: {
      ...HEADER_FIELDS_ONLY,
      readJournal: (bytes, path) => readDataJournal(compiled, bytes, path),
      journalExtensions: "lines" in compiled.source ? [] : [".json"],
      readsDocuments: !("lines" in compiled.source),
    },
    // Both engines report under the compiled model's name, which is `name`; the reference is made once.
    reference: () =>
      (reference ??= import("./engine.js").then(
        ({ referenceDataEngine }) =>
          referenceDataEngine(compiled, name as string as ModelName) as unknown as ModelEngine<
            DataAnswer<Name>,
            DataAuditOptions
          >,
      )),
    kernel: async (options) =>
      (await import("../../../bindings/data/engine.js")).loadDataEngine(
        compiled,
        options,
      ) as unknown as KernelEngine<DataAnswer<Name>, DataAuditOptions>,
    kernelOptions: ["wasm", "flavour", "memoryLimitBytes"],
    text: dataText(compiled),
    html: dataHtml(compiled),
    gate: dataGate(compiled),
    replay: {
      output: `A journal of
a model defined by data: its final block, each entity's instances counted by state, the
counters and the registers, one line per journal (docs/models/data.md).`,
      onKernel: false,
      print: async (journal, _engine, output) =>
        (await import("../../cli/data/replay.js")).replayData(compiled, journal, output),
    },
    commands: [],
  };
}
