/**
 * The package a user installs: what `npm pack` puts in the tarball, and that the tarball installs
 * into an empty folder without a build and runs. It is packed from the build `npm test` has just
 * made (`--ignore-scripts`: packing for real rebuilds everything through `prepack`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_NAMES } from "../../src/models/registry.js";
import { testTempDir } from "../support/temp-dirs.js";

const ROOT = join(import.meta.dirname, "../..");

interface Manifest {
  description?: string;
  license?: string;
  dependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

interface LockEntry {
  dependencies?: Record<string, string>;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

function npm(args: readonly string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** `npm pack --json`'s one package: its tarball's name and the paths it holds. */
function pack(args: readonly string[]): { filename: string; paths: string[] } {
  const [packed] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", ...args], ROOT)) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (packed === undefined) throw new Error("npm pack --json listed no package");
  return { filename: packed.filename, paths: packed.files.map((file) => file.path) };
}

/**
 * The repository's lock entries for the package's runtime dependencies, and theirs (with the
 * copies nested under them): seeded into the empty folder's lock, they let `npm install
 * --offline` take the tarballs from the npm cache that `npm ci` filled, without asking the
 * registry to resolve a version.
 */
function lockedRuntimeDependencies(): Record<string, LockEntry> {
  const manifest = readJson<Manifest>(join(ROOT, "package.json"));
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(ROOT, "package-lock.json"));
  const entries: Record<string, LockEntry> = {};
  const names = Object.keys(manifest.dependencies ?? {});
  for (let name = names.pop(); name !== undefined; name = names.pop()) {
    const key = `node_modules/${name}`;
    if (key in entries) continue;
    if (lock.packages[key] === undefined) throw new Error(`package-lock.json has no ${key}`);
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path !== key && !path.startsWith(`${key}/node_modules/`)) continue;
      entries[path] = entry;
      names.push(...Object.keys(entry.dependencies ?? {}));
    }
  }
  return entries;
}

/** Scripts npm runs in a package when it is installed as a dependency. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

describe("the package", () => {
  const { paths } = pack(["--dry-run"]);

  it("ships the MIT license its package.json declares", () => {
    expect(readJson<Manifest>(join(ROOT, "package.json")).license).toBe("MIT");
    expect(paths).toContain("LICENSE");
    const license = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the statefold authors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it("describes every model in its package.json", () => {
    const { description = "" } = readJson<Manifest>(join(ROOT, "package.json"));
    const named = MODEL_NAMES.filter((model) => new RegExp(`\\b${model}\\b`).test(description));
    expect(named).toEqual([...MODEL_NAMES]);
  });

  it("ships the CLI, the library, each kernel once and the model file's JSON Schema, and nothing of the repository's own", () => {
    expect(paths).toContain("dist/src/cli/main.js");
    expect(paths).toContain("dist/src/index.js");
    expect(paths).toContain("dist/src/index.d.ts");
    const kernels = paths.filter((path) => path.endsWith(".wasm"));
    const kernelNames = kernels.map((path) => path.slice(path.lastIndexOf("/") + 1));
    expect(kernels.length).toBeGreaterThanOrEqual(6);
    expect(new Set(kernelNames).size).toBe(kernels.length);
    expect(kernels.every((path) => path.startsWith("dist/build/"))).toBe(true);
    expect(paths).toContain("schema/statefold-model.schema.json");
    const foreign = paths.filter(
      (path) =>
        !/^(dist\/(src|bindings|build)|schema)\//.test(path) &&
        !["LICENSE", "README.md", "package.json"].includes(path),
    );
    expect(foreign).toEqual([]);
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
  });

  it("builds when it is packed, never when it is installed", () => {
    const { scripts = {} } = readJson<Manifest>(join(ROOT, "package.json"));
    // From an empty dist/, so that no module of an earlier build whose source is gone ships.
    expect(scripts.prepack).toMatch(
      /^node -e "require\('node:fs'\)\.rmSync\('dist',.*" && npm run build$/,
    );
    expect(INSTALL_SCRIPTS.filter((name) => name in scripts)).toEqual([]);
  });

  it("installs from its tarball into an empty folder, offline, and its CLI audits each model", () => {
    const folder = testTempDir("statefold-package-");
    const { filename } = pack(["--pack-destination", folder]);
    const app = join(folder, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ private: true }));
    writeFileSync(
      join(app, "package-lock.json"),
      JSON.stringify({
        lockfileVersion: 3,
        requires: true,
        packages: { "": {}, ...lockedRuntimeDependencies() },
      }),
    );
    npm(
      [
        "install",
        "--offline",
        "--ignore-scripts=false",
        "--no-audit",
        "--no-fund",
        join(folder, filename),
      ],
      app,
    );
    const installed = readJson<Manifest>(join(app, "node_modules/statefold/package.json"));
    expect(INSTALL_SCRIPTS.filter((name) => name in (installed.scripts ?? {}))).toEqual([]);
    const audit = (journal: string, ...options: string[]) =>
      spawnSync(
        join(app, "node_modules/.bin/statefold"),
        ["audit", "--engine", "wasm", "--quiet", ...options, join(ROOT, "examples", journal)],
        { cwd: app, encoding: "utf8" },
      );
    const dag = audit("diamond.jsonl");
    expect([dag.status, dag.stderr]).toEqual([0, ""]);
    expect(dag.stdout).toContain("strictly conformant (21 events)");
    const operations = audit("operations/retry-and-readback.jsonl");
    expect([operations.status, operations.stderr]).toEqual([0, ""]);
    const executive = audit("executive/resurrection.jsonl");
    expect([executive.status, executive.stderr]).toEqual([1, ""]);
    expect(executive.stdout).toContain("NOT CONFORMANT");
    // A shipped model defined by data: its model file travels in the package.
    const temporal = audit("temporal/worker-deployment.json", "--model", "temporal");
    expect([temporal.status, temporal.stderr]).toEqual([0, ""]);
    expect(temporal.stdout).toContain("strictly conformant (7 events)");
    // Worker threads load their own module of the package.
    const directory = audit("operations", "--jobs", "2");
    expect([directory.status, directory.stderr]).toEqual([1, ""]);
    expect(directory.stdout).toMatch(/\n1 of \d+ journals conformant\n/);
  }, 120_000);
});
