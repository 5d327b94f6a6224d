/**
 * The static import graph of the repository's TypeScript: which tracked file loads which at
 * run time. An edge is an `import … from`, a bare `import "…"` or an `export … from` whose
 * specifier is relative; `import type`, `export type` and declarations whose every named
 * specifier is `type` are erased by the compiler, so they load nothing; a dynamic `import()` is
 * lazy, so it is no static edge.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import ts from "typescript";

export const ROOT = join(import.meta.dirname, "../..");

/** The tracked `.ts` files under those folders, as repository paths (`src/cli/main.ts`). */
export function trackedTypeScript(folders: readonly string[]): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...folders], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return listed
    .split("\0")
    .filter((path) => path.endsWith(".ts"))
    .sort();
}

/** Whether the declaration loads its module when the importer runs. */
function loadsAtRunTime(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return false;
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) return true;
    return clause.elements.length === 0 || clause.elements.some((element) => !element.isTypeOnly);
  }
  const clause = statement.importClause;
  if (clause === undefined) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name !== undefined) return true;
  const bindings = clause.namedBindings;
  if (bindings === undefined || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || bindings.elements.some((element) => !element.isTypeOnly);
}

/**
 * The specifiers a file's source names in its import and export declarations, in the order
 * written: those it loads at run time, or with `types`, the type-only ones too.
 */
export function staticSpecifiers(path: string, source: string, types = false): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
    if (types || loadsAtRunTime(statement)) specifiers.push(specifier.text);
  }
  return specifiers;
}

/**
 * The repository path a relative specifier names from `importer` (the compiled `.js` name is the
 * `.ts` source's); null for a package.
 */
export function resolveSpecifier(importer: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const target = posix.normalize(posix.join(posix.dirname(importer), specifier));
  return target.endsWith(".js") ? `${target.slice(0, -".js".length)}.ts` : target;
}

/**
 * Every file's static edges to other files of the repository, by repository path: those that
 * load at run time, or with `types`, the type-only ones too.
 */
export function staticImportGraph(files: readonly string[], types = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(join(ROOT, file), "utf8");
    const targets = staticSpecifiers(file, source, types)
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}
