/**
 * Engine and model selection, in one place: every command that audits or replays goes through
 * here, and the engine and the model are parameters, not second code paths in the commands. A
 * JSONL journal's header is read first and decides its model (with `--model`, which must agree);
 * the journal then streams, in chunks, to that model's engine. A journal in a format a model
 * reads itself (src/journal/model-command-line.ts) is that model's, read whole by its reader and
 * audited by either engine.
 */
import { statSync } from "node:fs";
import type { EngineName, JournalOptions, ModelEngine } from "../engine.js";
import { chooseModel } from "../journal/choose-model.js";
import { readJsonlHeaderModel } from "../journal/jsonl.js";
import { ownFormatModel, ownFormatOf, refuseForeignFlags } from "../journal/model-inputs.js";
import { type HeaderModelReader, type PeekedJournal, peekModel } from "../journal/peek-model.js";
import { readFileChunks } from "../journal/read-file-bytes.js";
import type { Model } from "../models/model.js";
import {
  DEFAULT_MODEL,
  type ModelAnswer,
  type ModelName,
  type ModelReport,
  modelNamed,
} from "../models/registry.js";
import { type ModelFlagValues, modelEngineOptions } from "./model-flags.js";

export type { EngineName } from "../engine.js";
export const ENGINE_NAMES = ["wasm", "reference"] as const satisfies readonly EngineName[];
export const DEFAULT_ENGINE: EngineName = "wasm";

export interface AuditedJournal {
  readonly file: string;
  readonly report: ModelReport;
}

export interface AuditOptions {
  readonly engine: EngineName;
  /** `--model`: the model the journals must be of; by default each header's, else the default. */
  readonly model?: ModelName | undefined;
  /** The model flags given (`--dag FILE`): a journal takes its own model's, and refuses others'. */
  readonly modelFlags: ModelFlagValues;
  /**
   * Told the bytes read so far after each chunk of a streamed journal, and the events audited
   * (null where the engine cannot tell before it is done), for a progress bar.
   */
  readonly onProgress?: (bytes: number, events: number | null) => void;
}

/** A registered model's engine, over any of the model's options. */
export type AnyModelEngine = ModelEngine<ModelAnswer, JournalOptions>;

/** An engine that can tell how many events it has audited before it is done (the progress bar). */
interface CountsEvents {
  eventsSoFar(): number;
}

function countsEvents(engine: object): engine is CountsEvents {
  return typeof (engine as Partial<CountsEvents>).eventsSoFar === "function";
}

/** A kernel that can read any journal's model off its first line (`headerModel`). */
interface ReadsHeaders {
  headerModel(firstLine: Uint8Array, file: string): ModelName | null;
}

function readsHeaders(engine: object): engine is ReadsHeaders {
  return typeof (engine as Partial<ReadsHeaders>).headerModel === "function";
}

// Each model's kernel is loaded when a journal of its model first comes, once per process: a
// process (or a worker) auditing one model's journals never compiles another's (~100 ms).
const kernels = new Map<string, Promise<AnyModelEngine>>();
/** The kernels loaded so far, once their loading has settled. */
const loadedKernels = new Map<string, AnyModelEngine>();

/** A model's WebAssembly engine, loaded once. */
export function modelKernel(model: Model): Promise<AnyModelEngine> {
  let kernel = kernels.get(model.name);
  if (kernel === undefined) {
    kernel = model.kernel().then((engine) => {
      loadedKernels.set(model.name, engine as AnyModelEngine);
      return engine as AnyModelEngine;
    });
    kernels.set(model.name, kernel);
  }
  return kernel;
}

/** A model's engine of that name: its reference, or its kernel (loaded once). */
export async function modelEngine(model: Model, name: EngineName): Promise<AnyModelEngine> {
  switch (name) {
    case "reference":
      return (await model.reference()) as AnyModelEngine;
    case "wasm":
      return modelKernel(model);
    default: {
      const unreachable: never = name;
      return unreachable;
    }
  }
}

