import { Worker } from "node:worker_threads";
import { MODEL_NAMES } from "../models/registry.js";
import { bytesFlag, oneRedisUrl, secondsFlag } from "../scale/flags.js";
import { DEFAULT_QUEUE } from "../scale/keys.js";
import { StatusLine } from "../scale/status-line.js";
import {
  runWorker,
  type WorkerFigures,
  type WorkerOptions,
  type WorkerReport,
} from "../scale/worker-loop.js";
import { formatBytes } from "../text/format-units.js";
import { type CliOutput, type Command, ExitCode, oneOf, parseCommand } from "./command.js";
import { DEFAULT_ENGINE, ENGINE_NAMES } from "./engine.js";
import { wordList, wrapHelp } from "./help-columns.js";
import { chooseModelFlag, MODEL_FLAG_HELP } from "./model-choice.js";
import {
  givenModelFlags,
  modelFlagOptions,
  modelFlagsHelp,
  modelFlagsUsage,
} from "./model-flags.js";
import { integerFlag } from "./number-flags.js";
import { wantsProgress } from "./progress-bar.js";

const HELP = `Usage: statefold worker REDIS_URL [--queue Q] [--concurrency N] [--model NAME|FILE] [--engine NAME]
                       ${modelFlagsUsage()} [--strict] [--lease S] [--snapshot-every BYTES]
                       [--snapshot-dir DIR] [--max-deliveries N] [--drain] [--quiet]

${wrapHelp(`Takes jobs from the queue (statefold enqueue), audits each journal as statefold audit does — against its model, ${wordList(MODEL_NAMES, "or")}, or a model file's: the one the job names (enqueue --model), else --model's, else its header's — and publishes its verdict (statefold results) in the same atomic step that acknowledges the job.`, 0, 93)}
Every --snapshot-every bytes the audit's snapshot is committed under the job, fenced by the
lease's epoch: a worker that lost its job commits nothing. A job whose worker is silent for
--lease seconds (killed, stopped, its machine lost) is taken over by another worker, which
resumes from the last snapshot. Run as many workers, on as many machines, as you like: each
journal's location must mean the same file to all of them. See docs/scale-out.md.

Options:
  --queue Q             the queue's name (default ${DEFAULT_QUEUE}): its keys share the hash tag {Q}
  --concurrency N       audit N journals at once, on N threads (default 1)
  --model NAME|FILE     ${wrapHelp(`the model of the jobs that name none, as statefold audit --model: ${MODEL_FLAG_HELP}. A file is checked before any job is taken. A job naming a model this worker does not know, or another file under that name, is left for another worker (docs/scale-out.md, "Models")`, 24, 93)}
  --engine NAME         wasm (default) or reference (audits whole, without snapshots)
${modelFlagsHelp(24, 93, true)}  --strict              as statefold audit --strict (the verdicts are the same reports)
  --lease S             seconds without a heartbeat before a job is taken over (default 30)
  --snapshot-every B    commit a snapshot every B bytes read (default 64M; K, M, G allowed)
  --snapshot-dir DIR    keep snapshots over 256 KiB in files in DIR (shared by the workers),
                        Redis holding their path; by default every snapshot is kept in Redis
  --max-deliveries N    a job delivered more than N times goes to the dead letters (default 5)
  --drain               exit once no job is waiting or held by any worker
  --quiet               no progress line (drawn on stderr only when that is a terminal)
  -h, --help            show this help

Exit status: 0 when drained, 2 bad usage, a model file refused, or Redis unreachable.
`;

export const workerCommand: Command = {
  name: "worker",
  help: HELP,
  run: runWorkerCommand,
};

const DEFAULT_LEASE_S = "30";
const DEFAULT_SNAPSHOT_EVERY = "64M";
const DEFAULT_MAX_DELIVERIES = "5";

async function runWorkerCommand(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(workerCommand, args, output, {
    queue: { type: "string", default: DEFAULT_QUEUE },
    concurrency: { type: "string", default: "1" },
    model: { type: "string" },
    engine: { type: "string", default: DEFAULT_ENGINE },
    ...modelFlagOptions(),
    strict: { type: "boolean", default: false },
    lease: { type: "string", default: DEFAULT_LEASE_S },
    "snapshot-every": { type: "string", default: DEFAULT_SNAPSHOT_EVERY },
    "snapshot-dir": { type: "string" },
    "max-deliveries": { type: "string", default: DEFAULT_MAX_DELIVERIES },
    drain: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  const redisUrl = oneRedisUrl("worker", positionals);
  const { model, modelFile } = await chooseModelFlag("worker", values.model);
  const options: WorkerOptions = {
    redisUrl,
    queue: values.queue,
    leaseMs: secondsFlag("worker", "--lease", values.lease),
    maxDeliveries: integerFlag("worker", "--max-deliveries", values["max-deliveries"], 1),
    snapshotEveryBytes: bytesFlag("worker", "--snapshot-every", values["snapshot-every"]),
    snapshotDirectory: values["snapshot-dir"] ?? null,
    engine: oneOf("worker", "--engine", values.engine, ENGINE_NAMES),
    modelFlags: givenModelFlags(values),
    model,
    modelFile,
    strict: values.strict,
    drain: values.drain,
  };
  const concurrency = integerFlag("worker", "--concurrency", values.concurrency, 1);
  const progress = wantsProgress(output.stderrTerminal !== undefined, process.env, values.quiet);
  const status = new StatusLine(progress ? (output.stderrTerminal ?? null) : null);
  const figures = new Map<number, WorkerFigures>();
  const report = (thread: number): WorkerReport => ({
    line: (text) => status.line(() => output.stderr(`statefold worker: ${text}\n`)),
    figures: (latest) => {
      figures.set(thread, latest);
      status.show(statusText([...figures.values()]));
    },
  });
  try {
    if (concurrency === 1) await runWorker(options, report(0));
    else
      await Promise.all(
        Array.from({ length: concurrency }, (_, thread) => runThread(options, report(thread))),
      );
  } finally {
    status.stop();
  }
  return ExitCode.conformant;
}

function statusText(threads: readonly WorkerFigures[]): string {
  const jobs = threads.reduce((sum, thread) => sum + thread.jobs, 0);
  const bytes = threads.reduce((sum, thread) => sum + thread.bytes, 0);
  const current = threads.flatMap((thread) => (thread.current === null ? [] : [thread.current]));
  const now = current.map((job) => `${job.location} ${formatBytes(job.bytes)}`).join(", ");
  return `${jobs} journals, ${formatBytes(bytes)} audited${now === "" ? "" : `; now ${now}`}`;
}

function runThread(options: WorkerOptions, report: WorkerReport): Promise<void> {
  const here = import.meta.url;
  const entry = here.endsWith(".ts")
    ? new URL("../../dist/src/scale/worker-thread.js", here)
    : new URL("../scale/worker-thread.js", here);
  const thread = new Worker(entry, { workerData: options });
  thread.on("message", (message: { line?: string; figures?: WorkerFigures }) => {
    if (message.line !== undefined) report.line(message.line);
    if (message.figures !== undefined) report.figures(message.figures);
  });
  return new Promise((done, fail) => {
    thread.once("error", fail);
    thread.once("exit", (code) =>
      code === 0 ? done() : fail(new Error(`a worker thread stopped with code ${code}`)),
    );
  });
}
