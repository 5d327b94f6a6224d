// Builds what a fresh clone or an edit left missing or stale, and nothing else: installing the
// package runs no build (it is built by `prepack`), so `npm run statefold` and the CI steps call
// this first. The kernels (every asconfig*.json target, copied into dist/build/) are rebuilt
// with the TypeScript when assembly/ or a kernel config is newer; the TypeScript alone when a
// source of tsconfig.build.json is newer than its output in dist/. Runs in the package's root
// (npm runs scripts there).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = process.cwd();

function filesUnder(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

function modifiedMs(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Number.NEGATIVE_INFINITY;
}

function kernelConfigs() {
  return readdirSync(root).filter((name) => /^asconfig.*\.json$/.test(name));
}

/**
 * The first kernel in dist/build/ that is missing or older than a kernel source, or than the
 * build/ file it is copied from (a kernel rebuilt with `npm run build:wasm` alone), or null.
 */
function staleKernel() {
  const configs = kernelConfigs();
  const sources = [
    ...filesUnder(join(root, "assembly")),
    ...configs.map((name) => join(root, name)),
  ];
  const newestSourceMs = Math.max(...sources.map(modifiedMs));
  for (const config of configs) {
    const { targets } = JSON.parse(readFileSync(join(root, config), "utf8"));
    for (const { outFile } of Object.values(targets)) {
      const output = join("dist", outFile);
      const sinceMs = Math.max(newestSourceMs, modifiedMs(join(root, outFile)));
      if (modifiedMs(join(root, output)) < sinceMs) return output;
    }
  }
  return null;
}

/** The first TypeScript output that is missing or older than its source, or null. */
function staleTypeScript() {
  const { include } = JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8"));
  for (const folder of include) {
    for (const source of filesUnder(join(root, folder))) {
      if (!source.endsWith(".ts") || source.endsWith(".d.ts")) continue;
      const relativeSource = source.slice(root.length + 1);
      const output = join("dist", relativeSource.replace(/\.ts$/, ".js"));
      if (modifiedMs(join(root, output)) < modifiedMs(source)) return output;
    }
  }
  return null;
}

function build(script, reason) {
  console.error(`statefold: ${reason}: npm run ${script}`);
  const run = spawnSync("npm", ["run", "--silent", script], { cwd: root, stdio: ["ignore", 2, 2] });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const kernel = staleKernel();
if (kernel !== null) {
  build("build", `${kernel} is missing or older than the kernel sources`);
} else {
  const typeScript = staleTypeScript();
  if (typeScript !== null) build("build:ts", `${typeScript} is missing or older than its source`);
}