/** First lines this long have their model read by a kernel, loaded for it if need be. */
const KERNEL_PEEK_BYTES_MIN = 64 * 1024;

/**
 * How a journal's model is read off its first line when the wasm engine runs: by the default
 * model's kernel, where it reads headers, once it is loaded or for a big header (a 10⁵-node DAG is
 * megabytes of JSON to parse for one field); the kernel then keeps the line scanned, and a journal
 * of its model builds its state without scanning it again. Otherwise — and always for the
 * reference engine — by the reference reader: loading a kernel for a small header of another
 * model would cost more than parsing it. Both give the same answer.
 */
export function headerModelReader(name: EngineName): HeaderModelReader {
  const headerModel = modelNamed(DEFAULT_MODEL);
  return (firstLine, file) => {
    if (name !== "wasm") return readJsonlHeaderModel(firstLine, file);
    const loaded = loadedKernels.get(headerModel.name);
    if (loaded !== undefined) {
      return readsHeaders(loaded)
        ? loaded.headerModel(firstLine, file)
        : readJsonlHeaderModel(firstLine, file);
    }
    if (firstLine.length < KERNEL_PEEK_BYTES_MIN) return readJsonlHeaderModel(firstLine, file);
    return modelKernel(headerModel).then((kernel) =>
      readsHeaders(kernel)
        ? kernel.headerModel(firstLine, file)
        : readJsonlHeaderModel(firstLine, file),
    );
  };
}

/**
 * An audited file or stream — its report, or a report per journal when its model splits it
 * (docs/models/data.md, "A stream of journals") — and how many bytes of it were read.
 */
export interface AuditRun {
  readonly file: string;
  readonly report: ModelAnswer;
  readonly bytesRead: number;
}

/** `listedBytes`: the regular file's size when it was listed (null when unknown). */
export async function auditJournalFile(
  path: string,
  options: AuditOptions,
  listedBytes: number | null = null,
): Promise<AuditRun> {
  const own = ownFormatOf(path);
  if (own === null) return auditJsonlStream(path, readFileChunks(path, listedBytes), options);
  const { model, format } = own;
  ownFormatModel(path, own, options.model, "--model");
  refuseForeignFlags(path, model, options.modelFlags);
  const engine = await modelEngine(model, options.engine);
  const { file, report } = await format.audit(path, engine, options.modelFlags);
  const bytesRead = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  return { file, report: report as ModelAnswer, bytesRead };
}

/**
 * The model a journal's header names, read off its first line — unless the model given reads
 * JSON documents, whose lines are never a header (and a minified one is a single line of any
 * size, which must stream to its engine, not be held to be peeked at).
 */
export function peekJournalModel(
  chunks: AsyncIterable<Uint8Array>,
  file: string,
  engine: EngineName,
  given: ModelName | undefined,
): Promise<PeekedJournal> {
  if (given !== undefined && modelNamed(given).commandLine.readsDocuments === true)
    return Promise.resolve({ model: null, chunks });
  return peekModel(chunks, file, headerModelReader(engine));
}

/** A JSONL journal from a stream of chunks (a file, the standard input), named `file` in reports. */
export async function auditJsonlStream(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
): Promise<AuditRun> {
  const peeked = await peekJournalModel(chunks, file, options.engine, options.model);
  const model: Model = modelNamed(chooseModel(file, peeked.model, options.model));
  const engineOptions = await modelEngineOptions(file, model, options.modelFlags);
  const engine = await modelEngine(model, options.engine);
  const eventsSoFar = countsEvents(engine) ? () => engine.eventsSoFar() : () => null;
  let bytesRead = 0;
  const counted = countingBytes(peeked.chunks, (bytes) => {
    bytesRead = bytes;
    options.onProgress?.(bytes, eventsSoFar());
  });
  const report = await engine.auditBytes(counted, { ...engineOptions, file });
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
