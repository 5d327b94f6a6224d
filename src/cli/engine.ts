/**
 * Engine selection, in one place: every command that audits or replays goes through here, and
 * the engine is a parameter, not a second code path in the commands. The WASM engine streams a
 * JSONL journal from disk in chunks; a .lisp-expr journal is read by its TypeScript reader and
 * its events are audited by either engine.
 */
import { loadEngine, type WasmEngine } from "../../bindings/index.js";
import { type Engine, type EngineName, referenceEngine } from "../engine.js";
import { parseDagFile } from "../journal/dag-file.js";
import { isLispExprJournal, type ReadJournalOptions, readJournalFile } from "../journal/index.js";
import { readFileBytes, readFileChunks } from "../journal/read-file-bytes.js";
import type { Report } from "../model/report.js";

export type { EngineName } from "../engine.js";
export const ENGINE_NAMES = ["wasm", "reference"] as const satisfies readonly EngineName[];
export const DEFAULT_ENGINE: EngineName = "wasm";

export interface AuditedJournal {
  readonly file: string;
  readonly report: Report;
}

export interface AuditOptions extends ReadJournalOptions {
  readonly engine: EngineName;
}

let wasmEngine: Promise<WasmEngine> | undefined;

export async function engineNamed(name: EngineName): Promise<Engine> {
  switch (name) {
    case "reference":
      return referenceEngine;
    case "wasm":
      wasmEngine ??= loadEngine();
      return wasmEngine;
    default: {
      const unreachable: never = name;
      return unreachable;
    }
  }
}

export async function auditJournalFile(
  path: string,
  options: AuditOptions,
): Promise<AuditedJournal> {
  const engine = await engineNamed(options.engine);
  if (engine.name === "reference" || isLispExprJournal(path)) {
    const { file, dag, events, lines, tornTail } = readJournalFile(path, options);
    return { file, report: engine.audit(dag, events, { lines, tornTail }) };
  }
  const { dagPath } = options;
  const dag = dagPath === undefined ? null : parseDagFile(readFileBytes(dagPath), dagPath);
  const report = await engine.auditBytes(dag, readFileChunks(path), {
    file: path,
    dagName: dagPath,
  });
  return { file: path, report };
}
