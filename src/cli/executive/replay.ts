/**
 * `statefold replay` of an executive journal: every observation through the machine, the
 * recorded decisions aside; the state the run reaches, as its canonical JSON
 * (docs/models/executive.md, "State").
 */

import type { WasmExecutiveEngine } from "../../../bindings/executive/index.js";
import type { EngineName } from "../../engine.js";
import type { AnyJournalFile } from "../../journal/index.js";
import { replayObservations } from "../../models/executive/audit.js";
import { executiveRunOf } from "../../models/executive/engine.js";
import { referenceExecutive } from "../../models/executive/machine.js";
import { executiveModel } from "../../models/executive/model.js";
import type { CliOutput } from "../command.js";
import { modelKernel } from "../engine.js";
import type { FoldStop } from "../model-replay.js";

export async function replayExecutive(
  journal: AnyJournalFile,
  engineName: EngineName,
  output: CliOutput,
): Promise<FoldStop | null> {
  const run = executiveRunOf(journal.header, journal.file);
  const machine =
    engineName === "wasm"
      ? ((await modelKernel(executiveModel)) as WasmExecutiveEngine).machine
      : referenceExecutive;
  const { state, stop } = replayObservations<unknown>(run, journal.events, machine);
  output.stdout(`${JSON.stringify(snapshotBody(machine.snapshot(state)), null, 2)}\n`);
  return stop;
}

/** A snapshot's body: what follows its two envelope lines (docs/models/executive.md, "Snapshots"). */
function snapshotBody(snapshot: Uint8Array): unknown {
  const text = new TextDecoder().decode(snapshot);
  return JSON.parse(text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1));
}
