/**
 * Engine selection, in one place: every command that audits goes through `auditJournalFile`,
 * and an engine is a parameter of it, not a second code path in the commands.
 */

import { type EngineName, referenceEngine } from "../engine.js";
import { type ReadJournalOptions, readJournalFile } from "../journal/index.js";
import type { Report } from "../model/report.js";
import { UsageError } from "./command.js";

export type { EngineName } from "../engine.js";
export const ENGINE_NAMES = ["reference", "wasm"] as const satisfies readonly EngineName[];
export const DEFAULT_ENGINE: EngineName = "reference";

export interface AuditedJournal {
  readonly file: string;
  readonly report: Report;
}

export interface AuditOptions extends ReadJournalOptions {
  readonly engine: EngineName;
}

export function auditJournalFile(path: string, options: AuditOptions): AuditedJournal {
  switch (options.engine) {
    case "reference":
      return auditWithReference(path, options);
    case "wasm":
      throw new UsageError("the wasm engine is not built yet; use --engine reference", "audit");
    default: {
      const unreachable: never = options.engine;
      return unreachable;
    }
  }
}

function auditWithReference(path: string, options: ReadJournalOptions): AuditedJournal {
  const { file, dag, events, lines, tornTail } = readJournalFile(path, options);
  return { file, report: referenceEngine.audit(dag, events, { lines, tornTail }) };
}
