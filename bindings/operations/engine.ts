/**
 * The `operations` model's WebAssembly engine (docs/models/operations.md): a JSONL journal
 * streamed through the kernel in chunks of any size, giving the report the reference's
 * `audit(records, { lines, tornTail })` gives for the same bytes; and, for the boot gate's
 * incremental audits, auditors that snapshot their state and resume from it.
 *
 * Bytes are held back until the first non-blank line is complete, so the header can be told
 * before the kernel starts; then every chunk is copied into the kernel's line buffer as room
 * allows. With snapshots on, the session also hashes the journal's complete lines, the prefix a
 * snapshot covers.
 */

import { type Sha256, sha256 } from "../../src/digest/sha256.js";
import { chunksOf, type JournalBytes, UNNAMED_JOURNAL } from "../../src/engine.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { JournalError } from "../../src/journal/errors.js";
import { FirstLineHold } from "../../src/journal/first-line.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import type { OperationsReport } from "../../src/models/operations/index.js";
import type { OperationsEngine } from "../../src/operations-engine.js";
import { type KernelFlavour, type KernelSource, supportsSimd } from "../kernel.js";
import { PrefixHash, resumeAfterPrefix } from "../prefix-hash.js";
import {
  decodeSnapshot,
  encodeSnapshot,
  fromBase64,
  type OperationsSnapshotBody,
  snapshotOfModel,
  toBase64,
} from "../snapshot-format.js";
import { Limit } from "./codes.js";
import { instantiateOperationsKernel, type OperationsKernelExports } from "./kernel.js";
import { readOperationsReport } from "./read-report.js";

export interface LoadOperationsEngineOptions {
  /** The SIMD build where the engine supports it (the default), or the scalar build. */
  readonly flavour?: KernelFlavour;
  /** The module itself, instead of the built file of that flavour. */
  readonly wasm?: KernelSource;
  /**
   * The most memory the kernel may grow to, in bytes (rounded down to 64 KiB pages); the module's
   * own maximum, 4 GiB, by default. A journal that needs more is a reported limit.
   */
  readonly memoryLimitBytes?: number;
}

export interface OperationsAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

export interface OperationsAuditorOptions extends OperationsAuditOptions {
  /** Hash the journal as it streams, so `snapshot()` can be taken (costs a SHA-256 pass). */
  readonly snapshots?: boolean;
  /** Names the snapshot in errors about it. */
  readonly snapshotFile?: string;
}

export interface OperationsJournalAuditor {
  /** Audits the lines these bytes complete (the bytes may be reused once this returns). */
  write(chunk: Uint8Array): void;
  /** Ends the journal — an unterminated last line that does not parse is a torn tail — and reports. */
  finish(): OperationsReport;
  /** The state over the journal's complete lines so far, to `resume` from once more is appended. */
  snapshot(): Uint8Array;
}

export interface WasmOperationsEngine extends OperationsEngine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** A journal as a stream you write to. One journal at a time per engine. */
  openAuditor(options?: OperationsAuditorOptions): OperationsJournalAuditor;
  /**
   * Continues a journal from a snapshot: the journal's first bytes must be the ones the
   * snapshot covers (a `JournalError` otherwise); only the bytes after them are audited.
   */
  resume(
    snapshot: Uint8Array,
    journal: JournalBytes,
    options?: OperationsAuditorOptions,
  ): Promise<OperationsJournalAuditor>;
  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number;
}

const PAGE_BYTES = 65536;
/** What the kernel's `restoreState` answers (assembly/operations/snapshot.ts, Restored). */
const RESTORE_OK = 0;
const RESTORE_INVALID = 1;

export async function loadOperationsEngine(
  options: LoadOperationsEngineOptions = {},
): Promise<WasmOperationsEngine> {
  const flavour = options.flavour ?? (supportsSimd() ? "simd" : "scalar");
  const kernel = await instantiateOperationsKernel(options.wasm, flavour);
  if (options.memoryLimitBytes !== undefined) {
    kernel.limitMemory(Math.floor(options.memoryLimitBytes / PAGE_BYTES));
  }
  return new OperationsKernelEngine(kernel, flavour);
}

/** The kernel, and which journal owns it: a session started since makes older ones stale. */
interface KernelOwner {
  readonly kernel: OperationsKernelExports;
  generation: number;
}

class OperationsKernelEngine implements WasmOperationsEngine {
  readonly name = "wasm";
  private readonly owner: KernelOwner;

  constructor(
    private readonly kernel: OperationsKernelExports,
    readonly flavour: KernelFlavour,
  ) {
    this.owner = { kernel, generation: 0 };
  }

  async auditBytes(
    bytes: JournalBytes,
    options: OperationsAuditOptions = {},
  ): Promise<OperationsReport> {
    const session = this.openAuditor(options);
    for await (const chunk of chunksOf(bytes)) session.write(chunk);
    return session.finish();
  }

  openAuditor(options: OperationsAuditorOptions = {}): OperationsJournalAuditor {
    return new Session(this.owner, options);
  }

  resume(
    snapshot: Uint8Array,
    journal: JournalBytes,
    options: OperationsAuditorOptions = {},
  ): Promise<OperationsJournalAuditor> {
    return Session.resume(this.owner, snapshot, chunksOf(journal), options);
  }

  memoryBytes(): number {
    return this.kernel.memory.buffer.byteLength;
  }
}

