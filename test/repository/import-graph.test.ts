/**
 * The import graph of src/ and bindings/ (docs/architecture.md): no module reaches itself through
 * static imports (an `import type` costs nothing at run time, and `import()` is taken when used),
 * and nothing in bindings/ reaches src/cli/ — the bindings load in browsers, the CLI does not.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const STATEMENT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+"(\.[^"]+)"/gms;

/** The modules a file imports at run time, as paths of .ts files. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(STATEMENT)].flatMap(([, typeOnly, clause = "", target = ""]) => {
    if (typeOnly !== undefined) return [];
    const named = /^\{([^}]*)\}$/s.exec(clause.trim());
    const names =
      named?.[1]
        ?.split(",")
        .map((name) => name.trim())
        .filter(Boolean) ?? [];
    if (named !== null && names.length > 0 && names.every((name) => name.startsWith("type ")))
      return [];
    return [resolve(dirname(file), target.replace(/\.js$/, ".ts"))];
  });
}

const files = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "bindings"))];
const graph = new Map(files.map((file) => [file, staticImports(file)]));

function cycles(): string[] {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") {
        found.push(
          stack
            .slice(stack.indexOf(next))
            .map((path) => relative(ROOT, path))
            .join(" → "),
        );
      } else if (state.get(next) === undefined) {
        visit(next);
      }
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (state.get(file) === undefined) visit(file);
  return found;
}

function reachedFrom(start: string): Set<string> {
  const seen = new Set<string>();
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(graph.get(file) ?? []));
  }
  return seen;
}

describe("the import graph", () => {
  it("has no cycle among static imports", () => {
    expect(cycles()).toEqual([]);
  });

  it("leads from nothing in bindings/ to src/cli/", () => {
    const cli = join(ROOT, "src", "cli");
    for (const file of files.filter((path) => path.startsWith(join(ROOT, "bindings")))) {
      const reached = [...reachedFrom(file)].filter((path) => path.startsWith(cli));
      expect({ file: relative(ROOT, file), reached }).toEqual({
        file: relative(ROOT, file),
        reached: [],
      });
    }
  });
});
