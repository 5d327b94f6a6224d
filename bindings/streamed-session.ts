/**
 * A journal streamed through a model's kernel, chunk by chunk: what every model's WebAssembly
 * auditor shares. Bytes are held back until line 1 is complete, so the model can tell its header
 * (and what it audits against) before the kernel starts; then every chunk is copied into the
 * kernel's line buffer as room allows. With snapshots on, the session also
 * hashes the journal's complete lines — the prefix a snapshot covers — and can take a snapshot
 * of the kernel's state, or continue from one. A model's session says how it starts, what its
 * snapshot body holds and how it is restored, and how its report is read.
 */
import { sha256 } from "../src/digest/sha256.js";
import { chunksOf, type ResumeJournal, UNNAMED_JOURNAL } from "../src/engine.js";
import {
  AUDIT_OPTIONS,
  AUDITOR_OPTIONS,
  auditBytesArguments,
  checkWrittenChunk,
  optionsArgument,
  resumeJournalArgument,
  snapshotArgument,
} from "../src/engine-arguments.js";
import { JournalError } from "../src/journal/errors.js";
import { FirstLineHold } from "../src/journal/first-line.js";
import {
  type PrefixDigest,
  prefixDigest,
  resumeAfterPrefix,
  type SnapshotOptions,
} from "../src/prefix-hash.js";
import {
  decodeSnapshot,
  encodeSnapshot,
  type SnapshotBody,
  type SnapshotPrefix,
  snapshotOfModel,
} from "../src/snapshot-format.js";
import type { KernelFlavour } from "./kernel.js";

/** What a model's kernel exports for a streamed JSONL journal (assembly/jsonl.ts and its audit). */
export interface StreamingKernel {
  readonly memory: WebAssembly.Memory;
  writePointer(): number;
  writeCapacity(): number;
  consume(length: number): number;
  finishJsonl(): number;
  reportPointer(): number;
  prefixBytes(): number;
  prefixLineNumber(): number;
  isHeaderPending(): number;
  resumeJsonlAt(offset: number, line: number, header: number): void;
  readonly LINE_BYTES_MAX: WebAssembly.Global;
  /** Where the report block says on which line a limit was met; absent when it does not (the dag's). */
  readonly REPORT_LIMIT_LINE?: WebAssembly.Global;
}

/** The kernel, and which journal holds it: a session started since makes older ones stale. */
export interface SessionOwner<K extends StreamingKernel> {
  readonly kernel: K;
  generation: number;
}

export interface StreamedSessionOptions extends SnapshotOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

