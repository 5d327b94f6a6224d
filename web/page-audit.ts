/**
 * How the page audits a journal of one model (web/<model>/page-audit.ts), and what every model's
 * audit in the page shares: the kernel build the page serves, the journal's chunks with progress
 * posted as they go, the journal read again for the view.
 */
import { supportsSimd } from "../bindings/kernel.js";
import type { ModelEngine } from "../src/engine.js";
import { concatBytes } from "../src/journal/bytes.js";
import { article } from "../src/journal/choose-model.js";
import { JournalError } from "../src/journal/errors.js";
import { readAnyJournal } from "../src/journal/index.js";
import { isGzipped } from "../src/journal/read-file-bytes.js";
import type { KernelOptions, Model } from "../src/models/model.js";
import type { ModelName } from "../src/models/registry.js";
import { type AnyReport, type AuditAnswer, journalReports } from "../src/models/report-frame.js";
import type { JournalReadAgain } from "../src/report/model-html.js";
import type { AuditMessage, AuditRequest } from "./protocol.js";
import { verdictOn } from "./verdict.js";

/** A request with a journal to audit. */
export type JournalRequest = AuditRequest & { readonly journal: File };

/** Posts a message to the page. */
export type Post = (message: AuditMessage) => void;

/** A journal audited in the page. */
export interface AuditedInPage<Report> {
  readonly report: Report;
  /** The journal read again for its view (one read whole to be audited is not read twice). */
  readAgain(): Promise<JournalReadAgain<Report>["journal"]>;
}

export interface PageAudit<Report extends AnyReport> {
  /** Audits the journal picked, posting progress; refuses a DAG file picked for a model without. */
  audit(request: JournalRequest, post: Post): Promise<AuditedInPage<AuditAnswer<Report>>>;
  /** The model's kernel as the page serves it: also what a view that replays loads. */
  kernel(): KernelOptions;
  /** A refusal of the model's, with what the page adds to it; null when it adds nothing. */
  explain?(refusal: Refusal): string | null;
}

/** A refusal of a journal: its message in the page's terms, the error's detail, what was asked. */
export interface Refusal {
  readonly message: string;
  readonly detail: string;
  readonly request: JournalRequest;
}

/** At most this many progress messages a second. */
const PROGRESS_INTERVAL_MS = 50;

/** The build the browser runs: the SIMD module where the engine validates one. */
export function kernelBuild(simd: URL, scalar: URL): KernelOptions {
  return supportsSimd() ? { flavour: "simd", wasm: simd } : { flavour: "scalar", wasm: scalar };
}

/**
 * A journal streamed through a model's engine whatever its size, for a model that takes nothing
 * picked beside its journal; it is read again, by `model`'s reader, for the view.
 */
export async function auditStreamed<Answer extends AuditAnswer<AnyReport>>(
  engine: ModelEngine<Answer>,
  { journal, dag }: JournalRequest,
  model: Model,
  post: Post,
): Promise<AuditedInPage<Answer>> {
  if (dag !== null) {
    throw new JournalError(
      dag.name,
      `a DAG file is for dag journals; ${article(model.name)} ${model.name} journal needs none`,
    );
  }
  const report = await engine.auditBytes(withProgress(journal, post), { file: journal.name });
  const events = verdictOn(journalReports(report)).events;
  post({ type: "progress", bytes: journal.size, total: journal.size, events });
  const readAgain = async () =>
    readAnyJournal(journal.name, await journalBytes(journal), { model: model.name as ModelName });
  return { report, readAgain };
}

/** The journal's chunks, posting how far the audit has read (the kernel counts entries at the end). */
async function* withProgress(journal: File, post: Post): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  let posted = 0;
  for await (const chunk of journalChunks(journal, (read) => (bytes = read))) {
    yield chunk;
    const now = performance.now();
    if (progressDue(posted, now)) {
      posted = now;
      post({ type: "progress", bytes, total: journal.size, events: null });
    }
  }
}

/** Whether a progress message is due, `PROGRESS_INTERVAL_MS` after the last (`posted`). */
export function progressDue(posted: number, now: number): boolean {
  return now - posted >= PROGRESS_INTERVAL_MS;
}

/**
 * A journal's content as it streams from the file picked, decompressed as it is read when its
 * name ends in .gz (docs/journals.md, "Compressed journals"), as the command line reads it: never
 * held whole. `onRead` hears how many of the file's own bytes have been read, for progress.
 */
export async function* journalChunks(
  file: File,
  onRead: (bytes: number) => void = () => {},
): AsyncGenerator<Uint8Array> {
  let read = 0;
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
      transform(chunk, out) {
        read += chunk.length;
        onRead(read);
        out.enqueue(chunk);
      },
    }),
  );
  if (!isGzipped(file.name)) {
    yield* chunksOf(counted);
    return;
  }
  try {
    yield* chunksOf(counted.pipeThrough(new DecompressionStream("gzip")));
  } catch (error) {
    throw new JournalError(
      file.name,
      `cannot decompress: it is not gzip data, or is corrupt or cut short (${(error as Error).message})`,
    );
  }
}

/** A journal's content whole (decompressed when its name ends in .gz), to be read again. */
export async function journalBytes(file: File): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of journalChunks(file)) chunks.push(chunk);
  return concatBytes(chunks);
}

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A file picked beside a journal (a DAG file, a model file), whole, as it is. */
export async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}
