/**
 * scripts/build-if-stale.mjs, which `npm run statefold` runs first so that a fresh clone's quick
 * start works without a build at install time: run in a small project of the same layout whose
 * build scripts only log their name, it builds exactly when an output is missing or stale.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { testTempDir } from "../support/temp-dirs.js";

const ROOT = join(import.meta.dirname, "../..");
const SCRIPT = join(ROOT, "scripts/build-if-stale.mjs");

const logScript = (name: string) =>
  `node -e "require('node:fs').appendFileSync('built.log', '${name}\\n')"`;

const SOURCES = {
  "package.json": JSON.stringify({
    name: "project",
    scripts: { build: logScript("build"), "build:ts": logScript("build:ts") },
  }),
  "asconfig.json": JSON.stringify({ targets: { scalar: { outFile: "build/kernel.wasm" } } }),
  "tsconfig.build.json": JSON.stringify({ include: ["src"] }),
  "assembly/dag/index.ts": "export const a = 1;\n",
  "src/cli/main.ts": "export {};\n",
};
const OUTPUTS = ["dist/build/kernel.wasm", "dist/src/cli/main.js"];

/** Writes each file with the given modification time (seconds since the epoch). */
function write(
  project: string,
  files: readonly string[],
  content: (path: string) => string,
  time: number,
) {
  for (const path of files) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content(path));
    utimesSync(join(project, path), time, time);
  }
}

function project(outputs: readonly string[]): string {
  const folder = testTempDir("statefold-stale-");
  write(folder, Object.keys(SOURCES), (path) => SOURCES[path as keyof typeof SOURCES], 1_000);
  write(folder, outputs, () => "built\n", 2_000);
  return folder;
}

/** What the script built (the scripts' log) and what it said. */
function buildIfStale(folder: string): { built: string[]; stderr: string } {
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: folder, encoding: "utf8" });
  expect(run.status).toBe(0);
  const log = existsSync(join(folder, "built.log"))
    ? readFileSync(join(folder, "built.log"), "utf8")
    : "";
  return { built: log.split("\n").filter((line) => line !== ""), stderr: run.stderr };
}

describe("scripts/build-if-stale.mjs", () => {
  it("builds everything in a fresh clone, where dist/ is missing", () => {
    const { built, stderr } = buildIfStale(project([]));
    expect(built).toEqual(["build"]);
    expect(stderr).toContain("dist/build/kernel.wasm is missing or older than the kernel sources");
  });

  it("builds nothing when every output is newer than the sources", () => {
    expect(buildIfStale(project([...OUTPUTS, "build/kernel.wasm"]))).toEqual({
      built: [],
      stderr: "",
    });
  });

  it("builds the TypeScript alone when only a TypeScript source is newer than its output", () => {
    const folder = project(OUTPUTS);
    utimesSync(join(folder, "src/cli/main.ts"), 3_000, 3_000);
    const { built, stderr } = buildIfStale(folder);
    expect(built).toEqual(["build:ts"]);
    expect(stderr).toContain("dist/src/cli/main.js is missing or older than its source");
  });

  it("builds everything when a kernel source is newer than a kernel", () => {
    const folder = project(OUTPUTS);
    utimesSync(join(folder, "assembly/dag/index.ts"), 3_000, 3_000);
    expect(buildIfStale(folder).built).toEqual(["build"]);
  });

  it("builds everything when a kernel in build/ is newer than its copy in dist/build/", () => {
    const folder = project([...OUTPUTS, "build/kernel.wasm"]);
    utimesSync(join(folder, "build/kernel.wasm"), 3_000, 3_000);
    expect(buildIfStale(folder).built).toEqual(["build"]);
  });

  it("runs before `npm run statefold` and the CI's benchmark check", () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.prestatefold).toBe("node scripts/build-if-stale.mjs");
    expect(scripts["bench:check"]).toMatch(/^node scripts\/build-if-stale\.mjs && /);
  });
});
