/**
 * The WebAssembly engine of a model defined by data (docs/models/data.md): the model's compiled
 * tables packed once (./pack-model.ts) into its own kernel instance, then any number of journals
 * streamed through it in chunks of any size, each giving the report the reference gives for the
 * same bytes. The streaming and resuming are every streamed model's (../streamed-session.ts).
 */

import { JournalError } from "../../src/journal/errors.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import type { DataReport } from "../../src/models/data/report.js";
import type { KernelOptions } from "../../src/models/model.js";
import { DATA_MODEL_SNAPSHOT } from "../../src/snapshot-format.js";
import type { KernelFlavour } from "../kernel.js";
import { supportsSimd } from "../kernel.js";
import {
  type SessionOwner,
  type StreamedAuditor,
  StreamedKernelEngine,
  StreamedSession,
  type StreamedSessionOptions,
} from "../streamed-session.js";
import { isDataHeader } from "./header.js";
import { type DataKernelExports, instantiateDataKernel } from "./kernel.js";
import { type PackedModel, packModel } from "./pack-model.js";
import { readDataReport } from "./read-report.js";
import type { DataSnapshotBody } from "./snapshot-body.js";

export type DataJournalAuditor = StreamedAuditor<DataReport>;

export interface WasmDataEngine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** The model the engine audits with. */
  readonly model: CompiledModel;
  auditBytes(bytes: unknown, options?: StreamedSessionOptions): Promise<DataReport>;
  openAuditor(options?: StreamedSessionOptions): DataJournalAuditor;
  resume(snapshot: unknown, journal: unknown, options?: unknown): Promise<DataJournalAuditor>;
  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number;
}

const PAGE_BYTES = 65536;

export async function loadDataEngine(
  model: CompiledModel,
  options: KernelOptions = {},
): Promise<WasmDataEngine> {
  const flavour = options.flavour ?? (supportsSimd() ? "simd" : "scalar");
  const kernel = await instantiateDataKernel(options.wasm, flavour);
  if (options.memoryLimitBytes !== undefined) {
    kernel.limitMemory(Math.floor(options.memoryLimitBytes / PAGE_BYTES));
  }
  const packed = packModel(model);
  const room = kernel.prepareModel(packed.bytes.length);
  if (room !== 0) new Uint8Array(kernel.memory.buffer, room, packed.bytes.length).set(packed.bytes);
  if (room === 0 || kernel.loadModel() === 0) {
    throw new Error(
      `statefold: the model ${JSON.stringify(model.name)} does not fit the WebAssembly memory`,
    );
  }
  return new DataKernelEngine(kernel, flavour, model, packed);
}

class DataKernelEngine
  extends StreamedKernelEngine<DataKernelExports, DataReport>
  implements WasmDataEngine
{
  private readonly owner: SessionOwner<DataKernelExports> = { kernel: this.kernel, generation: 0 };

  constructor(
    kernel: DataKernelExports,
    flavour: KernelFlavour,
    readonly model: CompiledModel,
    readonly packed: PackedModel,
  ) {
    super(kernel, flavour);
  }

  protected session(options: StreamedSessionOptions): Session {
    return new Session(this.owner, options, this.model, this.packed);
  }
}

/** What the kernel's `restoreState` answers (assembly/data/snapshot.ts, Restored). */
const RESTORE_OK = 0;
const RESTORE_INVALID = 1;
/** The kernel's limit code for exhausted memory (assembly/jsonl.ts, Limit). */
const LIMIT_MEMORY = 1;

class Session extends StreamedSession<DataKernelExports, DataReport, DataSnapshotBody> {
  protected readonly model = DATA_MODEL_SNAPSHOT;
  protected readonly memoryMessage =
    "the WebAssembly memory cannot grow any further: the journal's kept instances do not fit";

  constructor(
    owner: SessionOwner<DataKernelExports>,
    options: StreamedSessionOptions,
    private readonly compiled: CompiledModel,
    private readonly packed: PackedModel,
  ) {
    super(owner, options);
  }

  protected begin(firstLine: Uint8Array): number {
    if (this.compiled.journal.key !== null) {
      // The reference's words (src/models/data/engine.ts, auditDataBytes).
      throw new JournalError(
        this.file,
        `the model ${this.compiled.name} splits a stream into journals by a key: audit it with auditDataJournals`,
      );
    }
    const header = isDataHeader(firstLine, this.file, this.compiled.name);
    this.check(this.kernel.beginJsonl(header ? 1 : 0));
    return 0; // the kernel is fed line 1 and skips the header itself
  }

  private modelFields() {
    return { dataModel: this.compiled.name, table: this.packed.digest };
  }

  protected emptyStateFields() {
    return { ...this.modelFields(), state: new Uint8Array(0) };
  }

  protected stateFields() {
    const pointer = this.kernel.snapshotState();
    if (pointer === 0) this.check(LIMIT_MEMORY);
    const state = new Uint8Array(this.kernel.memory.buffer, pointer, this.kernel.snapshotLength());
    return { ...this.modelFields(), state: state.slice() };
  }

  /** A snapshot resumes only with the model, compiled to the same table, that took it. */
  protected override resumeWith(body: DataSnapshotBody, snapshotFile: string): null {
    if (body.dataModel !== this.compiled.name || body.table !== this.packed.digest) {
      throw new JournalError(
        snapshotFile,
        `refusing the snapshot: it was taken with the model ${JSON.stringify(body.dataModel)} (compiled table ${String(body.table).slice(0, 12)}…), and this audit uses the model ${JSON.stringify(this.compiled.name)} (compiled table ${this.packed.digest.slice(0, 12)}…)`,
      );
    }
    return null;
  }

  protected restoreState(body: DataSnapshotBody, snapshotFile: string): void {
    const { state } = body;
    if (!(state instanceof Uint8Array)) {
      throw new JournalError(
        snapshotFile,
        "refusing the snapshot: its state is not a section of bytes",
      );
    }
    this.check(this.kernel.beginJsonl(body.headerPending ? 1 : 0));
    const room = this.kernel.restoreRoom(state.length);
    if (room === 0) this.check(LIMIT_MEMORY);
    new Uint8Array(this.kernel.memory.buffer, room, state.length).set(state);
    const restored = this.kernel.restoreState(room, state.length);
    if (restored === RESTORE_INVALID) {
      throw new JournalError(
        snapshotFile,
        "refusing the snapshot: its state is not one the data kernel wrote",
      );
    }
    if (restored !== RESTORE_OK) this.check(LIMIT_MEMORY);
  }

  protected readReport(): DataReport {
    return readDataReport(this.kernel, this.compiled);
  }
}
