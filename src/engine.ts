/**
 * The one auditing API every model's engines share (docs/api.md): the reference (plain
 * TypeScript, in the model's folder under src/models/) and the kernel (WebAssembly, bindings/)
 * of a model implement the same interface and give deep-equal reports. Which model and which
 * engine are parameters (src/models/registry.ts), never second code paths.
 */
import { chunkArgument, type JournalBytes } from "./engine-arguments.js";
import { concatBytes } from "./journal/bytes.js";
import type { ResumableFile } from "./journal/resumable-file.js";

export type { JournalBytes } from "./engine-arguments.js";

export type EngineName = "reference" | "wasm";

/** How a journal given without a name is named in reports and errors. */
export const UNNAMED_JOURNAL = "<journal>";

/** The journal a `resume` continues: its bytes from the start, or a `resumableFile`. */
export type ResumeJournal = JournalBytes | ResumableFile;

/** What every engine's auditing calls take; a model adds its own (the dag's `dag`). */
export interface JournalOptions {
  /** Names the journal in reports and errors. */
  readonly file?: string;
}

/** What an auditor is told about its snapshots, for every model and engine. */
export interface SnapshotOptions {
  /** Hash the journal as it streams, so `snapshot()` can be taken (costs a SHA-256 pass). */
  readonly snapshots?: boolean;
  /**
   * With `snapshots`: the journal's reader hashes the complete lines it reads (`readFileHashed`),
   * and snapshots take their digests from it instead of hashing the lines again. Every chunk
   * written must be the reader's, in order.
   */
  readonly digests?: import("./digest/journal-digests.js").JournalDigests;
  /** Names the snapshot in errors about it. */
  readonly snapshotFile?: string;
}

/** A journal as a stream its caller writes to. */
export interface JournalAuditor<Report> {
  /** Audits the lines these bytes complete (the bytes may be reused once this returns). */
  write(chunk: Uint8Array): void;
  /** Ends the journal — an unterminated last line that does not parse is a torn tail — and reports. */
  finish(): Report;
  /** The state over the journal's complete lines so far, to `resume` from once more is appended. */
  snapshot(): Uint8Array;
  /**
   * False when the auditor was resumed and no line has been completed since: the snapshot it
   * resumed from covers what a new one would, and still stands.
   */
  advancedSinceResume(): boolean;
}

/** A model's engine: the same three calls for every model, reference and kernel alike. */
export interface ModelEngine<Report, Options extends JournalOptions = JournalOptions> {
  readonly name: EngineName;
  /** Audits a whole JSONL journal, given at once or as chunks. */
  auditBytes(bytes: JournalBytes, options?: Options): Promise<Report>;
  /** A journal as a stream you write to; with `{ snapshots: true }` it can `snapshot()`. */
  openAuditor(options?: Options & SnapshotOptions): JournalAuditor<Report>;
  /**
   * Continues from a snapshot: the journal's prefix must be the one the snapshot covers (its
   * SHA-256 is checked), and the report equals a full audit's.
   */
  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
    options?: Options & SnapshotOptions,
  ): Promise<JournalAuditor<Report>>;
}

/** The chunks of journal bytes, each checked to be bytes as it comes. */
export async function* chunksOf(bytes: JournalBytes): AsyncGenerator<Uint8Array> {
  if (bytes instanceof Uint8Array) {
    yield bytes;
    return;
  }
  let index = 0;
  for await (const chunk of bytes) yield chunkArgument(chunk, index++);
}

export async function collectBytes(bytes: JournalBytes): Promise<Uint8Array> {
  if (bytes instanceof Uint8Array) return bytes;
  const chunks: Uint8Array[] = [];
  for await (const chunk of chunksOf(bytes)) chunks.push(chunk.slice());
  return concatBytes(chunks);
}