/** A journal as a stream its caller writes to. */
export interface StreamedAuditor<Report> {
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

/** What the kernel's limit codes are (assembly/jsonl.ts, Limit). */
const LIMIT_NONE = 0;
const LIMIT_LINE_LENGTH = 2;

/** A kernel's limit code (not none) as an error naming the journal, and its line where the kernel says. */
export function limitError(
  kernel: StreamingKernel,
  file: string,
  limit: number,
  memoryMessage: string,
): JournalError {
  let line = 0;
  if (kernel.REPORT_LIMIT_LINE !== undefined) {
    const at = kernel.reportPointer() + (kernel.REPORT_LIMIT_LINE.value as number);
    line = new DataView(kernel.memory.buffer).getFloat64(at, true);
  }
  const lineBytesMax = (kernel.LINE_BYTES_MAX.value as number) / 2 ** 20;
  return new JournalError(
    file,
    limit === LIMIT_LINE_LENGTH
      ? `expected lines of at most ${lineBytesMax} MiB, found a longer one`
      : memoryMessage,
    line > 0 ? line : undefined,
  );
}

/** A body's fields that are the model's own. */
type ModelFields<Body extends SnapshotBody> = Omit<Body, keyof SnapshotPrefix | "model">;

/**
 * A model's streamed session. `Leading` names the model's body fields the format puts before
 * `started` (the dag's DAG), which `leadingFields` gives; `stateFields` gives the others.
 */
export abstract class StreamedSession<
  K extends StreamingKernel,
  Report,
  Body extends SnapshotBody,
  Leading extends keyof ModelFields<Body> = never,
> {
  protected readonly kernel: K;
  protected readonly file: string;
  private readonly generation: number;
  /** The first chunks, until line 1 is complete; null once the kernel has started. */
  private held: FirstLineHold | null = new FirstLineHold();
  private prefix: PrefixDigest | null;
  /** The bytes the snapshot this session resumed from covers; null when it did not resume. */
  private resumedAt: number | null = null;

  constructor(
    private readonly owner: SessionOwner<K>,
    options: StreamedSessionOptions,
  ) {
    this.kernel = owner.kernel;
    this.file = options.file ?? UNNAMED_JOURNAL;
    this.generation = ++owner.generation;
    this.prefix = options.snapshots ? prefixDigest(options.digests) : null;
  }

  /** The model the session audits, as its snapshot bodies name it. */
  protected abstract readonly model: Body["model"];
  /**
   * Line 1 (`complete` when with its line feed; all the input, when it ended first): tell the
   * header, begin the kernel's journal. Answers how many of line 1's bytes the kernel took as
   * read without being fed them (a header it read itself), 0 when it is to be fed all.
   */
  protected abstract begin(firstLine: Uint8Array, complete: boolean): number;
  /** The kernel's state over the complete lines, as the body's model-specific fields. */
  protected abstract stateFields(): Omit<ModelFields<Body>, Leading>;
  /** The model-specific fields of a body taken before the kernel started. */
  protected abstract emptyStateFields(): Omit<ModelFields<Body>, Leading>;
  /** The body's `Leading` fields, in a snapshot taken after the kernel started or before. */
  protected leadingFields?(started: boolean): Pick<Body, Leading>;
  /**
   * Takes from a snapshot, before the journal is read, what the model needs beyond the kernel's
   * state; answers a hold to fill with the journal's first line when restoring needs that line.
   */
  protected resumeWith?(body: Body, snapshotFile: string): FirstLineHold | null;
  /**
   * Begins the kernel's journal from a snapshot's state (the prefix already checked); `firstLine`
   * is the hold `resumeWith` answered, filled.
   */
  protected abstract restoreState(
    body: Body,
    snapshotFile: string,
    firstLine: FirstLineHold | null,
  ): void;
  protected abstract readReport(): Report;
  /** What a journal that outgrows the module's memory is told. */
  protected abstract readonly memoryMessage: string;

  /** Audits the lines these bytes complete (the bytes may be reused once this returns). */
  write(chunk: Uint8Array): void {
    this.assertCurrent();
    checkWrittenChunk(chunk);
    if (this.held === null) this.feed(chunk);
    else if (this.held.hold(chunk)) this.start(this.held);
  }

  /** Ends the journal — an unterminated last line that does not parse is a torn tail — and reports. */
  finish(): Report {
    this.assertCurrent();
    if (this.held !== null) this.start(this.held);
    this.check(this.kernel.finishJsonl());
    this.owner.generation += 1; // the report is read; the kernel is free for the next journal
    return this.readReport();
  }

  /** The state over the journal's complete lines so far, to resume from once more is appended. */
  snapshot(): Uint8Array {
    this.assertCurrent();
    if (this.prefix === null)
      throw new Error("statefold: open the auditor with { snapshots: true } to take snapshots");
    if (this.held !== null) {
      return encodeSnapshot({
        model: this.model,
        ...this.leadingFields?.(false),
        started: false,
        headerPending: false,
        prefix: { bytes: 0, nextLine: 1, sha256: sha256().hex() },
        ...this.emptyStateFields(),
      } as Body);
    }
    // The state first: the hashing thread finishes the prefix meanwhile, and its digest is
    // waited for last.
    const state = this.stateFields();
    return encodeSnapshot({
      model: this.model,
      ...this.leadingFields?.(true),
      started: true,
      headerPending: this.kernel.isHeaderPending() !== 0,
      prefix: {
        bytes: this.kernel.prefixBytes(),
        nextLine: this.kernel.prefixLineNumber(),
        sha256: this.prefix.hex(this.kernel.prefixBytes()),
      },
      ...state,
    } as Body);
  }

  advancedSinceResume(): boolean {
    const covered = this.held === null ? this.kernel.prefixBytes() : 0;
    return this.resumedAt === null || covered > this.resumedAt;
  }

  /**
   * Continues a journal from a snapshot: the journal's first `prefix.bytes` must hash as the
   * snapshot says; only the bytes after them are audited.
   */
  async resumeFrom(
    snapshot: Uint8Array,
    journal: ResumeJournal,
    options: StreamedSessionOptions,
  ): Promise<this> {
    const snapshotFile = options.snapshotFile ?? this.file;
    const body = snapshotOfModel(
      decodeSnapshot(snapshot, snapshotFile),
      this.model,
      snapshotFile,
    ) as unknown as Body; // the body of this session's model
    const firstLine = this.resumeWith?.(body, snapshotFile) ?? null;
    await resumeAfterPrefix({
      journal,
      covered: body.prefix,
      file: this.file,
      firstLine,
      digest: this.prefix,
      restore: (digest) => this.restore(body, digest, snapshotFile, firstLine),
      write: (chunk) => this.write(chunk),
    });
    return this;
  }

  private restore(
    body: Body,
    digest: PrefixDigest | null,
    snapshotFile: string,
    firstLine: FirstLineHold | null,
  ): void {
    this.prefix = digest;
    this.resumedAt = body.prefix.bytes;
    if (!body.started) return; // nothing was audited yet: audit from the start
    this.held = null;
    this.restoreState(body, snapshotFile, firstLine);
    this.kernel.resumeJsonlAt(body.prefix.bytes, body.prefix.nextLine, body.headerPending ? 1 : 0);
  }

  /** Begins the kernel with line 1, then feeds what was held but the bytes it took as read. */
  private start(held: FirstLineHold): void {
    const firstLine = held.firstLine();
    let skip = this.begin(firstLine, held.complete);
    this.held = null;
    if (skip === 0) {
      for (const chunk of held.chunks) this.feed(chunk);
      return;
    }
    this.prefix?.advance(firstLine, skip);
    for (const chunk of held.chunks) {
      if (skip < chunk.length) this.feed(chunk.subarray(skip));
      skip = Math.max(0, skip - chunk.length);
    }
  }

  private assertCurrent(): void {
    if (this.owner.generation !== this.generation) {
      throw new Error(
        "statefold: this auditor is finished, or its engine has started another journal since",
      );
    }
  }

  private feed(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const length = Math.min(this.kernel.writeCapacity(), bytes.length - at);
      new Uint8Array(this.kernel.memory.buffer, this.kernel.writePointer(), length).set(
        bytes.subarray(at, at + length),
      );
      at += length;
      this.check(this.kernel.consume(length));
    }
    this.prefix?.advance(bytes, this.kernel.prefixBytes());
  }

