/**
 * The package a user installs: what `npm pack` puts in the tarball. It is read from the build
 * `npm test` has just made (`--ignore-scripts`: packing for real rebuilds through `prepack`).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

interface PackedFile {
  path: string;
}

function packedPaths(): string[] {
  const json = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [pack] = JSON.parse(json) as { files: PackedFile[] }[];
  if (pack === undefined) throw new Error("npm pack --dry-run --json listed no package");
  return pack.files.map((file) => file.path);
}

describe("the package", () => {
  const paths = packedPaths();

  it("ships the MIT license its package.json declares", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      license: string;
    };
    expect(manifest.license).toBe("MIT");
    expect(paths).toContain("LICENSE");
    const license = readFileSync(join(ROOT, "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the statefold authors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });
});
