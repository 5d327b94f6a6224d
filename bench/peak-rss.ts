/**
 * A process's peak resident set, Node itself included. On Linux `ru_maxrss`
 * (`process.resourceUsage().maxRSS`) survives execve: a process started by a large one reports at
 * least the resident set its parent had when it forked (a worker of the bench, started by a
 * suite holding a 500 MB reference audit, showed 514 MiB whatever it did). So there the
 * high-water mark of the process's own memory, VmHWM in /proc/self/status, is read; elsewhere
 * `ru_maxrss`.
 */
import { readFileSync } from "node:fs";

export function peakRssBytes(): number {
  try {
    const status = readFileSync("/proc/self/status", "utf8");
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // no /proc: not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}