  /** Turns a kernel's limit code into an error naming the journal and its line. */
  protected check(limit: number): void {
    if (limit !== LIMIT_NONE) throw limitError(this.kernel, this.file, limit, this.memoryMessage);
  }
}

/**
 * A model's kernel engine over its streamed sessions: the three auditing calls every model's
 * engine takes (src/engine.ts), their arguments checked; a model gives how a session is opened.
 */
export abstract class StreamedKernelEngine<K extends StreamingKernel, Report> {
  readonly name = "wasm";

  constructor(
    protected readonly kernel: K,
    readonly flavour: KernelFlavour,
  ) {}

  /** A new session of the model's, on this engine's kernel. */
  protected abstract session(
    options: StreamedSessionOptions,
  ): StreamedSession<K, Report, SnapshotBody, never>;

  async auditBytes(given: unknown, givenOptions?: unknown): Promise<Report> {
    const { bytes, options } = auditBytesArguments<StreamedSessionOptions>(
      given,
      givenOptions,
      AUDIT_OPTIONS,
    );
    const session = this.session(options);
    for await (const chunk of chunksOf(bytes)) session.write(chunk);
    return session.finish();
  }

  openAuditor(options?: unknown): StreamedAuditor<Report> {
    const call = "openAuditor(options)";
    return this.session(optionsArgument<StreamedSessionOptions>(call, options, AUDITOR_OPTIONS));
  }

  async resume(
    snapshot: unknown,
    journal: unknown,
    options?: unknown,
  ): Promise<StreamedAuditor<Report>> {
    const call = "resume(snapshot, journal, options)";
    const checkedSnapshot = snapshotArgument(call, snapshot);
    const checkedJournal = resumeJournalArgument(call, journal);
    const checked = optionsArgument<StreamedSessionOptions>(call, options, AUDITOR_OPTIONS);
    return this.session(checked).resumeFrom(checkedSnapshot, checkedJournal, checked);
  }

  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number {
    return this.kernel.memory.buffer.byteLength;
  }
}
