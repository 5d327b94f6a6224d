import type { WasmExecutiveEngine } from "../../bindings/executive/index.js";
import type { EngineName } from "../engine.js";
import { JournalError } from "../journal/errors.js";
import { type JournalFile, type OtherJournalFile, readAnyJournal } from "../journal/index.js";
import type { Engine } from "../models/dag/engine.js";
import { LogIntegrityError } from "../models/dag/events.js";
import { dagModel } from "../models/dag/model.js";
import type { ModelState } from "../models/dag/state.js";
import { executiveModel } from "../models/executive/model.js";
import { MODEL_NAMES, type ModelName } from "../models/registry.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { DEFAULT_ENGINE, ENGINE_NAMES, modelEngine, modelKernel } from "./engine.js";
import { oneJournal, oneJournalBytes } from "./journal-inputs.js";
import { renderJsonList } from "./render-json.js";

const HELP = `Usage: statefold replay <journal|-> [--dag FILE] [--engine NAME] [--model NAME]

Folds the journal's entries and prints the state they fold to, as JSON. A dag journal: one
node per line in DAG order, {"nodes":[{"id","status","phase","deposit","surface"}, ...]}; the
fold applies every well-formed event, legal or not, as the librecode model does. An
operations journal: {"strands":[...],"operations":[...],"effects":N}, one strand or operation
per line, each operation with its steps and live effects (docs/models/operations.md). An
executive journal: the state the machine reaches when every observation is replayed through
it, the recorded decisions aside — {"version","spec","status","seq","now","frames",...}, the
body of its snapshot (docs/models/executive.md, "State"). - is a JSONL journal on the standard
input.

A log-integrity error stops the fold: the state before the offending entry is printed, and
the error is reported on stderr with exit status 1. A torn tail is reported on stderr as a
warning.

Options:
  --dag FILE     the DAG for a dag journal without a header line (always for .lisp-expr)
  --engine NAME  wasm (the WebAssembly kernel; the default for dag and executive journals)
                 or reference (the plain TypeScript model; the same state, slower; the only
                 one that prints an operations journal's state)
  --model NAME   dag, operations or executive: the model the journal must be of (by default its
                 header's, else dag)
  -h, --help     show this help

Exit status: 0 replayed, 1 stopped by a log-integrity error, 2 bad usage or unreadable input.
`;

export const replayCommand: Command = {
  name: "replay",
  help: HELP,
  run: runReplay,
};

async function runReplay(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(replayCommand, args, output, {
    dag: { type: "string" },
    engine: { type: "string" },
    model: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  const engineName =
    values.engine === undefined
      ? undefined
      : oneOf("replay", "--engine", values.engine, ENGINE_NAMES);
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError(`replay takes one journal, found ${positionals.length}`, "replay");
  }
  const model: ModelName | undefined =
    values.model === undefined ? undefined : oneOf("replay", "--model", values.model, MODEL_NAMES);
  const source = oneJournal(path);
  const journal = readAnyJournal(source.path, await oneJournalBytes(source), {
    dagPath: values.dag,
    model,
  });
  if (journal.tornTail !== null) {
    const { line, offset } = journal.tornTail;
    const detail = `warning: torn tail at byte ${offset}: an unfinished last entry (a crash mid-write?) was left out`;
    output.stderr(`statefold: ${new JournalError(journal.file, detail, line).message}\n`);
  }
  const fault =
    journal.model === "dag"
      ? await replayDag(journal, engineName, output)
      : journal.model === "operations"
        ? await replayOperations(journal, engineName, output)
        : await replayExecutive(journal, engineName, output);
  if (fault === null) return ExitCode.conformant;
  const detail = `${fault.reason}: ${fault.message}; the state printed is the one before event ${fault.index}`;
  output.stderr(
    `statefold: ${new JournalError(journal.file, detail, journal.lines[fault.index]).message}\n`,
  );
  return ExitCode.notConformant;
}

/** What stopped a fold: the entry's index, the integrity reason and its message. */
interface FoldStop {
  readonly index: number;
  readonly reason: string;
  readonly message: string;
}

async function replayDag(
  journal: JournalFile,
  engineName: EngineName | undefined,
  output: CliOutput,
): Promise<FoldStop | null> {
  const engine = (await modelEngine(dagModel, engineName ?? DEFAULT_ENGINE)) as Engine;
  const { state, fault } = replayUntilFault(engine, journal);
  output.stdout(renderJsonList("nodes", nodeRecords(state)));
  if (fault === null) return null;
  const message = fault.message.replace(/^event \d+: /, "");
  return { index: fault.index, reason: fault.reason, message };
}

/** The operations state is the reference's to print: its kernel only audits. */
function refuseKernelReplay(engineName: EngineName | undefined): void {
  if (engineName !== "wasm") return;
  throw new UsageError(
    "replay of an operations journal runs on the reference engine: pass --engine reference",
    "replay",
  );
}

/**
 * The operations state is the reference's to print: the kernel audits, it keeps no such state.
 * The other models' machines are imported when a journal of theirs comes, as the engines are
 * (src/cli/engine.ts): a process replaying a dag journal does not load them.
 */
async function replayOperations(
  journal: OtherJournalFile,
  engineName: EngineName | undefined,
  output: CliOutput,
): Promise<FoldStop | null> {
  refuseKernelReplay(engineName);
  const [{ replay }, { integrityMessage }, { renderOperationsState }] = await Promise.all([
    import("../models/operations/replay.js"),
    import("../models/operations/integrity.js"),
    import("./render-operations-state.js"),
  ]);
  const { state, fault } = replay(journal.events);
  output.stdout(renderOperationsState(state));
  if (fault === null) return null;
  return { index: fault.index, reason: fault.fault.reason, message: integrityMessage(fault.fault) };
}

/**
 * Every observation through the machine, the recorded decisions aside: the state the run reaches,
 * as its canonical JSON (docs/models/executive.md, "State").
 */
async function replayExecutive(
  journal: OtherJournalFile,
  engineName: EngineName | undefined,
  output: CliOutput,
): Promise<FoldStop | null> {
  const [{ executiveRunOf }, { replayObservations }] = await Promise.all([
    import("../models/executive/engine.js"),
    import("../models/executive/audit.js"),
  ]);
  const run = executiveRunOf(journal.header, journal.file);
  const machine =
    (engineName ?? DEFAULT_ENGINE) === "wasm"
      ? ((await modelKernel(executiveModel)) as WasmExecutiveEngine).machine
      : (await import("../models/executive/machine.js")).referenceExecutive;
  const { state, stop } = replayObservations<unknown>(run, journal.events, machine);
  output.stdout(`${JSON.stringify(snapshotBody(machine.snapshot(state)), null, 2)}\n`);
  return stop;
}

/** A snapshot's body: what follows its two envelope lines (docs/models/executive.md, "Snapshots"). */
function snapshotBody(snapshot: Uint8Array): unknown {
  const text = new TextDecoder().decode(snapshot);
  return JSON.parse(text.slice(text.indexOf("\n", text.indexOf("\n") + 1) + 1));
}

/** The fold over the whole journal, or, at a log-integrity error, over the events before it. */
function replayUntilFault(
  engine: Engine,
  journal: JournalFile,
): { state: ModelState; fault: LogIntegrityError | null } {
  try {
    return { state: engine.replay(journal.dag, journal.events), fault: null };
  } catch (error) {
    if (!(error instanceof LogIntegrityError)) throw error;
    const before = journal.events.slice(0, error.index);
    return { state: engine.replay(journal.dag, before), fault: error };
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
