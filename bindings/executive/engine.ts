/**
 * The `executive` model's WebAssembly engine (docs/models/executive.md): the machine on the
 * kernel (machine.ts), and a JSONL journal streamed through the kernel in chunks of any size,
 * replayed there and its decisions judged, giving the report the reference gives for the same
 * bytes. The machine and the audits share one kernel instance; an audit takes the kernel over,
 * and the machine's states are replayed into it again when they are next used.
 *
 * Bytes are held back until the first non-blank line — the header, with the run's spec and
 * budget — is complete, so the spec can be loaded before the kernel starts; the last header's
 * spec stays loaded, so a fleet's journals of one spec load it once.
 */
import { type Sha256, sha256 } from "../../src/digest/sha256.js";
import { chunksOf, type JournalBytes, UNNAMED_JOURNAL } from "../../src/engine.js";
import type { ExecutiveEngine } from "../../src/executive-engine.js";
import { executiveRunOf } from "../../src/executive-engine.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { JournalError } from "../../src/journal/errors.js";
import { FirstLineHold } from "../../src/journal/first-line.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import type { ExecutiveReport } from "../../src/models/executive/audit.js";
import type { ExecutiveMachine } from "../../src/models/executive/machine.js";
import { sameBytes } from "../bytes.js";
import { type KernelFlavour, type KernelSource, supportsSimd } from "../kernel.js";
import { PrefixHash, resumeAfterPrefix } from "../prefix-hash.js";
import {
  decodeSnapshot,
  type ExecutiveSnapshotBody,
  encodeSnapshot,
  snapshotOfModel,
} from "../snapshot-format.js";
import { auditState, restoreAuditState } from "./audit-snapshot.js";
import { type ExecutiveKernelExports, instantiateExecutiveKernel } from "./kernel.js";
import { createKernelExecutive, type KernelOwner, type KernelState, loadRun } from "./machine.js";
import { type PackedSpec, packSpec } from "./pack-spec.js";
import { readExecutiveReport } from "./read-report.js";

export interface LoadExecutiveEngineOptions {
  /** The SIMD build where the engine supports it (the default), or the scalar build. */
  readonly flavour?: KernelFlavour;
  /** The module itself, instead of the built file of that flavour. */
  readonly wasm?: KernelSource;
  /** The most memory the kernel may grow to, in bytes (rounded down to 64 KiB pages). */
  readonly memoryLimitBytes?: number;
}

export interface ExecutiveAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

export interface ExecutiveAuditorOptions extends ExecutiveAuditOptions {
  /** Hash the journal as it streams, so `snapshot()` can be taken (costs a SHA-256 pass). */
  readonly snapshots?: boolean;
  /** Names the snapshot in errors about it. */
  readonly snapshotFile?: string;
}

export interface ExecutiveJournalAuditor {
  /** Audits the lines these bytes complete (the bytes may be reused once this returns). */
  write(chunk: Uint8Array): void;
  /** Ends the journal — an unterminated last line that does not parse is a torn tail — and reports. */
  finish(): ExecutiveReport;
  /** The state over the journal's complete lines so far, to `resume` from once more is appended. */
  snapshot(): Uint8Array;
}

export interface WasmExecutiveEngine extends ExecutiveEngine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** The machine itself, on the kernel: `initialState`, `step`, `terminal`, `snapshot`, `restore`. */
  readonly machine: ExecutiveMachine<KernelState>;
  /** A journal as a stream you write to. One journal at a time per engine. */
  openAuditor(options?: ExecutiveAuditorOptions): ExecutiveJournalAuditor;
  /**
   * Continues a journal from a snapshot: the journal's first bytes must be the ones the
   * snapshot covers (a `JournalError` otherwise); only the bytes after them are audited.
   */
  resume(
    snapshot: Uint8Array,
    journal: JournalBytes,
    options?: ExecutiveAuditorOptions,
  ): Promise<ExecutiveJournalAuditor>;
  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number;
}

