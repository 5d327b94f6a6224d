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
import type { SnapshotBody } from "../../src/snapshot-format.js";
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
    return new Session(this.owner, options, this.model);
  }
}

class Session extends StreamedSession<DataKernelExports, DataReport, SnapshotBody> {
  protected readonly model = "data" as SnapshotBody["model"];
  protected readonly memoryMessage =
    "the WebAssembly memory cannot grow any further: the journal's kept instances do not fit";

  constructor(
    owner: SessionOwner<DataKernelExports>,
    options: StreamedSessionOptions,
    private readonly compiled: CompiledModel,
  ) {
    super(owner, options);
  }

  protected begin(firstLine: Uint8Array): number {
    const header = isDataHeader(firstLine, this.file, this.compiled.name);
    this.check(this.kernel.beginJsonl(header ? 1 : 0));
    return 0; // the kernel is fed line 1 and skips the header itself
  }

  protected emptyStateFields(): never {
    throw this.noSnapshots();
  }

  protected stateFields(): never {
    throw this.noSnapshots();
  }

  protected restoreState(): never {
    throw this.noSnapshots();
  }

  private noSnapshots(): JournalError {
    return new JournalError(this.file, "snapshots of a model defined by data are not written yet");
  }

  protected readReport(): DataReport {
    return readDataReport(this.kernel, this.compiled);
  }
}
