/**
 * The bench's peak resident set (bench/peak-rss.ts): a process's own high-water mark, not the
 * one Linux's ru_maxrss carries over from a large parent across fork and exec — the bench's
 * workers and commands are all started by a suite that may hold hundreds of megabytes.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { peakRssBytes } from "../../bench/peak-rss.js";

const MB = 1e6;

describe("peakRssBytes", () => {
  it("counts what this process touched", () => {
    const before = peakRssBytes();
    const held = Buffer.alloc(200 * MB, 1);
    expect(peakRssBytes()).toBeGreaterThanOrEqual(Math.max(before, held.length));
  });

  it("is a child's own, though its parent holds far more", () => {
    const held = Buffer.alloc(400 * MB, 1);
    const child = (code: string) =>
      Number(execFileSync(process.execPath, ["-e", code]).toString().trim());
    // What the kernel's ru_maxrss tells the child: at least the parent's resident set.
    const inherited = child("console.log(process.resourceUsage().maxRSS * 1024)");
    expect(inherited).toBeGreaterThan(held.length);
    const own = Number(
      execFileSync(process.execPath, ["dist/bench/peak-rss-command.js"]).toString().trim(),
    );
    expect(own).toBeGreaterThan(10 * MB);
    expect(own).toBeLessThan(150 * MB);
  });
});
