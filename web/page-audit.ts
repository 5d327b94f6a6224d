/**
 * How the page audits a journal of one model (web/<model>/page-audit.ts), and what every model's
 * audit in the page shares: the kernel build the page serves, the journal's chunks with progress
 * posted as they go, the journal read again for the view.
 */
import { supportsSimd } from "../bindings/kernel.js";
import type { ModelEngine } from "../src/engine.js";
import { JournalError } from "../src/journal/errors.js";
import { readJsonlJournal } from "../src/journal/jsonl.js";
import type { KernelOptions } from "../src/models/model.js";
import type { ProgramModelName } from "../src/models/registry.js";
import type { AnyReport } from "../src/models/report-frame.js";
import type { JournalReadAgain } from "../src/report/model-html.js";
import type { AuditMessage, AuditRequest } from "./protocol.js";

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
  audit(request: AuditRequest, post: Post): Promise<AuditedInPage<Report>>;
  /** The model's kernel as the page serves it: also what a view that replays loads. */
  kernel(): KernelOptions;
  /** A refusal of the model's, with what the page adds to it; null when it adds nothing. */
  explain?(refusal: Refusal): string | null;
}

/** A refusal of a journal: its message in the page's terms, the error's detail, what was asked. */
export interface Refusal {
  readonly message: string;
  readonly detail: string;
  readonly request: AuditRequest;
}

/** At most this many progress messages a second. */
const PROGRESS_INTERVAL_MS = 50;

/** The build the browser runs: the SIMD module where the engine validates one. */
export function kernelBuild(simd: URL, scalar: URL): KernelOptions {
  return supportsSimd() ? { flavour: "simd", wasm: simd } : { flavour: "scalar", wasm: scalar };
}

/**
 * A JSONL journal streamed through a model's engine whatever its size, for a model that takes
 * nothing picked beside its journal; its entries are read again, as `model`'s, for the view.
 */
export async function auditStreamed<Report extends AnyReport>(
  engine: ModelEngine<Report>,
  { journal, dag }: AuditRequest,
  model: ProgramModelName,
  post: Post,
): Promise<AuditedInPage<Report>> {
  if (dag !== null) {
    throw new JournalError(
      dag.name,
      `a DAG file is for dag journals; an ${model} journal needs none`,
    );
  }
  const report = await engine.auditBytes(withProgress(journal, post), { file: journal.name });
  post({ type: "progress", bytes: journal.size, total: journal.size, events: report.events });
  return {
    report,
    readAgain: async () => {
      const read = readJsonlJournal(await bytesOf(journal), journal.name, model);
      return { ...read, fields: read.header?.fields ?? null };
    },
  };
}

/** The journal's chunks, posting how far the audit has read (the kernel counts entries at the end). */
async function* withProgress(journal: File, post: Post): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  let posted = 0;
  for await (const chunk of chunksOf(journal)) {
    yield chunk;
    bytes += chunk.length;
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

export async function* chunksOf(file: File): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
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

export async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}