class Session implements OperationsJournalAuditor {
  private readonly kernel: OperationsKernelExports;
  private readonly file: string;
  private readonly generation: number;
  /** The first chunks, until the first non-blank line is complete; null once the kernel has started. */
  private held: FirstLineHold | null = new FirstLineHold();
  private prefix: PrefixHash | null;

  constructor(
    private readonly owner: KernelOwner,
    options: OperationsAuditorOptions,
  ) {
    this.kernel = owner.kernel;
    this.file = options.file ?? UNNAMED_JOURNAL;
    this.generation = ++owner.generation;
    this.prefix = options.snapshots ? new PrefixHash(sha256(), 0) : null;
  }

  write(chunk: Uint8Array): void {
    this.assertCurrent();
    if (this.held === null) this.feed(chunk);
    else if (this.held.hold(chunk)) this.start(this.held);
  }

  finish(): OperationsReport {
    this.assertCurrent();
    if (this.held !== null) this.start(this.held);
    this.check(this.kernel.finishJsonl());
    this.owner.generation += 1; // the report is read; the kernel is free for the next journal
    return readOperationsReport(this.kernel);
  }

  snapshot(): Uint8Array {
    this.assertCurrent();
    if (this.prefix === null)
      throw new Error("statefold: open the auditor with { snapshots: true } to take snapshots");
    if (this.held !== null) {
      return encodeSnapshot({
        model: "operations",
        started: false,
        headerPending: false,
        prefix: { bytes: 0, nextLine: 1, sha256: sha256().hex() },
        state: "",
      });
    }
    const pointer = this.kernel.snapshotState();
    if (pointer === 0) this.check(Limit.MEMORY);
    const state = new Uint8Array(this.kernel.memory.buffer, pointer, this.kernel.snapshotLength());
    return encodeSnapshot({
      model: "operations",
      started: true,
      headerPending: this.kernel.isHeaderPending() !== 0,
      prefix: {
        bytes: this.kernel.prefixBytes(),
        nextLine: this.kernel.prefixLineNumber(),
        sha256: this.prefix.hash.copy().hex(),
      },
      state: toBase64(state),
    });
  }

  /**
   * Continues a journal from a snapshot: the journal's first `prefix.bytes` must hash as the
   * snapshot says; only the bytes after them are audited.
   */
  static async resume(
    owner: KernelOwner,
    snapshot: Uint8Array,
    chunks: AsyncIterable<Uint8Array>,
    options: OperationsAuditorOptions,
  ): Promise<Session> {
    const file = options.file ?? UNNAMED_JOURNAL;
    const snapshotFile = options.snapshotFile ?? file;
    const body = snapshotOfModel(
      decodeSnapshot(snapshot, snapshotFile),
      "operations",
      snapshotFile,
    );
    const session = new Session(owner, options);
    await resumeAfterPrefix(
      body.prefix.bytes,
      chunks,
      file,
      (prefixHash) => session.restore(body, prefixHash, snapshotFile),
      (chunk) => session.write(chunk),
    );
    return session;
  }

  private restore(body: OperationsSnapshotBody, prefixHash: Sha256, snapshotFile: string): void {
    const refuse = (why: string) => new JournalError(snapshotFile, `refusing the snapshot: ${why}`);
    if (prefixHash.copy().hex() !== body.prefix.sha256) {
      throw new JournalError(
        this.file,
        `refusing the snapshot: the journal's first ${body.prefix.bytes} bytes are not the ones it covers (changed since, or another journal)`,
      );
    }
    if (this.prefix !== null) this.prefix = new PrefixHash(prefixHash, body.prefix.bytes);
    if (!body.started) return; // nothing was audited yet: audit from the start
    const state = fromBase64(body.state);
    this.held = null;
    this.check(this.kernel.beginJsonl(body.headerPending ? 1 : 0));
    const room = this.kernel.restoreRoom(state.length);
    if (room === 0) this.check(Limit.MEMORY);
    new Uint8Array(this.kernel.memory.buffer, room, state.length).set(state);
    const restored = this.kernel.restoreState(room, state.length);
    if (restored === RESTORE_INVALID)
      throw refuse("its state is not one the operations kernel wrote");
    if (restored !== RESTORE_OK) this.check(Limit.MEMORY);
    this.kernel.resumeJsonlAt(body.prefix.bytes, body.prefix.nextLine, body.headerPending ? 1 : 0);
  }

  /** The first non-blank line is complete (or the input ended): tell the header, start, feed what was held. */
  private start(held: FirstLineHold): void {
    this.held = null;
    const header = readJsonlHeader(held.firstLine(), this.file);
    if (header !== null)
      chooseModel(this.file, header.model, "operations", "the operations engine");
    this.check(this.kernel.beginJsonl(header === null ? 0 : 1));
    for (const chunk of held.chunks) this.feed(chunk);
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

  private check(limit: number): void {
    if (limit === Limit.NONE) return;
    const view = new DataView(this.kernel.memory.buffer);
    const base = this.kernel.reportPointer();
    const line = view.getFloat64(base + (this.kernel.REPORT_LIMIT_LINE.value as number), true);
    const lineBytesMax = (this.kernel.LINE_BYTES_MAX.value as number) / 2 ** 20;
    throw new JournalError(
      this.file,
      limit === Limit.LINE_LENGTH
        ? `expected lines of at most ${lineBytesMax} MiB, found a longer one`
        : "the WebAssembly memory cannot grow any further: the journal's op ids, effect ids and live steps do not fit",
      line > 0 ? line : undefined,
    );
  }
}
