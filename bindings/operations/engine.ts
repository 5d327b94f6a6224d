/**
 * The `operations` model's WebAssembly engine (docs/models/operations.md): a JSONL journal
 * streamed through the kernel in chunks of any size, giving the report the reference's
 * `audit(records, { lines, tornTail })` gives for the same bytes; and, for the boot gate's
 * incremental audits, auditors that snapshot their state and resume from it.
 * The streaming, the prefix hash and resuming are every streamed model's (../streamed-session.ts).
 */

import type { ResumeJournal } from "../../src/engine.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { JournalError } from "../../src/journal/errors.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import type {
  OperationsAuditOptions,
  OperationsEngine,
} from "../../src/models/operations/engine.js";
import type { OperationsReport } from "../../src/models/operations/index.js";
import { type KernelFlavour, type KernelSource, supportsSimd } from "../kernel.js";
import {
  type SessionOwner,
  type StreamedAuditor,
  StreamedKernelEngine,
  StreamedSession,
  type StreamedSessionOptions,
} from "../streamed-session.js";
import { Limit } from "./codes.js";
import { instantiateOperationsKernel, type OperationsKernelExports } from "./kernel.js";
import { readOperationsReport } from "./read-report.js";
import type { OperationsSnapshotBody } from "./snapshot-body.js";

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

export type { OperationsAuditOptions };

export type OperationsAuditorOptions = StreamedSessionOptions;

export type OperationsJournalAuditor = StreamedAuditor<OperationsReport>;

export interface WasmOperationsEngine extends OperationsEngine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** A journal as a stream you write to. One journal at a time per engine. */
  openAuditor(options?: OperationsAuditorOptions): OperationsJournalAuditor;
  /**
   * Continues a journal from a snapshot: the journal's first bytes must be the ones the
   * snapshot covers (a `JournalError` otherwise); only the bytes after them are audited. A
   * `resumableFile` has its prefix checked on a thread of its own while the state is restored.
   */
  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
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

class OperationsKernelEngine
  extends StreamedKernelEngine<OperationsKernelExports, OperationsReport>
  implements WasmOperationsEngine
{
  private readonly owner: SessionOwner<OperationsKernelExports> = {
    kernel: this.kernel,
    generation: 0,
  };

  protected session(options: OperationsAuditorOptions): Session {
    return new Session(this.owner, options);
  }
}

class Session
  extends StreamedSession<OperationsKernelExports, OperationsReport, OperationsSnapshotBody>
  implements OperationsJournalAuditor
{
  protected readonly model = "operations";
  protected readonly memoryMessage =
    "the WebAssembly memory cannot grow any further: the journal's op ids, effect ids and live steps do not fit";

  protected begin(firstLine: Uint8Array): number {
    const header = readJsonlHeader(firstLine, this.file, "operations");
    if (header !== null)
      chooseModel(this.file, header.model, "operations", "the operations engine");
    this.check(this.kernel.beginJsonl(header === null ? 0 : 1));
    return 0; // the kernel is fed line 1 and skips the header itself
  }

  protected emptyStateFields() {
    return { state: new Uint8Array(0) };
  }

  protected stateFields() {
    const pointer = this.kernel.snapshotState();
    if (pointer === 0) this.check(Limit.MEMORY);
    return {
      state: new Uint8Array(
        this.kernel.memory.buffer,
        pointer,
        this.kernel.snapshotLength(),
      ).slice(),
    };
  }

  protected restoreState(body: OperationsSnapshotBody, snapshotFile: string): void {
    const { state } = body;
    if (!(state instanceof Uint8Array)) {
      throw new JournalError(
        snapshotFile,
        "refusing the snapshot: its state is not a section of bytes",
      );
    }
    this.check(this.kernel.beginJsonl(body.headerPending ? 1 : 0));
    const room = this.kernel.restoreRoom(state.length);
    if (room === 0) this.check(Limit.MEMORY);
    new Uint8Array(this.kernel.memory.buffer, room, state.length).set(state);
    const restored = this.kernel.restoreState(room, state.length);
    if (restored === RESTORE_INVALID) {
      throw new JournalError(
        snapshotFile,
        "refusing the snapshot: its state is not one the operations kernel wrote",
      );
    }
    if (restored !== RESTORE_OK) this.check(Limit.MEMORY);
  }

  protected readReport(): OperationsReport {
    return readOperationsReport(this.kernel);
  }
}