const PAGE_BYTES = 65536;
const LIMIT_NONE = 0;
const LIMIT_LINE_LENGTH = 2;

export async function loadExecutiveEngine(
  options: LoadExecutiveEngineOptions = {},
): Promise<WasmExecutiveEngine> {
  const flavour = options.flavour ?? (supportsSimd() ? "simd" : "scalar");
  const kernel = await instantiateExecutiveKernel(options.wasm, flavour);
  if (options.memoryLimitBytes !== undefined) {
    kernel.limitMemory(Math.floor(options.memoryLimitBytes / PAGE_BYTES));
  }
  return new ExecutiveKernelEngine(kernel, flavour);
}

/** The kernel's owner, and which journal holds it: a session started since makes older ones stale. */
interface JournalOwner extends KernelOwner {
  generation: number;
  lastHeader: { readonly line: Uint8Array; readonly run: PackedSpec } | null;
}

class ExecutiveKernelEngine implements WasmExecutiveEngine {
  readonly name = "wasm";
  readonly machine: ExecutiveMachine<KernelState>;
  private readonly owner: JournalOwner;

  constructor(
    private readonly kernel: ExecutiveKernelExports,
    readonly flavour: KernelFlavour,
  ) {
    this.owner = { kernel, loaded: null, head: null, generation: 0, lastHeader: null };
    this.machine = createKernelExecutive(this.owner);
  }

  async auditBytes(
    bytes: JournalBytes,
    options: ExecutiveAuditOptions = {},
  ): Promise<ExecutiveReport> {
    const session = this.openAuditor(options);
    for await (const chunk of chunksOf(bytes)) session.write(chunk);
    return session.finish();
  }

  openAuditor(options: ExecutiveAuditorOptions = {}): ExecutiveJournalAuditor {
    return new Session(this.owner, options);
  }

  resume(
    snapshot: Uint8Array,
    journal: JournalBytes,
    options: ExecutiveAuditorOptions = {},
  ): Promise<ExecutiveJournalAuditor> {
    return Session.resume(this.owner, snapshot, chunksOf(journal), options);
  }

  memoryBytes(): number {
    return this.kernel.memory.buffer.byteLength;
  }
}

class Session implements ExecutiveJournalAuditor {
  private readonly kernel: ExecutiveKernelExports;
  private readonly file: string;
  private readonly generation: number;
  /** The first chunks, until the header line is complete; null once the kernel has started. */
  private held: FirstLineHold | null = new FirstLineHold();
  private run: PackedSpec | null = null;
  /** The header line, as a snapshot keeps it. */
  private header = "";
  private prefix: PrefixHash | null;

  constructor(
    private readonly owner: JournalOwner,
    options: ExecutiveAuditorOptions,
  ) {
    this.kernel = owner.kernel;
    this.file = options.file ?? UNNAMED_JOURNAL;
    this.generation = ++owner.generation;
    this.prefix = options.snapshots ? new PrefixHash(sha256(), 0) : null;
  }

  snapshot(): Uint8Array {
    this.assertCurrent();
    if (this.prefix === null)
      throw new Error("statefold: open the auditor with { snapshots: true } to take snapshots");
    if (this.held !== null) {
      return encodeSnapshot({
        model: "executive",
        started: false,
        headerPending: false,
        prefix: { bytes: 0, nextLine: 1, sha256: sha256().hex() },
        header: "",
        machine: "",
        report: "",
        recorded: [],
      });
    }
    return encodeSnapshot({
      model: "executive",
      started: true,
      headerPending: this.kernel.isHeaderPending() !== 0,
      prefix: {
        bytes: this.kernel.prefixBytes(),
        nextLine: this.kernel.prefixLineNumber(),
        sha256: this.prefix.hash.copy().hex(),
      },
      header: this.header,
      ...auditState(this.kernel, this.run as PackedSpec),
    });
  }

