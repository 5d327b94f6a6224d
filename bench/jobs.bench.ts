/**
 * `statefold audit --jobs 2` against `--jobs 1` on the same directory of journals, in one run:
 *
 *   audit-<n>x<size>-jobs1   the CLI auditing every journal of the directory on its main thread
 *   audit-<n>x<size>-jobs2   the same, on two worker threads (one WASM engine each)
 *
 * Each run is the whole command as a user starts it (`node dist/src/cli/main.js audit …`):
 * process start, workers and engines included. The two take turns, one timed run each per
 * round, the order alternating, so a noisy neighbour on a shared machine slows both alike;
 * tinybench times each run and the figures are medians. Both must print the same verdicts.
 *
 * Back of the envelope: the kernel audits ~400-500 MB/s on one core, so 8 journals of ~75 MB
 * take ~1.5 s on one thread; a second worker can at best halve that, less the ~0.15-0.3 s of
 * starting each worker and its engine (why the journals are this large), and only where a
 * second core is free. How free it is, the bench measures in every round too (`cpu-ceiling`): the
 * same busy loop on one thread and on two at once; the ratio of their throughputs is the most
 * any second worker could give on this machine at that time.
 *
 * Many small journals, a fleet's runs one file each, are the other case: each costs a file's
 * open, read and close, its header, its report and its verdict line more than its events, and
 * the figure that matters is journals per second:
 *
 *   npm run bench:jobs -- --journals 10000 --events 20 --nodes 6
 *
 * Usage: npm run bench:jobs [-- --journals 8 --events 600000 --nodes 500 --rounds 7]
 * Exits 1 when --jobs 2 is not faster.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Bench } from "tinybench";
import { journalDirectory, parallelCeiling } from "./jobs.js";
import { median } from "./measure.js";

const { values } = parseArgs({
  options: {
    journals: { type: "string", default: "8" },
    events: { type: "string", default: "600000" },
    nodes: { type: "string", default: "500" },
    rounds: { type: "string", default: "7" },
  },
});
const journals = Number(values.journals);
const events = Number(values.events);
const nodes = Number(values.nodes);
const rounds = Number(values.rounds);
const CLI = join(import.meta.dirname, "../src/cli/main.js");

const { directory, bytes } = await journalDirectory(journals, events, nodes);
const eachBytes = bytes / journals;
const label = `audit-${journals}x${eachBytes < 1e6 ? `${Math.round(eachBytes / 1e3)}kb` : `${Math.round(eachBytes / 1e6)}mb`}`;

const reference = await audit(1);
if ((await audit(2)) !== reference)
  throw new Error("--jobs 2 and --jobs 1 print different verdicts");

const samplesMs: Record<number, number[]> = { 1: [], 2: [] };
const ceilings: number[] = [];
for (let round = 0; round < rounds; round++) {
  ceilings.push(await parallelCeiling());
  const bench = new Bench({ iterations: 1, time: 0, warmup: false, throws: true });
  for (const jobs of round % 2 === 0 ? [1, 2] : [2, 1]) {
    bench.add(`${label}-jobs${jobs}`, async () => {
      if ((await audit(jobs)) !== reference) throw new Error(`--jobs ${jobs}: other verdicts`);
    });
  }
  await bench.run();
  for (const task of bench.tasks) {
    const jobs = Number(task.name.slice(-1));
    const result = task.result;
    if (result?.state !== "completed") throw new Error(`${task.name}: no result`);
    samplesMs[jobs]?.push(result.latency.mean);
  }
  process.stderr.write(`round ${round + 1}/${rounds}\r`);
}

const p50 = { 1: median(samplesMs[1] ?? []), 2: median(samplesMs[2] ?? []) };
console.log(
  `${journals} journals, ${(bytes / 1e6).toFixed(0)} MB, ${availableParallelism()} cores, ${rounds} rounds`,
);
for (const jobs of [1, 2] as const) {
  const rate = bytes / 1e6 / (p50[jobs] / 1000);
  const journalsPerSecond = journals / (p50[jobs] / 1000);
  console.log(
    `${`${label}-jobs${jobs}`.padEnd(28)} p50 ${p50[jobs].toFixed(0).padStart(6)} ms  ${rate.toFixed(0).padStart(5)} MB/s  ${journalsPerSecond.toFixed(0).padStart(7)} journals/s (process start included)`,
  );
}
const ratio = p50[1] / p50[2];
console.log(`--jobs 2 is ${ratio.toFixed(2)}x as fast as --jobs 1 (p50 of the same run)`);
console.log(
  `cpu-ceiling: two busy threads do ${median(ceilings).toFixed(2)}x the work of one here (p50 of the rounds)`,
);
process.exitCode = ratio > 1 ? 0 : 1;

/** The ndjson verdicts of one audit of the directory. */
function audit(jobs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [
      CLI,
      "audit",
      "--jobs",
      String(jobs),
      "--format",
      "ndjson",
      "--quiet",
      directory,
    ]);
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`audit --jobs ${jobs} exited ${code}`)),
    );
  });
}
