/**
 * The WebAssembly engine of a model defined by data (docs/models/data.md): the model's compiled
 * tables packed once (./pack-model.ts) into its own kernel instance, then any number of journals
 * streamed through it in chunks of any size, each giving the report the reference gives for the
 * same bytes. The streaming and resuming are every streamed model's (../streamed-session.ts).
 * A model that splits its stream by `journal.key` is audited in the same one pass, its journals
 * side by side in the kernel (assembly/data/journals.ts), and reported as the reference's
 * `auditDataJournals` reports it: `{ journals: [...] }`, snapshots holding every journal.
 */

import { chunksOf, UNNAMED_JOURNAL } from "../../src/engine.js";
import {
  AUDIT_OPTIONS,
  AUDITOR_OPTIONS,
  auditBytesArguments,
  optionsArgument,
} from "../../src/engine-arguments.js";
import { JournalError } from "../../src/journal/errors.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { noDocumentSnapshots } from "../../src/models/data/engine.js";
import type { DataJournalsReport, DataReport } from "../../src/models/data/report.js";
import type { KernelOptions } from "../../src/models/model.js";
import type { ModelName } from "../../src/models/registry.js";
import type { KernelFlavour } from "../kernel.js";
import { supportsSimd } from "../kernel.js";
import {
  type SessionOwner,
  type StreamedAuditor,
  StreamedKernelEngine,
  StreamedSession,
  type StreamedSessionOptions,
} from "../streamed-session.js";
import { DocumentSession } from "./document-session.js";
import { isDataHeader } from "./header.js";
import { type DataKernelExports, instantiateDataKernel } from "./kernel.js";
import { type PackedModel, packModel } from "./pack-model.js";
import { readDataAudit } from "./read-report.js";
import type { DataSnapshotBody } from "./snapshot-body.js";

/**
 * What auditing a journal gives: its report, or — when the model splits a stream into journals by
 * `journal.key` — a report per journal (docs/models/data.md, "A stream of journals").
 */
export type DataAudit = DataReport | DataJournalsReport;

export type DataJournalAuditor<Report extends DataAudit = DataReport> = StreamedAuditor<Report>;

/** `Report` is `DataJournalsReport` for a model that splits its streams, `DataReport` otherwise. */
export interface WasmDataEngine<Report extends DataAudit = DataReport> {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** The model the engine audits with. */
  readonly model: CompiledModel;
  auditBytes(bytes: unknown, options?: StreamedSessionOptions): Promise<Report>;
  openAuditor(options?: StreamedSessionOptions): DataJournalAuditor<Report>;
  resume(
    snapshot: unknown,
    journal: unknown,
    options?: unknown,
  ): Promise<DataJournalAuditor<Report>>;
  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number;
}

const PAGE_BYTES = 65536;

/**
 * The engine of a compiled model; its `Report` is the caller's to name: `DataJournalsReport` when
 * the model's `journal.key` splits its streams.
 */
export async function loadDataEngine<Report extends DataAudit = DataReport>(
  model: CompiledModel,
  options: KernelOptions = {},
): Promise<WasmDataEngine<Report>> {
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
  return new DataKernelEngine(
    kernel,
    flavour,
    model,
    packed,
  ) as WasmDataEngine<DataAudit> as WasmDataEngine<Report>;
}

class DataKernelEngine
  extends StreamedKernelEngine<DataKernelExports, DataAudit>
  implements WasmDataEngine<DataAudit>
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

  override async auditBytes(given: unknown, givenOptions?: unknown): Promise<DataAudit> {
    if ("lines" in this.model.source) return super.auditBytes(given, givenOptions);
    const { bytes, options } = auditBytesArguments<StreamedSessionOptions>(
      given,
      givenOptions,
      AUDIT_OPTIONS,
    );
    const session = this.documentSession(options);
    for await (const chunk of chunksOf(bytes)) session.write(chunk);
    return session.finish();
  }

  override openAuditor(options?: unknown): DataJournalAuditor<DataAudit> {
    if ("lines" in this.model.source) return super.openAuditor(options);
    const checked = optionsArgument<StreamedSessionOptions>(
      "openAuditor(options)",
      options,
      AUDITOR_OPTIONS,
    );
    return this.documentSession(checked);
  }

  override async resume(
    snapshot: unknown,
    journal: unknown,
    options?: unknown,
  ): Promise<DataJournalAuditor<DataAudit>> {
    if ("lines" in this.model.source) return super.resume(snapshot, journal, options);
    const checked = optionsArgument<StreamedSessionOptions>(
      "resume(snapshot, journal, options)",
      options,
      AUDITOR_OPTIONS,
    );
    throw noDocumentSnapshots(checked.snapshotFile ?? checked.file ?? UNNAMED_JOURNAL);
  }

  /** A journal that is one JSON document (./document-session.ts). */
  private documentSession(options: StreamedSessionOptions): DocumentSession<DataAudit> {
    const { source } = this.model;
    if ("lines" in source) throw new Error("statefold: a JSONL model has no document session");
    return new DocumentSession(
      this.owner,
      source.arrays,
      options.file ?? UNNAMED_JOURNAL,
      MEMORY_MESSAGE,
      () => readDataAudit(this.kernel, this.model),
    );
  }
}

const MEMORY_MESSAGE =
  "the WebAssembly memory cannot grow any further: the journal's kept instances do not fit";

/** What the kernel's `restoreState` answers (assembly/data/snapshot.ts, Restored). */
const RESTORE_OK = 0;
const RESTORE_INVALID = 1;
/** The kernel's limit code for exhausted memory (assembly/jsonl.ts, Limit). */
const LIMIT_MEMORY = 1;

class Session extends StreamedSession<DataKernelExports, DataAudit, DataSnapshotBody> {
  /** The model file's name: a snapshot names its model as every model's does. */
  protected readonly model: ModelName;
  protected readonly memoryMessage = MEMORY_MESSAGE;

  constructor(
    owner: SessionOwner<DataKernelExports>,
    options: StreamedSessionOptions,
    private readonly compiled: CompiledModel,
    private readonly packed: PackedModel,
  ) {
    super(owner, options);
    this.model = compiled.name as ModelName;
  }

  protected begin(firstLine: Uint8Array): number {
    const header = isDataHeader(firstLine, this.file, this.compiled.name);
    this.check(this.kernel.beginJsonl(header ? 1 : 0));
    return 0; // the kernel is fed line 1 and skips the header itself
  }

  protected emptyStateFields() {
    return { table: this.packed.digest, state: new Uint8Array(0) };
  }

  protected stateFields() {
    const pointer = this.kernel.snapshotState();
    if (pointer === 0) this.check(LIMIT_MEMORY);
    const state = new Uint8Array(this.kernel.memory.buffer, pointer, this.kernel.snapshotLength());
    return { table: this.packed.digest, state: state.slice() };
  }

  /** A snapshot of the model's journal (its name checked already) resumes only with the model compiled as it was. */
  protected override resumeWith(body: DataSnapshotBody, snapshotFile: string): null {
    if (body.table !== this.packed.digest) {
      throw new JournalError(
        snapshotFile,
        `refusing the snapshot: it was taken with the model ${JSON.stringify(this.compiled.name)} compiled to another table (${String(body.table).slice(0, 12)}…, not ${this.packed.digest.slice(0, 12)}…): the model file changed since`,
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

  protected readReport(): DataAudit {
    return readDataAudit(this.kernel, this.compiled);
  }
}
