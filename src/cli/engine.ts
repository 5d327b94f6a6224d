/**
 * Engine and model selection, in one place: every command that audits or replays goes through
 * here, and the engine and the model are parameters, not second code paths in the commands. A
 * JSONL journal's header is read first and decides its model (with `--model`, which must agree);
 * the journal then streams, in chunks, to that model's engine. A .lisp-expr journal is a `dag`
 * journal, read by its TypeScript reader and audited by either engine.
 */
import { statSync } from "node:fs";
import type { WasmExecutiveEngine } from "../../bindings/executive/index.js";
import { loadEngine, type WasmEngine } from "../../bindings/index.js";
import type { WasmOperationsEngine } from "../../bindings/operations/index.js";
import type { EngineName } from "../engine.js";
import { chooseModel } from "../journal/choose-model.js";
import { JournalError } from "../journal/errors.js";
import {
  isLispExprJournal,
  type ReadJournalOptions,
  readDagFile,
  readJournalFile,
} from "../journal/index.js";
import { readJsonlHeaderModel } from "../journal/jsonl.js";
import { type HeaderModelReader, peekModel } from "../journal/peek-model.js";
import { readFileChunks } from "../journal/read-file-bytes.js";
import { type Engine, referenceEngine } from "../models/dag/engine.js";
import type { ExecutiveEngine } from "../models/executive/engine.js";
import type { OperationsEngine } from "../models/operations/engine.js";
import type { ModelName, ModelReport } from "../models/registry.js";

export type { EngineName } from "../engine.js";
export const ENGINE_NAMES = ["wasm", "reference"] as const satisfies readonly EngineName[];
export const DEFAULT_ENGINE: EngineName = "wasm";

export interface AuditedJournal {
  readonly file: string;
  readonly report: ModelReport;
}

export interface AuditOptions extends ReadJournalOptions {
  readonly engine: EngineName;
  /** `--model`: the model the journals must be of; by default each header's, else dag. */
  readonly model?: ModelName | undefined;
  /**
   * Told the bytes read so far after each chunk of a streamed journal, and the events audited
   * (null where the engine cannot tell before it is done), for a progress bar.
   */
  readonly onProgress?: (bytes: number, events: number | null) => void;
}

let wasmEngine: Promise<WasmEngine> | undefined;
/** The wasm engine once `wasmEngine` has settled on it. */
let loadedWasmEngine: WasmEngine | null = null;

/** First lines this long have their model read by the dag kernel, loaded for it if need be. */
const KERNEL_PEEK_BYTES_MIN = 64 * 1024;

/**
 * How a journal's model is read off its first line when the wasm engine runs: by the dag kernel
 * once it is loaded, or for a big header (a 10⁵-node DAG is megabytes of JSON to parse for one
 * field); the kernel then keeps the line scanned, and a dag journal's session builds its DAG
 * without scanning it again. Otherwise — and always for the reference engine — by the reference
 * reader: loading the dag kernel for a small header of another model would cost more than
 * parsing it. Both give the same answer.
 */
export function headerModelReader(name: EngineName): HeaderModelReader {
  return (firstLine, file) => {
    if (name !== "wasm") return readJsonlHeaderModel(firstLine, file);
    if (loadedWasmEngine !== null) return loadedWasmEngine.headerModel(firstLine, file);
    if (firstLine.length < KERNEL_PEEK_BYTES_MIN) return readJsonlHeaderModel(firstLine, file);
    return engineNamed("wasm").then((engine) =>
      (engine as WasmEngine).headerModel(firstLine, file),
    );
  };
}

