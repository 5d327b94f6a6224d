/**
 * The repository stands on its own: a user's clone has nothing beside it, so no tracked file may
 * point outside it, every relative link of the documentation must name a file it holds, and so
 * must every path into one of its folders that any tracked text names (prose, comments, help).
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

/** The tracked files that are text: the binary ones hold a NUL byte. */
function trackedTexts(): { path: string; text: string }[] {
  return trackedFiles()
    .map((path) => ({ path, bytes: readFileSync(join(ROOT, path)) }))
    .filter(({ bytes }) => !bytes.includes(0))
    .map(({ path, bytes }) => ({ path, text: bytes.toString("utf8") }));
}

/**
 * Every `folder/…` path a text names, for each top-level folder the repository tracks. A path in
 * a quoted string (`"src/a.ts"`) is data — a journal's surface, a test's input — not a
 * reference, and one with a placeholder (`<file>`, `*`, `…`, `${…}`) names no one file.
 */
function namedPaths(text: string, folders: readonly string[]): string[] {
  const pattern = new RegExp(
    `(?<![\\w./-])(["']?)((?:${folders.join("|")})/[\\w./*<>…\${}+-]*)`,
    "g",
  );
  const paths: string[] = [];
  for (const [, quote, path] of text.matchAll(pattern)) {
    if (quote !== "" || path === undefined || /[*<>…]|\$\{/.test(path)) continue;
    paths.push(path.replace(/\.+$/, ""));
  }
  return paths;
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

  it("holds every path into its folders that a tracked text names", () => {
    const folders = [...new Set(trackedFiles().map((path) => dirname(path).split("/")[0] ?? "."))]
      .filter((folder) => folder !== ".")
      .map((folder) => folder.replace(/[.]/g, "\\."));
    expect(folders).toEqual(
      expect.arrayContaining(["docs", "examples", "src", "bench", "scripts"]),
    );
    const missing: string[] = [];
    // .gitignore names what the build and the benchmarks write, which a clone does not hold.
    for (const { path, text } of trackedTexts().filter(
      ({ path }) => !path.endsWith(".gitignore"),
    )) {
      for (const named of namedPaths(text, folders)) {
        if (!existsSync(join(ROOT, named))) missing.push(`${path} → ${named}`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it("links the dag model's page from its README", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("(docs/models/dag.md)");
  });
});
