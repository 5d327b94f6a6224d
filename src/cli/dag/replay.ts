/**
 * `statefold replay` of a dag journal: one node per line in DAG order. The fold applies every
 * well-formed event, legal or not; a log-integrity error stops it.
 */
import type { EngineName } from "../../engine.js";
import type { AnyJournalFile } from "../../journal/index.js";
import type { Dag } from "../../models/dag/dag.js";
import type { Engine } from "../../models/dag/engine.js";
import { LogIntegrityError } from "../../models/dag/events.js";
import { dagModel } from "../../models/dag/model.js";
import type { ModelState } from "../../models/dag/state.js";
import type { CliOutput } from "../command.js";
import { modelEngine } from "../engine.js";
import type { FoldStop } from "../model-replay.js";
import { renderJsonList } from "../render-json.js";

export async function replayDag(
  journal: AnyJournalFile,
  engineName: EngineName,
  output: CliOutput,
): Promise<FoldStop | null> {
  const engine = (await modelEngine(dagModel, engineName)) as Engine;
  const { state, fault } = replayUntilFault(engine, journal);
  output.stdout(renderJsonList("nodes", nodeRecords(state)));
  if (fault === null) return null;
  const message = fault.message.replace(/^event \d+: /, "");
  return { index: fault.index, reason: fault.reason, message };
}

/** The fold over the whole journal, or, at a log-integrity error, over the events before it. */
function replayUntilFault(
  engine: Engine,
  journal: AnyJournalFile,
): { state: ModelState; fault: LogIntegrityError | null } {
  try {
    return { state: engine.replay(journal.fields as Dag, journal.events), fault: null };
  } catch (error) {
    if (!(error instanceof LogIntegrityError)) throw error;
    const before = journal.events.slice(0, error.index);
    return { state: engine.replay(journal.fields as Dag, before), fault: error };
  }
}

function nodeRecords(state: ModelState): object[] {
  return state.nodes.map((node, position) => ({
    id: state.dag.nodes[position]?.id,
    status: node.status,
    phase: node.phase,
    deposit: node.deposit,
    surface: node.surface,
  }));
}
