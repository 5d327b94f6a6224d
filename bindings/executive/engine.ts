/**
 * The `executive` model's WebAssembly engine (docs/models/executive.md): the machine on the
 * kernel (machine.ts), and a JSONL journal streamed through the kernel in chunks of any size,
 * replayed there and its decisions judged, giving the report the reference gives for the same
 * bytes. The machine and the audits share one kernel instance; an audit takes the kernel over,
 * and the machine's states are replayed into it again when they are next used.
 *
 * The streaming, the prefix hash and resuming are every streamed model's (../streamed-session.ts):
 * the first line, the header with the run's spec and budget, is read before the kernel starts —
 * by the kernel itself when it is plain — and the last header's spec stays loaded, so a fleet's
 * journals of one spec load it once.
 */

import type { ResumeJournal } from "../../src/engine.js";
import { sameBytes } from "../../src/journal/bytes.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { JournalError } from "../../src/journal/errors.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import { missingHeader } from "../../src/journal/missing-header.js";
import type { ExecutiveReport } from "../../src/models/executive/audit.js";
import type { ExecutiveAuditOptions, ExecutiveEngine } from "../../src/models/executive/engine.js";
import { executiveRunOf } from "../../src/models/executive/engine.js";
import type { ExecutiveMachine } from "../../src/models/executive/machine.js";
import { type KernelFlavour, type KernelSource, supportsSimd } from "../kernel.js";
import {
  type SessionOwner,
  type StreamedAuditor,
  StreamedKernelEngine,
  StreamedSession,
  type StreamedSessionOptions,
} from "../streamed-session.js";
import { auditState, restoreAuditState } from "./audit-snapshot.js";
import { type ExecutiveKernelExports, instantiateExecutiveKernel } from "./kernel.js";
import { createKernelExecutive, type KernelOwner, type KernelState, loadRun } from "./machine.js";
import { kernelPackedSpec, type PackedSpec, packSpec } from "./pack-spec.js";
import { readExecutiveReport } from "./read-report.js";
import type { ExecutiveSnapshotBody } from "./snapshot-body.js";

export interface LoadExecutiveEngineOptions {
  /** The SIMD build where the engine supports it (the default), or the scalar build. */
  readonly flavour?: KernelFlavour;
  /** The module itself, instead of the built file of that flavour. */
  readonly wasm?: KernelSource;
  /** The most memory the kernel may grow to, in bytes (rounded down to 64 KiB pages). */
  readonly memoryLimitBytes?: number;
}

export type { ExecutiveAuditOptions };

export type ExecutiveAuditorOptions = StreamedSessionOptions;

export type ExecutiveJournalAuditor = StreamedAuditor<ExecutiveReport>;

export interface WasmExecutiveEngine extends ExecutiveEngine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** The machine itself, on the kernel: `initialState`, `step`, `terminal`, `snapshot`, `restore`. */
  readonly machine: ExecutiveMachine<KernelState>;
  /** A journal as a stream you write to. One journal at a time per engine. */
  openAuditor(options?: ExecutiveAuditorOptions): ExecutiveJournalAuditor;
  /**
   * Continues a journal from a snapshot: the journal's first bytes must be the ones the
   * snapshot covers (a `JournalError` otherwise); only the bytes after them are audited. A
   * `resumableFile` has its prefix checked on a thread of its own while the state is restored.
   */
  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
    options?: ExecutiveAuditorOptions,
  ): Promise<ExecutiveJournalAuditor>;
  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number;
}

const PAGE_BYTES = 65536;

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

/** The kernel's owner: the machine's working state, which journal holds it, the last header's spec. */
interface JournalOwner extends KernelOwner, SessionOwner<ExecutiveKernelExports> {
  lastHeader: { readonly line: Uint8Array; readonly run: PackedSpec } | null;
}

