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
