/**
 * The string literals of the reference's union types, as the TypeScript checker resolves them:
 * a code table must name every member of the union it mirrors, and the union is written in
 * types only, so only the compiler can list it.
 */
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "./static-imports.js";

/**
 * `types` maps a name to a type expression over `imports` (a module's import declarations,
 * relative to the repository's root); the answer maps each name to its string members, sorted.
 */
export function stringUnionMembers(
  imports: string,
  types: Readonly<Record<string, string>>,
): Record<string, string[]> {
  const probePath = join(ROOT, "string-union-probe.ts");
  const aliases = Object.entries(types).map(([name, type]) => `export type ${name} = ${type};`);
  const probe = `${imports}\n${aliases.join("\n")}\n`;
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (path) => path === probePath || ts.sys.fileExists(path);
  host.readFile = (path) => (path === probePath ? probe : readFile(path));
  host.getSourceFile = (path, language) =>
    path === probePath ? ts.createSourceFile(path, probe, language) : getSourceFile(path, language);
  const program = ts.createProgram([probePath], options, host);
  const checker = program.getTypeChecker();
  const probeFile = program.getSourceFile(probePath) as ts.SourceFile;
  const members: Record<string, string[]> = {};
  for (const statement of probeFile.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    const parts = type.isUnion() ? type.types : [type];
    members[statement.name.text] = parts
      .map((part) => (part.isStringLiteral() ? part.value : checker.typeToString(part)))
      .sort();
  }
  return members;
}
