/**
 * `npm run bench:kernel-ab` (bench/kernel-ab.ts over bench/compare-kernels.ts): two kernel
 * builds compared on one journal — the rounds taken in turn, the ratio per round, and the
 * verdict that the two builds agree, which a kernel change must keep.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareKernels, type KernelAudit } from "../../bench/compare-kernels.js";

const REPO_ROOT = join(import.meta.dirname, "../..");
const journal = new TextEncoder().encode('{"kind":"accepted","op":"a","strand":"s"}\n');

/** An audit that burns `spins` iterations of CPU per run and answers `report`. */
function burning(spins: number, report: unknown, order: string[], name: string): KernelAudit {
  return async () => {
    order.push(name);
    let x = 0;
    for (let i = 0; i < spins; i++) x = (x * 31 + i) % 1_000_003;
    return { report, x: x >= 0 };
  };
}

describe("comparing two kernel builds", () => {
  it("warms each build up once, then takes rounds in turn, the order alternating", async () => {
    const order: string[] = [];
    const comparison = await compareKernels(
      burning(10, "same", order, "before"),
      burning(10, "same", order, "after"),
      journal,
      3,
    );
    expect(order).toEqual([
      "before",
      "after",
      "before",
      "after",
      "after",
      "before",
      "before",
      "after",
    ]);
    expect(comparison.ratios).toHaveLength(3);
    expect(comparison.sameReport).toBe(true);
  });

  it("finds the build that does a tenth of the work faster, by a ratio above 1", async () => {
    const comparison = await compareKernels(
      burning(20_000_000, "same", [], "before"),
      burning(2_000_000, "same", [], "after"),
      journal,
      3,
    );
    expect(comparison.speedup).toBeGreaterThan(2);
    expect(comparison.medianSeconds[0]).toBeGreaterThan(comparison.medianSeconds[1]);
  });

  it("says when the two builds' reports differ", async () => {
    const comparison = await compareKernels(
      burning(10, { conformant: true }, [], "before"),
      burning(10, { conformant: false }, [], "after"),
      journal,
      1,
    );
    expect(comparison.sameReport).toBe(false);
  });

  it("runs as a command on two real builds, which agree (exit 0), and refuses a missing journal (exit 2)", () => {
    const command = join(REPO_ROOT, "dist/bench/kernel-ab.js");
    const agreed = spawnSync(
      process.execPath,
      [
        command,
        "--model",
        "operations",
        "--rounds",
        "2",
        join(REPO_ROOT, "build/statefold-operations.wasm"),
        join(REPO_ROOT, "build/statefold-operations.simd.wasm"),
        join(REPO_ROOT, "examples/operations/retry-and-readback.jsonl"),
      ],
      { encoding: "utf8" },
    );
    expect(agreed.stdout).toContain("reports: deep-equal");
    expect(agreed.stdout).toMatch(/after \/ before: [\d.]+× as fast \(per-round/);
    expect(agreed.status).toBe(0);
    const refused = spawnSync(process.execPath, [command, "--model", "operations", "a.wasm"], {
      encoding: "utf8",
    });
    expect(refused.stderr).toContain("usage: npm run bench:kernel-ab");
    expect(refused.status).toBe(2);
  });

  it("compares the kernels of the model the journal's header names when --model is not given", () => {
    const command = join(REPO_ROOT, "dist/bench/kernel-ab.js");
    const builds = (name: string) => [`build/${name}.wasm`, `build/${name}.simd.wasm`];
    for (const [kernels, journal] of [
      [builds("statefold-executive"), "examples/executive/conformant.jsonl"],
      [builds("statefold"), "examples/diamond.jsonl"],
    ] as const) {
      const compared = spawnSync(
        process.execPath,
        [command, "--rounds", "1", ...[...kernels, journal].map((file) => join(REPO_ROOT, file))],
        { encoding: "utf8" },
      );
      expect(compared.stdout).toContain("reports: deep-equal");
      expect(compared.status).toBe(0);
    }
  });
});
