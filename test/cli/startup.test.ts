/**
 * What a command loads: auditing a dag journal does not load the other models' reference
 * machines, nor `immutable` (a CommonJS package whose loading alone cost each process start
 * ~20 ms), which come only with a journal of theirs (src/cli/engine.ts imports their engines
 * when one comes).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "../support/temp-dirs.js";
import { REPO_ROOT } from "./cli-process.js";

const BIN = join(REPO_ROOT, "dist/src/cli/main.js");

/** Runs the bin with a preload that reports, as the process exits, whether `immutable` was loaded. */
function loadsImmutable(args: readonly string[]): boolean {
  const preload = join(testTempDir("statefold-startup-"), "report-immutable.cjs");
  writeFileSync(
    preload,
    `process.on("exit", () => {
      const loaded = Object.keys(require("node:module")._cache).some((path) =>
        path.includes("/node_modules/immutable/"),
      );
      process.stderr.write("immutable loaded: " + loaded + "\\n");
    });`,
  );
  const run = spawnSync(process.execPath, ["-r", preload, BIN, ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  const answer = /immutable loaded: (true|false)/.exec(run.stderr)?.[1];
  expect(answer, run.stderr).toBeDefined();
  return answer === "true";
}

describe("a command's start", () => {
  it("loads no other model's machine to audit, gate or replay a dag journal", () => {
    expect(loadsImmutable(["audit", "examples/diamond.jsonl"])).toBe(false);
    expect(loadsImmutable(["gate", "examples/diamond.jsonl"])).toBe(false);
    expect(loadsImmutable(["replay", "examples/diamond.jsonl"])).toBe(false);
  });

  it("loads the executive machine when an executive journal comes (the check above can fail)", () => {
    expect(
      loadsImmutable(["audit", "--engine", "reference", "examples/executive/conformant.jsonl"]),
    ).toBe(true);
  });
});
