/**
 * The `statefold` command line, as a function of its arguments: it dispatches to a command and
 * turns every failure into one line on stderr and exit status 2 — never a stack trace.
 */
import { JournalError } from "../journal/errors.js";
import { DEFAULT_MODEL, MODELS } from "../models/registry.js";
import { type CliOutput, type Command, ExitCode, UsageError } from "./command.js";
import { helpColumns } from "./help-columns.js";
import { packageVersion } from "./version.js";

export interface CommandEntry {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/** A command of one model's own (the model's `commands`), listed after a shared command. */
export interface ModelCommand extends CommandEntry {
  /** The shared command it follows in the help's table. */
  readonly after: SharedCommandName;
}

/**
 * The commands every model shares. A command's module is loaded when it runs: loading every
 * command's (explore's models, gen's generators, every engine) cost more than auditing a small
 * journal.
 */
const SHARED_COMMANDS = [
  {
    name: "audit",
    summary: "check journals against their model: integrity, its rules, legality",
    load: async () => (await import("./audit.js")).auditCommand,
  },
  {
    name: "replay",
    summary: "print the final state a journal folds to",
    load: async () => (await import("./replay.js")).replayCommand,
  },
  {
    name: "gate",
    summary: "the boot gate: exit 0 to resume from a journal, 1 to refuse",
    load: async () => (await import("./gate.js")).gateCommand,
  },
  {
    name: "gen",
    summary: "write a synthetic journal of any model, with injected faults",
    load: async () => (await import("./gen.js")).loadGenCommand(),
  },
  {
    name: "enqueue",
    summary: "queue journals for workers on Redis (see docs/scale-out.md)",
    load: async () => (await import("./enqueue.js")).enqueueCommand,
  },
  {
    name: "worker",
    summary: "audit queued journals, publishing each verdict once",
    load: async () => (await import("./worker.js")).workerCommand,
  },
  {
    name: "results",
    summary: "print the verdicts the workers published, as NDJSON",
    load: async () => (await import("./results.js")).resultsCommand,
  },
  {
    name: "watch",
    summary: "audit live journals as runtimes append them to Redis",
    load: async () => (await import("./watch.js")).watchCommand,
  },
  {
    name: "explore",
    summary: "explore a model exhaustively up to a bound: every step legal, every invariant kept",
    load: async () => (await import("./explore.js")).exploreCommand,
  },
] as const satisfies readonly CommandEntry[];

type SharedCommandName = (typeof SHARED_COMMANDS)[number]["name"];

/** The shared commands, each followed by the models' commands placed after it. */
const COMMANDS: readonly CommandEntry[] = SHARED_COMMANDS.flatMap((shared) => [
  shared,
  ...MODELS.flatMap((model) => model.commands.filter((command) => command.after === shared.name)),
]);

const HELP = `Usage: statefold <command> [options]

Audits orchestration journals against reference state machines, one per model. A journal's
header names its model; --model names it where the header does not, and a journal that
neither names is a ${DEFAULT_MODEL} journal.

Models:
${helpColumns(
  MODELS.map((model) => [model.name, model.summary]),
  "  ",
)}

Commands:
${helpColumns(
  COMMANDS.map((command) => [command.name, command.summary]),
  "  ",
)}

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
  const entry = COMMANDS.find((candidate) => candidate.name === first);
  if (entry === undefined) {
    const what = first.startsWith("-") ? "option" : "command";
    throw new UsageError(`unknown ${what} '${first}'`);
  }
  return (await entry.load()).run(rest, output);
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
