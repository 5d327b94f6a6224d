/**
 * Preloaded into a command the whole-path bench times (`node --import …/command-usage.js`): when
 * the process exits it writes its CPU time (user and system, every thread) and its peak resident
 * set (peak-rss.ts), as JSON, to the file STATEFOLD_BENCH_USAGE names — what a parent cannot read of a child
 * in Node.
 */
import { writeFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
import { peakRssBytes } from "./peak-rss.js";

export interface CommandUsage {
  readonly cpuMs: number;
  readonly maxRssBytes: number;
}

const file = process.env.STATEFOLD_BENCH_USAGE;
if (file !== undefined && isMainThread) {
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    const usage: CommandUsage = {
      cpuMs: (cpu.user + cpu.system) / 1000,
      maxRssBytes: peakRssBytes(),
    };
    writeFileSync(file, JSON.stringify(usage));
  });
}
