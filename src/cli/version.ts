import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The version in statefold's package.json. It is found by walking up from this module because
 * the module runs from `src/cli/` under vitest and from `dist/src/cli/` when built.
 */
export function packageVersion(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, "package.json");
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, "utf8")) as Record<string, unknown>;
      if (manifest.name === "statefold") return String(manifest.version);
    }
    const parent = dirname(directory);
    if (parent === directory) throw new Error("statefold's package.json was not found");
    directory = parent;
  }
}
