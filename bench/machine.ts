/** The machine a benchmark ran on, as BENCHMARKS.md reports it. */
import { readFileSync } from "node:fs";
import os from "node:os";

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** 1-minute load average when the run started; the machine may be shared. */
  readonly loadAtStart: number;
}

export function describeMachine(): Machine {
  return {
    cpu: cpuModel(),
    cores: os.availableParallelism(),
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAtStart: os.loadavg()[0] as number,
  };
}

function cpuModel(): string {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((text) => text.startsWith("model name"));
    if (line !== undefined) return line.slice(line.indexOf(":") + 1).trim();
  } catch {
    // not Linux: fall through to what Node knows
  }
  return os.cpus()[0]?.model ?? "unknown";
}