export async function engineNamed(name: EngineName): Promise<Engine> {
  switch (name) {
    case "reference":
      return referenceEngine;
    case "wasm":
      wasmEngine ??= loadEngine().then((engine) => {
        loadedWasmEngine = engine;
        return engine;
      });
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

/** `listedBytes`: the regular file's size when it was listed (null when unknown). */
export async function auditJournalFile(
  path: string,
  options: AuditOptions,
  listedBytes: number | null = null,
): Promise<AuditRun> {
  if (isLispExprJournal(path)) {
    chooseModel(path, "dag", options.model, "--model; a .lisp-expr journal is a dag journal");
    const engine = await engineNamed(options.engine);
    const { file, dag, events, lines, tornTail } = readJournalFile(path, options);
    const report = engine.audit(dag, events, { lines, tornTail });
    return { file, report, bytesRead: statSync(path, { throwIfNoEntry: false })?.size ?? 0 };
  }
  return auditJsonlStream(path, readFileChunks(path, listedBytes), options);
}

/** A JSONL journal from a stream of chunks (a file, the standard input), named `file` in reports. */
export async function auditJsonlStream(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
): Promise<AuditRun> {
  const peeked = await peekModel(chunks, file, headerModelReader(options.engine));
  const model = chooseModel(file, peeked.model, options.model);
  switch (model) {
    case "dag":
      return auditDagStream(file, peeked.chunks, options);
    case "operations":
      return auditOperationsStream(file, peeked.chunks, options);
    case "executive":
      return auditExecutiveStream(file, peeked.chunks, options);
    default: {
      const unreachable: never = model;
      return unreachable;
    }
  }
}

async function auditDagStream(
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

async function auditOperationsStream(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
): Promise<AuditRun> {
  if (options.dagPath !== undefined) {
    throw new JournalError(file, "--dag is for dag journals; an operations journal needs none");
  }
  const engine = await operationsEngineNamed(options.engine);
  return auditCounted(file, chunks, options, (counted) => engine.auditBytes(counted, { file }));
}

/** Audits the chunks with `audit`, telling progress by bytes (such an engine counts events at the end). */
async function auditCounted(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
  audit: (counted: AsyncIterable<Uint8Array>) => Promise<ModelReport>,
): Promise<AuditRun> {
  let bytesRead = 0;
  const counted = countingBytes(chunks, (bytes) => {
    bytesRead = bytes;
    options.onProgress?.(bytes, null);
  });
  const report = await audit(counted);
  return { file, report, bytesRead };
}

async function auditExecutiveStream(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
): Promise<AuditRun> {
  if (options.dagPath !== undefined) {
    throw new JournalError(file, "--dag is for dag journals; an executive journal needs none");
  }
  const engine = await executiveEngineNamed(options.engine);
  return auditCounted(file, chunks, options, (counted) => engine.auditBytes(counted, { file }));
}

// The operations and executive engines are imported when a journal of theirs comes: a process
// (or a worker) auditing dag journals then never compiles them (~100 ms of its start).
let wasmExecutiveEngine: Promise<WasmExecutiveEngine> | undefined;

export async function executiveEngineNamed(name: EngineName): Promise<ExecutiveEngine> {
  if (name === "reference")
    return (await import("../models/executive/engine.js")).referenceExecutiveEngine;
  return executiveKernel();
}

/** The executive model's WebAssembly engine, loaded once. */
export function executiveKernel(): Promise<WasmExecutiveEngine> {
  wasmExecutiveEngine ??= import("../../bindings/executive/index.js").then((module) =>
    module.loadExecutiveEngine(),
  );
  return wasmExecutiveEngine;
}

let wasmOperationsEngine: Promise<WasmOperationsEngine> | undefined;

async function operationsEngineNamed(name: EngineName): Promise<OperationsEngine> {
  if (name === "reference") {
    return (await import("../models/operations/engine.js")).referenceOperationsEngine;
  }
  return operationsKernel();
}

/** The operations model's WebAssembly engine, loaded once. */
export function operationsKernel(): Promise<WasmOperationsEngine> {
  wasmOperationsEngine ??= import("../../bindings/operations/index.js").then((module) =>
    module.loadOperationsEngine(),
  );
  return wasmOperationsEngine;
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
