import { connectRedis } from "../scale/connect.js";
import { JobQueue } from "../scale/job-queue.js";
import { DEFAULT_QUEUE } from "../scale/keys.js";
import { type CliOutput, type Command, ExitCode, parseCommand, UsageError } from "./command.js";

const HELP = `Usage: statefold enqueue REDIS_URL [--queue Q] [LOCATION...]

Adds a job per location to the queue, for statefold worker: a journal file, or a directory the
worker replaces by a job per journal under it. Locations are paths as the workers see them
(shared storage), not checked here. With no LOCATION they are read from the standard input,
one a line. See docs/scale-out.md.

Options:
  --queue Q     the queue's name (default ${DEFAULT_QUEUE})
  -h, --help    show this help

Exit status: 0 queued, 2 bad usage or Redis unreachable.
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
  });
  if (parsed === null) return ExitCode.conformant;
  const [redisUrl, ...given] = parsed.positionals;
  if (redisUrl === undefined) throw new UsageError("enqueue needs a REDIS_URL", "enqueue");
  const locations = given.length > 0 ? given : await stdinLines();
  const redis = await connectRedis(redisUrl, "enqueue");
  try {
    const queue = new JobQueue(redis, parsed.values.queue, "enqueue");
    await queue.ensureGroup();
    for (let at = 0; at < locations.length; at += ENQUEUE_BATCH) {
      await queue.enqueue(locations.slice(at, at + ENQUEUE_BATCH));
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
