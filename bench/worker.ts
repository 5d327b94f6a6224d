/**
 * One engine in a process of its own, so that its peak memory is its own: started by
 * measure.ts as `worker.js <engine> <journal>`, it prepares the engine, then times as many runs
 * as it is asked for with tinybench, and at the end reports its peak resident set size.
 *
 * Messages in: {run: iterations} | {exit: true}. Out: {ready: prepareMs} | {samplesMs,
 * cpuSamplesMs, finding} | {maxRssBytes} | {error}. `cpuSamplesMs` is each run's CPU time, user
 * and system, of every thread of the process (GC and file-reading threads included): unlike
 * wall time it barely moves when another process takes the other core.
 */
import { Bench } from "tinybench";
import { type EngineName, type Finding, isEngineName, prepareEngine } from "./engines.js";
import { peakRssBytes } from "./peak-rss.js";

export type WorkerRequest = { readonly run: number } | { readonly exit: true };
export type WorkerReply =
  | { readonly ready: number }
  | { readonly samplesMs: number[]; readonly cpuSamplesMs: number[]; readonly finding: Finding }
  | { readonly maxRssBytes: number }
  | { readonly error: string };

const [name, path] = process.argv.slice(2);
if (name === undefined || !isEngineName(name) || path === undefined) {
  throw new Error("usage: worker.js <engine> <journal>");
}

const send = (reply: WorkerReply) => process.send?.(reply);

try {
  const started = performance.now();
  const run = await prepareEngine(name, path);
  send({ ready: performance.now() - started });
  process.on("message", (request: WorkerRequest) => {
    if ("exit" in request) {
      send({ maxRssBytes: peakRssBytes() });
      process.disconnect();
      return;
    }
    timeRuns(name, run, request.run).then(send, (error: unknown) =>
      send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
} catch (error) {
  send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.disconnect();
}

async function timeRuns(
  engine: EngineName,
  run: () => Promise<Finding>,
  iterations: number,
): Promise<WorkerReply> {
  let finding: Finding | null = null;
  const cpuSamplesMs: number[] = [];
  const bench = new Bench({
    iterations,
    time: 0,
    warmup: false,
    retainSamples: true,
    throws: true,
  });
  bench.add(engine, async () => {
    const cpuBefore = process.cpuUsage();
    finding = await run();
    const cpu = process.cpuUsage(cpuBefore);
    cpuSamplesMs.push((cpu.user + cpu.system) / 1000);
  });
  await bench.run();
  // Collect this run's garbage now, untimed and before replying: a collector still sweeping in
  // the background would take a core from the next engine's timed run (it only ever flatters
  // this engine, whose run then leaves some of its garbage uncollected in the time counted).
  globalThis.gc?.();
  const result = bench.tasks[0]?.result;
  if (result?.state !== "completed" || finding === null) throw new Error(`${engine}: no result`);
  return { samplesMs: [...(result.latency.samples ?? [])], cpuSamplesMs, finding };
}