class ExecutiveKernelEngine
  extends StreamedKernelEngine<ExecutiveKernelExports, ExecutiveReport>
  implements WasmExecutiveEngine
{
  readonly machine: ExecutiveMachine<KernelState>;
  private readonly owner: JournalOwner;

  constructor(kernel: ExecutiveKernelExports, flavour: KernelFlavour) {
    super(kernel, flavour);
    this.owner = { kernel, loaded: null, head: null, generation: 0, lastHeader: null };
    this.machine = createKernelExecutive(this.owner);
  }

  protected session(options: ExecutiveAuditorOptions): Session {
    return new Session(this.owner, options);
  }
}

class Session
  extends StreamedSession<ExecutiveKernelExports, ExecutiveReport, ExecutiveSnapshotBody>
  implements ExecutiveJournalAuditor
{
  protected readonly model = "executive";
  protected readonly memoryMessage =
    "the WebAssembly memory cannot grow any further: the journal's spec and its listed mismatches do not fit";
  private run: PackedSpec | null = null;
  /** The header line (a copy the engine keeps), decoded only when a snapshot takes it. */
  private headerLine: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly journals: JournalOwner,
    options: ExecutiveAuditorOptions,
  ) {
    super(journals, options);
  }

  protected begin(firstLine: Uint8Array): number {
    this.useHeader(firstLine);
    this.check(this.kernel.beginJsonl(1));
    return 0; // the kernel is fed the header line and skips it
  }

  protected emptyStateFields() {
    return { header: "", machine: "", report: new Uint8Array(0), recorded: [] };
  }

  protected stateFields() {
    return {
      header: new TextDecoder().decode(this.headerLine),
      ...auditState(this.kernel, this.run as PackedSpec),
    };
  }

  protected restoreState(body: ExecutiveSnapshotBody, snapshotFile: string): void {
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
  }

  protected readReport(): ExecutiveReport {
    return readExecutiveReport(this.kernel, this.run as PackedSpec);
  }

  /**
   * Reads the header line's spec and budget (the last header's stay packed) and loads them: the
   * kernel reads a plain header itself, the host any other (assembly/executive/header.ts).
   */
  private useHeader(firstLine: Uint8Array): void {
    let last = this.journals.lastHeader;
    if (last === null || !sameBytes(last.line, firstLine)) {
      const line = firstLine.slice();
      last = { line, run: this.readHeaderInKernel(line) ?? this.readHeader(line) };
      this.journals.lastHeader = last;
    }
    this.run = last.run;
    this.headerLine = last.line;
    // The audit takes the kernel's working state: the machine replays its states into it later.
    loadRun(this.journals, last.run);
    this.journals.head = null;
  }

  /** The spec the kernel packed and loaded from the line, or null when the host must read it. */
  private readHeaderInKernel(line: Uint8Array): PackedSpec | null {
    const { kernel } = this;
    this.journals.loaded = null;
    this.journals.head = null;
    const pointer = kernel.prepareHeader(line.length);
    if (pointer === 0) return null;
    new Uint8Array(kernel.memory.buffer, pointer, line.length).set(line);
    if (kernel.loadHeader() === 0) return null;
    const packed = new Uint8Array(
      kernel.memory.buffer,
      kernel.packedSpecPointer(),
      kernel.packedSpecLength(),
    ).slice();
    const file = this.file;
    const run = kernelPackedSpec(packed, () => {
      const { spec, budget } = executiveRunOf(readJsonlHeader(line, file, "executive"), file);
      return [spec, budget];
    });
    this.journals.loaded = run;
    return run;
  }

  private readHeader(line: Uint8Array): PackedSpec {
    const header = readJsonlHeader(line, this.file, "executive");
    if (header !== null) {
      chooseModel(this.file, header.model, "executive", "the executive engine");
    }
    const missing = header === null ? missingHeader(line) : null;
    const { spec, budget } = executiveRunOf(header, this.file, missing);
    return packSpec(spec, budget);
  }
}
