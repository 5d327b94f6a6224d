import { MODEL_NAMES } from "../models/registry.js";
import { connectRedis } from "../scale/connect.js";
import { jobModelOf } from "../scale/job-model.js";
import { JobQueue } from "../scale/job-queue.js";
import { DEFAULT_QUEUE } from "../scale/keys.js";
import { type CliOutput, type Command, ExitCode, parseCommand, UsageError } from "./command.js";
import { wordList, wrapHelp } from "./help-columns.js";
import { chooseModelFlag, MODEL_FLAG_HELP } from "./model-choice.js";

const HELP = `Usage: statefold enqueue REDIS_URL [--queue Q] [--model NAME|FILE] [LOCATION...]

${wrapHelp(`Adds a job per location to the queue, for statefold worker: a journal file, or a directory the worker replaces by a job per journal under it. Locations are paths as the workers see them (shared storage), not checked here. With no LOCATION they are read from the standard input, one a line. With --model every job names the model its journal is audited against, whatever the worker's own --model: ${wordList(MODEL_NAMES, "or")}, or a model file's. See docs/scale-out.md.`, 0, 93)}

Options:
  --queue Q           the queue's name (default ${DEFAULT_QUEUE})
  --model NAME|FILE   ${wrapHelp(`the model every job's journal must be of, written into the job (a worker's own --model is for jobs that name none): ${MODEL_FLAG_HELP}. A file is checked here; its jobs carry the model's name and digest, and only a worker started with the same model takes them`, 22, 93)}
  -h, --help          show this help

Exit status: 0 queued, 2 bad usage, a model file refused, or Redis unreachable.
`;

export const enqueueCommand: Command = {
  name: "enqueue",
  help: HELP,
  run: runEnqueue,
};

/** Jobs are sent in pipelines of this many: one round trip each, not one per job. */
const ENQUEUE_BATCH = 1000;

async function runEnqueue(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(enqueueCommand, args, output, {
    queue: { type: "string", default: DEFAULT_QUEUE },
    model: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const [redisUrl, ...given] = parsed.positionals;
  if (redisUrl === undefined) throw new UsageError("enqueue needs a REDIS_URL", "enqueue");
  const { model } = await chooseModelFlag("enqueue", parsed.values.model);
  const jobModel = model === undefined ? null : jobModelOf(model);
  const locations = given.length > 0 ? given : await stdinLines();
  const redis = await connectRedis(redisUrl, "enqueue");
  try {
    const queue = new JobQueue(redis, parsed.values.queue, "enqueue");
    await queue.ensureGroup();
    for (let at = 0; at < locations.length; at += ENQUEUE_BATCH) {
      await queue.enqueue(locations.slice(at, at + ENQUEUE_BATCH), jobModel);
    }
  } finally {
    redis.disconnect();
  }
  output.stderr(`statefold enqueue: ${locations.length} jobs queued on ${parsed.values.queue}\n`);
  return ExitCode.conformant;
}

async function stdinLines(): Promise<string[]> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
