import { readDagOf } from "../../journal/dag/files.js";
import { dagLayers } from "../../models/dag/dag.js";
import { type CliOutput, type Command, ExitCode, parseCommand, UsageError } from "../command.js";
import { oneJournal, oneJournalBytes } from "../journal-inputs.js";
import { renderJsonList } from "../render-json.js";

const HELP = `Usage: statefold layers <dag.json | journal | ->

Prints the Kahn schedule of a DAG as JSON, one layer per line: {"layers":[["A"],["B","C"]]}.
Each layer holds the nodes whose dependencies all sit in earlier layers, sorted by Unicode
code point. The DAG comes from a DAG file ({"nodes":[{"id","deps"}]}) or a dag journal's
header line (the other models' journals carry no DAG); - reads either from the standard input.

A DAG that cannot be built is an error naming the reason (duplicate-id,
dangling-dependency, cycle) and the ids involved.

Options:
  -h, --help   show this help

Exit status: 0 printed, 2 bad usage, unreadable input or a rejected DAG.
`;

export const layersCommand: Command = {
  name: "layers",
  help: HELP,
  run: runLayers,
};

async function runLayers(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(layersCommand, args, output, {});
  if (parsed === null) return ExitCode.conformant;
  const { positionals } = parsed;
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError(`layers takes one file, found ${positionals.length}`, "layers");
  }
  const source = oneJournal(path);
  const dag = readDagOf(source.path, await oneJournalBytes(source));
  output.stdout(renderJsonList("layers", dagLayers(dag)));
  return ExitCode.conformant;
}
