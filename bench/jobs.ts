/**
 * What `--jobs` is measured with, here and in the whole-path rows of `npm run bench`: directories
 * of generated journals, and the machine's own two-thread ceiling at the time of a round.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { campaignJournal } from "./dag/journals.js";

/**
 * Throughput of a busy loop on two threads at once over one thread's: what a second core gives
 * (2.0 on an idle two-core machine, less when a neighbour takes part of the second core).
 */
export async function parallelCeiling(): Promise<number> {
  const spin = `const { parentPort } = require("node:worker_threads");
    let x = 0; const start = performance.now();
    for (let i = 0; i < 1e8; i++) x = (x * 31 + i) | 0;
    parentPort.postMessage(performance.now() - start + (x & 0));`;
  const run = (threads: number) =>
    Promise.all(
      Array.from(
        { length: threads },
        () =>
          new Promise<number>((resolve, reject) => {
            const worker = new Worker(spin, { eval: true });
            worker.once("message", (ms: number) => void worker.terminate().then(() => resolve(ms)));
            worker.once("error", reject);
          }),
      ),
    );
  const [oneMs] = await run(1);
  const twoMs = await run(2);
  return (2 * (oneMs as number)) / Math.max(...twoMs);
}

export interface JournalDirectory {
  readonly directory: string;
  readonly journals: number;
  readonly bytes: number;
}

/**
 * `count` generated campaigns (seeds 0 … count − 1) of `eventsEach` events over `nodes` tasks,
 * one file each, in a folder of their own under the benchmarks' temp folder: written once,
 * reused.
 */
export async function journalDirectory(
  count: number,
  eventsEach: number,
  nodes: number,
): Promise<JournalDirectory> {
  // Long-lived tasks (a low pass rate), so that a campaign runs to its events: ~125 bytes each.
  const passRate = 0.002;
  const directory = join(
    tmpdir(),
    "statefold-bench",
    `jobs-${count}-campaigns-n${nodes}-e${eventsEach}-r${passRate}`,
  );
  let bytes = 0;
  for (let seed = 0; seed < count; seed++) {
    const campaign = { nodes, events: eventsEach, seed, passRate, surfacePathsMax: 8 };
    bytes += (await campaignJournal(campaign, directory)).bytes;
  }
  return { directory, journals: count, bytes };
}
