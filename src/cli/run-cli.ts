/**
 * The `statefold` command line, as a function of its arguments: it dispatches to a command and
 * turns every failure into one line on stderr and exit status 2 — never a stack trace.
 */
import { JournalError } from "../journal/errors.js";
import { auditCommand } from "./audit.js";
import { type CliOutput, type Command, ExitCode, UsageError } from "./command.js";
import { executiveCommand } from "./executive.js";
import { exploreCommand } from "./explore.js";
import { gateCommand } from "./gate.js";
import { genCommand } from "./gen.js";
import { layersCommand } from "./layers.js";
import { replayCommand } from "./replay.js";
import { packageVersion } from "./version.js";

const COMMANDS: readonly Command[] = [
  auditCommand,
  replayCommand,
  layersCommand,
  gateCommand,
  genCommand,
  executiveCommand,
  exploreCommand,
];

const HELP = `Usage: statefold <command> [options]

Audits orchestration journals against the work-DAG reference state machine.

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(8)}${command.summary}`).join("\n")}

Options:
  -h, --help   show this help; statefold <command> --help shows a command's
  --version    print the version

Exit status: 0 conformant, 1 not conformant, 2 bad usage or unreadable input.
`;

export async function runCli(args: readonly string[], output: CliOutput): Promise<number> {
  try {
    return await dispatch(args, output);
  } catch (error) {
    output.stderr(`${failureMessage(error)}\n`);
    return ExitCode.badInput;
  }
}

async function dispatch(args: readonly string[], output: CliOutput): Promise<number> {
  const [first, ...rest] = args;
  if (first === undefined) {
    output.stderr(HELP);
    return ExitCode.badInput;
  }
  if (first === "--help" || first === "-h") {
    output.stdout(HELP);
    return ExitCode.conformant;
  }
  if (first === "--version") {
    output.stdout(`${packageVersion()}\n`);
    return ExitCode.conformant;
  }
  const command = COMMANDS.find((candidate) => candidate.name === first);
  if (command === undefined) {
    const what = first.startsWith("-") ? "option" : "command";
    throw new UsageError(`unknown ${what} '${first}'`);
  }
  return command.run(rest, output);
}

function failureMessage(error: unknown): string {
  if (error instanceof JournalError) return `statefold: ${error.message}`;
  if (error instanceof UsageError) {
    const help =
      error.command === undefined ? "statefold --help" : `statefold ${error.command} --help`;
    return `statefold: ${error.message} (see '${help}')`;
  }
  // A bug in statefold itself: one line, still no stack trace, still exit status 2.
  const message = error instanceof Error ? error.message : String(error);
  return `statefold: internal error: ${message.split("\n")[0]}`;
}
