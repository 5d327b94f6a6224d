/**
 * The repository stands on its own: a user's clone has nothing beside it, so no tracked file may
 * point outside it, and every relative link of the documentation must name a file it holds.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

function trackedFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  return listed
    .split("\0")
    .filter((path) => path !== "" && !path.startsWith("test/data/"))
    .filter((path) => existsSync(join(ROOT, path)));
}

// Spelled in pieces so that this file does not match itself.
const OUTSIDE = ["..", "/shared"].join("");
const CONTRACT = ["DESIGN", ".md"].join("");

describe("the repository", () => {
  it("refers to no path outside itself", () => {
    const offenders = trackedFiles().filter((path) => {
      const text = readFileSync(join(ROOT, path), "latin1");
      return text.includes(OUTSIDE) || text.includes(CONTRACT);
    });
    expect(offenders).toEqual([]);
  });

  it("links only to files it holds, from its README and docs", () => {
    const pages = trackedFiles().filter(
      (path) => path.endsWith(".md") && (path === "README.md" || path.startsWith("docs/")),
    );
    expect(pages).toContain("docs/models/dag.md");
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        if (!existsSync(join(ROOT, normalize(join(dirname(page), target))))) {
          broken.push(`${page} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("links the dag model's page from its README", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("(docs/models/dag.md)");
  });
});
