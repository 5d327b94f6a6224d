/**
 * The kernel's code tables read from its AssemblyScript source as text: a table is a namespace of
 * integer constants (`export namespace Status { export const QUEUED: u8 = 0; … }`), which the
 * bindings and the reference mirror by position.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./static-imports.js";

/** A namespace's members whose value is an integer literal, in the order written. */
export function kernelNamespace(file: string, namespace: string): Map<string, number> {
  const source = readFileSync(join(ROOT, file), "utf8");
  const block = new RegExp(`^(?:export )?namespace ${namespace} \\{\\n([\\s\\S]*?)^\\}`, "m").exec(
    source,
  );
  if (block === null) throw new Error(`${file}: no namespace ${namespace}`);
  const members = new Map<string, number>();
  const member = /^\s*export const (\w+): \w+ = (-?\d+);/gm;
  for (const [, name, value] of (block[1] as string).matchAll(member)) {
    members.set(name as string, Number(value));
  }
  return members;
}

/** The text of a repository file from the line holding `from` up to the line holding `to`. */
export function sourceBetween(file: string, from: string, to: string): string {
  const source = readFileSync(join(ROOT, file), "utf8");
  const start = source.indexOf(from);
  if (start < 0) throw new Error(`${file}: no "${from}"`);
  const end = source.indexOf(to, start + from.length);
  if (end < 0) throw new Error(`${file}: no "${to}" after "${from}"`);
  return source.slice(source.lastIndexOf("\n", start) + 1, end);
}

/**
 * A top-level integer constant of a source file (`const NAME: usize = 9 * 8;`, `const NAME =
 * 16;`), its expression evaluated: integers, + * << and parentheses, AssemblyScript casts aside.
 */
export function sourceConstant(file: string, name: string): number {
  const source = readFileSync(join(ROOT, file), "utf8");
  const declaration = new RegExp(`^(?:export )?const ${name}(?:: \\w+)? = ([^;]+);`, "m").exec(
    source,
  );
  if (declaration === null) throw new Error(`${file}: no constant ${name}`);
  const expression = (declaration[1] as string).replace(/<\w+>/g, "");
  if (!/^[\d\s+*()<]+$/.test(expression)) {
    throw new Error(`${file}: ${name} is not plain arithmetic: ${expression}`);
  }
  return Function(`"use strict"; return (${expression});`)() as number;
}
