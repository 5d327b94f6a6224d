/**
 * The shape of the house, held by its import graph (docs/architecture.md): the static imports of
 * src/, bindings/, web/ and bench/ form no cycle, the bindings never reach into the CLI, and a
 * model's code is reached from shared code only through its manifest, which only the registry
 * imports (and, outside src/, through the bench's and the page's own records of models,
 * bench/models.ts and web/page-audits.ts).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_NAMES } from "../../src/models/registry.js";
import { ROOT, staticImportGraph, trackedTypeScript } from "../support/static-imports.js";

/** Run-time edges only: a type-only import is erased and loads nothing, so it closes no cycle. */
const GRAPH = staticImportGraph(trackedTypeScript(["src", "bindings", "web", "bench"]));

/**
 * Imports from shared code (or another model's code) into a model's folders, as `importer →
 * imported`, on main when this test was written. The model contract's restructuring is shrinking
 * this list to nothing: a new entry fails the test, and so does an entry that no longer holds
 * (remove it here).
 */
const MODEL_FOLDER_IMPORTS_ALLOWED: readonly string[] = [
  "bench/jobs.ts → bench/dag/journals.ts",
  "bench/whole-path.ts → bench/dag/journals.ts",
  "bindings/executive/pack-spec.ts → src/models/dag/dag.ts",
  "src/engine-arguments.ts → src/models/dag/reverse-edges.ts",
  "src/index.ts → src/journal/dag/files.ts",
  "src/index.ts → src/models/dag/engine.ts",
  "src/index.ts → src/models/dag/index.ts",
  "src/index.ts → src/models/executive/engine.ts",
  "src/index.ts → src/models/executive/index.ts",
  "src/index.ts → src/models/operations/engine.ts",
  "src/index.ts → src/models/operations/index.ts",
  "src/models/executive/spec.ts → src/models/dag/dag.ts",
  "src/models/executive/step.ts → src/models/dag/dag.ts",
];

/** The strongly connected components of more than one file (or a file importing itself). */
function cyclicComponents(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) as number, lowLink.get(target) as number));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) as number, index.get(target) as number));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      components.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return components;
}

/** One cycle through the component, in import order, from its first file back to it. */
function cycleThrough(
  component: readonly string[],
  graph: ReadonlyMap<string, readonly string[]>,
): string[] {
  const start = component[0] as string;
  const members = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head] as string;
    for (const target of graph.get(file) ?? []) {
      if (target === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!members.has(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      queue.push(target);
    }
  }
  return [start];
}

/** The model whose folders hold the file (a path segment is its name), or null: shared code. */
function modelOf(path: string): string | null {
  const segments = path.split("/").slice(0, -1);
  return MODEL_NAMES.find((name) => segments.includes(name)) ?? null;
}

/** The files that list the models, and the file of each model's entry they import. */
const REGISTRIES = [
  { path: "src/models/registry.ts", entry: (model: string) => `src/models/${model}/model.ts` },
  { path: "bench/models.ts", entry: (model: string) => `bench/${model}/model.ts` },
  { path: "web/page-audits.ts", entry: (model: string) => `web/${model}/page-audit.ts` },
];

/** Whether shared code, or another model's, reaches into a model's folders by this import. */
function reachesIntoModel(importer: string, imported: string): boolean {
  const model = modelOf(imported);
  if (model === null || modelOf(importer) === model) return false;
  return !REGISTRIES.some(
    (registry) => importer === registry.path && imported === registry.entry(model),
  );
}

function modelFolderImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [importer, targets] of graph) {
    for (const imported of targets) {
      if (reachesIntoModel(importer, imported)) found.push(`${importer} → ${imported}`);
    }
  }
  return found.sort();
}

describe("the static import graph", () => {
  it("resolves every relative import to a tracked file", () => {
    // A JSON module (a shipped model file) is data, not code: it must only be there.
    const resolved = (target: string) =>
      GRAPH.has(target) || (target.endsWith(".json") && existsSync(join(ROOT, target)));
    const unresolved = [...GRAPH].flatMap(([importer, targets]) =>
      targets.filter((target) => !resolved(target)).map((target) => `${importer} → ${target}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("has no cycle", () => {
    const cycles = cyclicComponents(GRAPH).map((component) =>
      cycleThrough(component, GRAPH).join(" → "),
    );
    expect(cycles, "import cycles, each from a file back to it").toEqual([]);
  });

  it("has nothing in bindings/ importing from src/cli/", () => {
    const intoCli = [...GRAPH].flatMap(([importer, targets]) =>
      importer.startsWith("bindings/")
        ? targets
            .filter((target) => target.startsWith("src/cli/"))
            .map((target) => `${importer} → ${target}`)
        : [],
    );
    expect(intoCli).toEqual([]);
  });

  it("reaches a model's folders from outside them only through the registry's manifests", () => {
    const found = modelFolderImports(GRAPH);
    if (MODEL_FOLDER_IMPORTS_ALLOWED.length > 0) {
      console.log(
        `Imports into model folders still allowed (${MODEL_FOLDER_IMPORTS_ALLOWED.length}):\n  ${MODEL_FOLDER_IMPORTS_ALLOWED.join("\n  ")}`,
      );
    }
    const allowed = new Set(MODEL_FOLDER_IMPORTS_ALLOWED);
    expect(
      found.filter((entry) => !allowed.has(entry)),
      "imports into a model's folders from shared code or another model (go through the model value)",
    ).toEqual([]);
    expect(
      MODEL_FOLDER_IMPORTS_ALLOWED.filter((entry) => !found.includes(entry)),
      "allowed imports that are gone: remove them from MODEL_FOLDER_IMPORTS_ALLOWED",
    ).toEqual([]);
  });
});