  /**
   * Continues a journal from a snapshot: the journal's first `prefix.bytes` must hash as the
   * snapshot says; only the bytes after them are audited.
   */
  static async resume(
    owner: JournalOwner,
    snapshot: Uint8Array,
    chunks: AsyncIterable<Uint8Array>,
    options: ExecutiveAuditorOptions,
  ): Promise<Session> {
    const file = options.file ?? UNNAMED_JOURNAL;
    const snapshotFile = options.snapshotFile ?? file;
    const body = snapshotOfModel(decodeSnapshot(snapshot, snapshotFile), "executive", snapshotFile);
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

  private restore(body: ExecutiveSnapshotBody, prefixHash: Sha256, snapshotFile: string): void {
    if (prefixHash.copy().hex() !== body.prefix.sha256) {
      throw new JournalError(
        this.file,
        `refusing the snapshot: the journal's first ${body.prefix.bytes} bytes are not the ones it covers (changed since, or another journal)`,
      );
    }
    if (this.prefix !== null) this.prefix = new PrefixHash(prefixHash, body.prefix.bytes);
    if (!body.started) return; // nothing was audited yet: audit from the start
    this.held = null;
    try {
      this.useHeader(new TextEncoder().encode(body.header));
    } catch (error) {
      if (!(error instanceof JournalError)) throw error;
      throw new JournalError(
        snapshotFile,
        "refusing the snapshot: its header is not an executive journal's",
      );
    }
    this.check(this.kernel.beginJsonl(1));
    const refusal = restoreAuditState(this.kernel, this.run as PackedSpec, body);
    if (refusal !== null) {
      throw new JournalError(snapshotFile, `refusing the snapshot: ${refusal}`);
    }
    this.kernel.resumeJsonlAt(body.prefix.bytes, body.prefix.nextLine, body.headerPending ? 1 : 0);
  }

  write(chunk: Uint8Array): void {
    this.assertCurrent();
    if (this.held === null) this.feed(chunk);
    else if (this.held.hold(chunk)) this.start(this.held);
  }

  finish(): ExecutiveReport {
    this.assertCurrent();
    if (this.held !== null) this.start(this.held);
    this.check(this.kernel.finishJsonl());
    this.owner.generation += 1;
    return readExecutiveReport(this.kernel, this.run as PackedSpec);
  }

  /** The header line is complete (or the input ended): load its spec, start, feed what was held. */
  private start(held: FirstLineHold): void {
    this.held = null;
    this.useHeader(held.firstLine());
    this.check(this.kernel.beginJsonl(1));
    for (const chunk of held.chunks) this.feed(chunk);
  }

  /** Reads the header line's spec and budget (the last header's stay packed) and loads them. */
  private useHeader(firstLine: Uint8Array): void {
    const last = this.owner.lastHeader;
    let run: PackedSpec;
    if (last !== null && sameBytes(last.line, firstLine)) {
      run = last.run;
    } else {
      const header = readJsonlHeader(firstLine, this.file);
      if (header !== null) {
        chooseModel(this.file, header.model, "executive", "the executive engine");
      }
      const { spec, budget } = executiveRunOf(header, this.file);
      run = packSpec(spec, budget);
      this.owner.lastHeader = { line: firstLine.slice(), run };
    }
    this.run = run;
    this.header = new TextDecoder().decode(firstLine);
    // The audit takes the kernel's working state: the machine replays its states into it later.
    loadRun(this.owner, run);
    this.owner.head = null;
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
    if (limit === LIMIT_NONE) return;
    const view = new DataView(this.kernel.memory.buffer);
    const base = this.kernel.reportPointer();
    const line = view.getFloat64(base + (this.kernel.REPORT_LIMIT_LINE.value as number), true);
    const lineBytesMax = (this.kernel.LINE_BYTES_MAX.value as number) / 2 ** 20;
    throw new JournalError(
      this.file,
      limit === LIMIT_LINE_LENGTH
        ? `expected lines of at most ${lineBytesMax} MiB, found a longer one`
        : "the WebAssembly memory cannot grow any further: the journal's spec and its listed mismatches do not fit",
      line > 0 ? line : undefined,
    );
  }
}
