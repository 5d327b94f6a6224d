import type { Engine } from "../engine.js";
import { JournalError } from "../journal/errors.js";
import { type JournalFile, readJournalFile } from "../journal/index.js";
import { LogIntegrityError } from "../models/dag/events.js";
import type { ModelState } from "../models/dag/state.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { DEFAULT_ENGINE, ENGINE_NAMES, engineNamed } from "./engine.js";
import { renderJsonList } from "./render-json.js";

const HELP = `Usage: statefold replay <journal> [--dag FILE] [--engine NAME]

Folds the journal's events over its DAG and prints the final state as JSON, one node per
line in DAG order: {"nodes":[{"id","status","phase","deposit","surface"}, ...]}.
The fold applies every well-formed event, legal or not, as the librecode model does.

A log-integrity error stops the fold: the state before the offending event is printed, and
the error is reported on stderr with exit status 1. A torn tail is reported on stderr as a
warning.

Options:
  --dag FILE     the DAG for a journal without a header line (always for .lisp-expr)
  --engine NAME  wasm (default: the WebAssembly kernel) or reference (the plain TypeScript
                 model; the same state, slower)
  -h, --help     show this help

Exit status: 0 replayed, 1 stopped by a log-integrity error, 2 bad usage or unreadable input.
`;

export const replayCommand: Command = {
  name: "replay",
  summary: "print the final state a journal folds to",
  help: HELP,
  run: runReplay,
};

async function runReplay(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(replayCommand, args, output, {
    dag: { type: "string" },
    engine: { type: "string", default: DEFAULT_ENGINE },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  const engineName = oneOf("replay", "--engine", values.engine, ENGINE_NAMES);
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError(`replay takes one journal, found ${positionals.length}`, "replay");
  }
  const journal = readJournalFile(path, { dagPath: values.dag });
  const { state, fault } = replayUntilFault(await engineNamed(engineName), journal);
  output.stdout(renderJsonList("nodes", nodeRecords(state)));
  if (journal.tornTail !== null) {
    const { line, offset } = journal.tornTail;
    const detail = `warning: torn tail at byte ${offset}: an unfinished last entry (a crash mid-write?) was left out`;
    output.stderr(`statefold: ${new JournalError(path, detail, line).message}\n`);
  }
  if (fault === null) return ExitCode.conformant;
  const detail = `${fault.reason}: ${fault.message.replace(/^event \d+: /, "")}; the state printed is the one before event ${fault.index}`;
  output.stderr(
    `statefold: ${new JournalError(path, detail, journal.lines[fault.index]).message}\n`,
  );
  return ExitCode.notConformant;
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
