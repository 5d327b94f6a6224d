import { MODEL_NAMES } from "../models/registry.js";
import { oneRedisUrl, secondsFlag } from "../scale/flags.js";
import { DEFAULT_QUEUE } from "../scale/keys.js";
import { StatusLine } from "../scale/status-line.js";
import { runWatcher } from "../scale/watch-loop.js";
import { type CliOutput, type Command, ExitCode, parseCommand, UsageError } from "./command.js";
import { wordList, wrapHelp } from "./help-columns.js";
import { chooseModelFlag, journalsAreDocuments } from "./model-choice.js";
import {
  givenModelFlags,
  modelFlagOptions,
  modelFlagsHelp,
  modelFlagsUsage,
} from "./model-flags.js";
import { integerFlag } from "./number-flags.js";
import { wantsProgress } from "./progress-bar.js";

/** The models whose journals are appended, not written whole: those a watcher can follow. */
const WATCHABLE = MODEL_NAMES.filter((model) => !journalsAreDocuments(model));
const WATCHABLE_MODELS = `${WATCHABLE.join(", ")}, or a model file of your own whose records are lines (.json, .yaml: docs/models/data.md)`;

const HELP = `Usage: statefold watch REDIS_URL [--queue Q] [--model NAME|FILE] ${modelFlagsUsage()} [--lease S]
                      [--max-deliveries N] [--drain] [--quiet]

${wrapHelp(`Audits live journals as their runtimes append them to Redis: each journal announced on the queue's live stream is taken by one watcher, which audits it against its model (${wordList(WATCHABLE, "or")}, or a model file's: its header's or --model's) — what was appended since its last checkpoint — and commits the checkpoint with any new finding — each rule's first breach, published once as it happens — and at the journal's end publishes its verdict (statefold results --findings). A watcher that dies is replaced, after --lease seconds, by another that resumes from the last checkpoint. The runtimes' side, and the guarantees, are in docs/scale-out.md.`, 0, 96)}

Options:
  --queue Q            the queue's name (default ${DEFAULT_QUEUE})
  --model NAME|FILE    ${wrapHelp(`as statefold audit --model: ${WATCHABLE_MODELS}. A model whose journals are JSON documents, written whole, cannot be watched`, 23, 93)}
${modelFlagsHelp(23, 93, false)}  --lease S            seconds without a heartbeat before a journal is taken over (default 30)
  --max-deliveries N   a journal delivered more than N times goes to the dead letters (default 5)
  --drain              exit once no live journal is announced or held by any watcher
  --quiet              no progress line (drawn on stderr only when that is a terminal)
  -h, --help           show this help

Exit status: 0 when drained, 2 bad usage, a model file refused, or Redis unreachable.
`;

export const watchCommand: Command = {
  name: "watch",
  help: HELP,
  run: runWatch,
};

async function runWatch(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(watchCommand, args, output, {
    queue: { type: "string", default: DEFAULT_QUEUE },
    model: { type: "string" },
    ...modelFlagOptions(),
    lease: { type: "string", default: "30" },
    "max-deliveries": { type: "string", default: "5" },
    drain: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  const redisUrl = oneRedisUrl("watch", positionals);
  const { model } = await chooseModelFlag("watch", values.model);
  if (model !== undefined && journalsAreDocuments(model))
    throw new UsageError(
      `watch audits journals as they are appended, and the journals of the model ${model} are JSON documents, written whole: audit them with statefold audit, or enqueue them for statefold worker`,
      "watch",
    );
  const progress = wantsProgress(output.stderrTerminal !== undefined, process.env, values.quiet);
  const status = new StatusLine(progress ? (output.stderrTerminal ?? null) : null);
  try {
    await runWatcher(
      {
        redisUrl,
        queue: values.queue,
        leaseMs: secondsFlag("watch", "--lease", values.lease),
        maxDeliveries: integerFlag("watch", "--max-deliveries", values["max-deliveries"], 1),
        modelFlags: givenModelFlags(values),
        model,
        drain: values.drain,
      },
      {
        line: (text) => status.line(() => output.stderr(`statefold watch: ${text}\n`)),
        figures: (figures) => status.show(`${figures.jobs} journals finished`),
      },
    );
  } finally {
    status.stop();
  }
  return ExitCode.conformant;
}
