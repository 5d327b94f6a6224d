import { modelNamed, SHIPPED_DATA_MODELS } from "../models/registry.js";
import { auditJournals } from "./audit-journals.js";
import { AUDIT_FORMATS } from "./audit-printer.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { DEFAULT_ENGINE, ENGINE_NAMES } from "./engine.js";
import { dataModelsSentence, wrapHelp } from "./help-columns.js";
import {
  journalInputs,
  STDIN_ARGUMENT,
  STDIN_NAME,
  standardInputChunks,
} from "./journal-inputs.js";
import { chooseModelFlag, MODEL_FLAG_HELP } from "./model-choice.js";
import {
  givenModelFlags,
  modelFlagOptions,
  modelFlagsHelp,
  modelFlagsUsage,
} from "./model-flags.js";
import { integerFlag } from "./number-flags.js";
import { wantsProgress } from "./progress-bar.js";

const HELP = `Usage: statefold audit <journal|directory|->... ${modelFlagsUsage()} [--format text|json|ndjson]
                       [--strict] [--jobs N] [--quiet] [--engine NAME] [--model NAME|FILE]
                       [--html FILE]

Audits each journal against its model's reference state machine: log integrity, the model's
rules, and whether every entry is one the model allows (legality). The model is the one the
journal's header names, or --model's where it names none, else dag:
  dag          a work campaign over a DAG of tasks: its six invariants, and each event
               against the transition that could have made it (docs/models/dag.md)
  operations   effects, retries and leases of long-running work: its twelve rules, each
               record a legality check (docs/models/operations.md)
  executive    a task executive running a plan on a budget: every observation replayed
               through the machine, each recorded decision against the machine's
               (decisionsMatch, terminalRespected; docs/models/executive.md)

${wrapHelp(dataModelsSentence(SHIPPED_DATA_MODELS), 0, 93)}

A journal is JSONL, or the librecode runtime's S-expressions when it ends in .lisp-expr;
either is read decompressed when its name ends in .gz. A directory stands for every *.jsonl
and *.lisp-expr file under it, plain or .gz (recursively, sorted by name); - is a JSONL
journal on the standard input. A JSONL journal streams through the
kernel in constant memory, whatever its size. Verdicts are printed in the order the journals
were given, each as soon as it is in.

Options:
${modelFlagsHelp(22, 93, true)}  --format FORMAT     text for people (default), with a closing summary for several journals;
                      json prints the report itself, or an array of {"file","report"} when
                      several journals are given; ndjson prints one {"file","report"} per
                      line per journal, for pipelines. A journal that cannot be read is a
                      {"file","error"} in its turn
  --strict            pass only journals that are strictly conformant (no illegal event)
  --jobs N            audit up to N files at once: on the main thread and N-1 worker
                      threads, each with its own engine; 1 audits on the main thread alone.
                      By default, the number of cores, or fewer when there is too little
                      input to repay starting workers
  --quiet             no progress bar (it is drawn on stderr only when that is a terminal,
                      and never in CI or with NO_COLOR)
  --engine NAME       wasm (default: the WebAssembly kernel) or reference (the plain
                      TypeScript model; same reports, slower)
  --model NAME|FILE   the model every journal must be of (a header that names another is an
                      error; a journal without a header is read as it): ${wrapHelp(MODEL_FLAG_HELP, 22, 93, 76)}
  --html FILE         also write one self-contained HTML report of every journal: verdicts,
                      each violating entry in context, and the model's state — the DAG
                      coloured by final status, an operation's steps before and after a
                      finding, the executive's frames with each budget used against its limit
  -h, --help          show this help

Exit status: 0 every journal conformant (strictly, with --strict), 1 some journal is not,
2 bad usage or an unreadable journal.
`;

export const auditCommand: Command = {
  name: "audit",
  help: HELP,
  run: runAudit,
};

async function runAudit(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(auditCommand, args, output, {
    ...modelFlagOptions(),
    format: { type: "string", default: "text" },
    strict: { type: "boolean", default: false },
    engine: { type: "string", default: DEFAULT_ENGINE },
    jobs: { type: "string" },
    quiet: { type: "boolean", default: false },
    html: { type: "string" },
    model: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals: journals } = parsed;
  const modelFlags = givenModelFlags(values);
  const format = oneOf("audit", "--format", values.format, AUDIT_FORMATS);
  const engine = oneOf("audit", "--engine", values.engine, ENGINE_NAMES);
  const { model, modelFile } = await chooseModelFlag("audit", values.model);
  const jobs = values.jobs === undefined ? null : integerFlag("audit", "--jobs", values.jobs, 1);
  if (journals.length === 0) throw new UsageError("audit needs at least one journal", "audit");

  const inputs = journalInputs(
    journals,
    model === undefined ? [] : (modelNamed(model).commandLine.journalExtensions ?? []),
  );
  const progress = wantsProgress(output.stderrTerminal !== undefined, process.env, values.quiet);
  const {
    journals: reported,
    unreadable,
    failing,
  } = await auditJournals(
    inputs,
    {
      engine,
      modelFlags,
      model,
      modelFile,
      jobs,
      progress: progress ? (output.stderrTerminal ?? null) : null,
      printer: {
        format,
        // One file or `-`, not a directory: the report alone, as before several were possible.
        single:
          journals.length === 1 &&
          inputs.length === 1 &&
          inputs[0]?.kind !== "unreadable" &&
          (inputs[0]?.path === journals[0] || journals[0] === STDIN_ARGUMENT),
        strict: values.strict,
        colour: output.colour,
      },
      keepReports: values.html !== undefined,
      stdin: standardInputChunks,
    },
    output,
  );
  if (values.html !== undefined) {
    const { strict } = values;
    // The HTML report reads the dag model's flag itself (src/cli/audit-html.ts).
    const options = { modelFlags, strict, inputs: journals, stdinName: STDIN_NAME };
    // The report's views are loaded only for a report: an audit without one starts ~90 ms sooner.
    const { writeAuditHtml } = await import("./audit-html.js");
    await writeAuditHtml(values.html, reported, options);
  }
  if (unreadable > 0) return ExitCode.badInput;
  return failing === 0 ? ExitCode.conformant : ExitCode.notConformant;
}
