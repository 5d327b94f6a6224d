/**
 * Engine selection, in one place: every command that audits or replays goes through here, and
 * the engine is a parameter, not a second code path in the commands. The WASM engine streams a
 * JSONL journal from disk in chunks; a .lisp-expr journal is read by its TypeScript reader and
 * its events are audited by either engine.
 */
import { statSync } from "node:fs";
import { loadEngine, type WasmEngine } from "../../bindings/index.js";
import { type Engine, type EngineName, referenceEngine } from "../engine.js";
import {
  isLispExprJournal,
  type ReadJournalOptions,
  readDagFile,
  readJournalFile,
} from "../journal/index.js";
import { readFileChunks } from "../journal/read-file-bytes.js";
import type { Report } from "../models/dag/report.js";

export type { EngineName } from "../engine.js";
export const ENGINE_NAMES = ["wasm", "reference"] as const satisfies readonly EngineName[];
export const DEFAULT_ENGINE: EngineName = "wasm";

export interface AuditedJournal {
  readonly file: string;
  readonly report: Report;
}

export interface AuditOptions extends ReadJournalOptions {
  readonly engine: EngineName;
  /**
   * Told the bytes read so far after each chunk of a streamed journal, and the events audited
   * (null where the engine cannot tell before it is done), for a progress bar.
   */
  readonly onProgress?: (bytes: number, events: number | null) => void;
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

/** An audited journal and how many bytes of it were read (for a throughput). */
export interface AuditRun extends AuditedJournal {
  readonly bytesRead: number;
}

export async function auditJournalFile(path: string, options: AuditOptions): Promise<AuditRun> {
  const engine = await engineNamed(options.engine);
  if (engine.name === "reference" || isLispExprJournal(path)) {
    const { file, dag, events, lines, tornTail } = readJournalFile(path, options);
    const report = engine.audit(dag, events, { lines, tornTail });
    return { file, report, bytesRead: statSync(path, { throwIfNoEntry: false })?.size ?? 0 };
  }
  return auditJsonlStream(path, readFileChunks(path), options);
}

/** A JSONL journal from a stream of chunks (the standard input), named `file` in reports. */
export async function auditJsonlStream(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
): Promise<AuditRun> {
  const engine = await engineNamed(options.engine);
  const { dagPath, onProgress } = options;
  const dag = dagPath === undefined ? null : readDagFile(dagPath);
  const eventsSoFar =
    engine.name === "wasm" ? () => (engine as WasmEngine).eventsSoFar() : () => null;
  let bytesRead = 0;
  const counted = countingBytes(chunks, (bytes) => {
    bytesRead = bytes;
    onProgress?.(bytes, eventsSoFar());
  });
  const report = await engine.auditBytes(dag, counted, { file, dagName: dagPath });
  return { file, report, bytesRead };
}

async function* countingBytes(
  chunks: AsyncIterable<Uint8Array>,
  onBytesRead: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    yield chunk;
    onBytesRead(bytes);
  }
}
