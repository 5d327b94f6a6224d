import type { EngineName } from "../engine.js";
import { JournalError } from "../journal/errors.js";
import { readAnyJournal } from "../journal/index.js";
import type { Model } from "../models/model.js";
import { DEFAULT_MODEL, MODELS, modelNamed, SHIPPED_DATA_MODELS } from "../models/registry.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { DEFAULT_ENGINE, ENGINE_NAMES } from "./engine.js";
import { wordList, wrapHelp } from "./help-columns.js";
import { oneJournal, oneJournalBytes } from "./journal-inputs.js";
import { chooseModelFlag, MODEL_FLAG_HELP } from "./model-choice.js";
import { givenModelFlags } from "./model-flags.js";

const OPTION_INDENT = " ".repeat(17);

/** The models whose state the kernel prints, and those whose state the reference alone does. */
const ON_KERNEL = MODELS.filter((model) => model.replay.onKernel).map((model) => model.name);
const REFERENCE_ONLY = MODELS.filter((model) => !model.replay.onKernel).map((model) => model.name);

const REFERENCE_ONLY_NOTE =
  REFERENCE_ONLY.length === 0
    ? ""
    : `; the only\n${OPTION_INDENT}one that prints ${journalOf(wordList(REFERENCE_ONLY, "or"))}'s state`;

const DATA_MODELS_SENTENCE = wrapHelp(
  `The models defined by data are ${wordList(
    SHIPPED_DATA_MODELS.map((model) => model.name),
    "and",
  )}, and any model file given as --model FILE.`,
  0,
  93,
);

const HELP = `Usage: statefold replay <journal|-> [--dag FILE] [--engine NAME] [--model NAME|FILE]

Folds the journal's entries and prints the state they fold to, as JSON. ${[...new Set(MODELS.map((model) => model.replay.output))].join(" ")}
${DATA_MODELS_SENTENCE} - is a JSONL journal on the standard
input.

A log-integrity error stops the fold: the state before the offending entry is printed, and
the error is reported on stderr with exit status 1. A torn tail is reported on stderr as a
warning.

Options:
  --dag FILE     the DAG for a dag journal without a header line (always for .lisp-expr)
  --engine NAME  wasm (the WebAssembly kernel; the default for ${wordList(ON_KERNEL, "and")} journals)
                 or reference (the plain TypeScript model; the same state, slower${REFERENCE_ONLY_NOTE})
  --model NAME|FILE  the model the journal must be of (by default its header's, else
                 ${DEFAULT_MODEL}): ${wrapHelp(MODEL_FLAG_HELP, 17, 93, 21)}
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
  const { model: modelAsked } = await chooseModelFlag("replay", values.model);
  const source = oneJournal(path);
  const journal = await readAnyJournal(source.path, await oneJournalBytes(source), {
    modelFlags: givenModelFlags(values),
    model: modelAsked,
  });
  if (journal.tornTail !== null) {
    const { line, offset } = journal.tornTail;
    const detail = `warning: torn tail at byte ${offset}: an unfinished last entry (a crash mid-write?) was left out`;
    output.stderr(`statefold: ${new JournalError(journal.file, detail, line).message}\n`);
  }
  const model: Model = modelNamed(journal.model);
  const fault = await model.replay.print(journal, replayEngine(model, engineName), output);
  if (fault === null) return ExitCode.conformant;
  const detail = `${fault.reason}: ${fault.message}; the state printed is the one before event ${fault.index}`;
  output.stderr(
    `statefold: ${new JournalError(journal.file, detail, journal.lines[fault.index]).message}\n`,
  );
  return ExitCode.notConformant;
}

/** The engine asked for, else the kernel where it prints the model's state, else the reference. */
function replayEngine(model: Model, engineName: EngineName | undefined): EngineName {
  if (model.replay.onKernel) return engineName ?? DEFAULT_ENGINE;
  if (engineName === "wasm") {
    throw new UsageError(
      `replay of ${journalOf(model.name)} runs on the reference engine: pass --engine reference`,
      "replay",
    );
  }
  return "reference";
}

/** "a dag journal", "an operations journal". */
function journalOf(modelNames: string): string {
  return `${/^[aeiou]/.test(modelNames) ? "an" : "a"} ${modelNames} journal`;
}
