/**
 * `loadEngine()`: the WASM engine, with the reference's API (src/engine.ts) and deep-equal
 * reports. One engine owns one kernel instance and audits one journal at a time; it keeps the
 * last DAG loaded, so auditing many journals over one DAG loads it once.
 */
import {
  type AuditBytesOptions,
  chunksOf,
  type Engine,
  givenDag,
  type JournalBytes,
  UNNAMED_JOURNAL,
} from "../src/engine.js";
import type { Dag } from "../src/models/dag/dag.js";
import { LogIntegrityError } from "../src/models/dag/events.js";
import type { Report } from "../src/models/dag/report.js";
import type { EventLog, ModelState } from "../src/models/dag/state.js";
import type { AuditSource } from "../src/models/journal-source.js";
import type { ModelName } from "../src/models/registry.js";
import { foldEvents, type Surfaces } from "./fold-records.js";
import { nodeIdsOf } from "./header-dag.js";
import { type AuditorOptions, type JournalAuditor, JsonlSession } from "./jsonl-session.js";
import {
  instantiateKernel,
  type KernelFlavour,
  type KernelSource,
  supportsSimd,
} from "./kernel.js";
import { KernelHost } from "./kernel-host.js";
import type { ResumeJournal } from "./prefix-hash.js";
import { type ReportContext, readIntegrityFault, readReport } from "./read-report.js";

export interface LoadEngineOptions {
  /** The kernel module; by default the built file beside this package (fetched in a browser). */
  readonly wasm?: KernelSource;
  /** Which build; by default SIMD where the engine supports it. */
  readonly flavour?: KernelFlavour;
}

export interface WasmEngine extends Engine {
  readonly flavour: KernelFlavour;
  /**
   * A JSONL journal as a stream you write to: the auditor behind `auditBytes`, for a runtime that
   * appends. With `{ snapshots: true }` it can `snapshot()` its state to `resume` from later.
   */
  openAuditor(dag: Dag | null, options?: AuditorOptions): JournalAuditor;
  /**
   * The model a JSONL journal's first line names, null when it is no header: what
   * `readJsonlHeaderModel` answers, the kernel reading a big plain header instead of the host
   * parsing megabytes of JSON to find one field.
   */
  headerModel(firstLine: Uint8Array, file: string): ModelName | null;
  /**
   * Continues from a snapshot: the journal's prefix must be the one the snapshot covers (its
   * SHA-256 is checked); only what was appended after it is audited. A tampered, truncated,
   * version-mismatched or foreign snapshot, or a changed prefix, is a `JournalError`. A
   * `resumableFile` has its prefix checked on a thread of its own while the state is restored.
   */
  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
    dag?: Dag | null,
    options?: AuditorOptions,
  ): Promise<JournalAuditor>;
  /**
   * The size of the kernel's linear memory, in bytes. WebAssembly memory only grows, so this is
   * the high-water mark of every audit so far: it lets a caller (and the tests) check that memory
   * is O(nodes + distinct surface paths + longest line), independent of journal length.
   */
  memoryBytes(): number;
  /**
   * The events of the journal being audited so far (of the last one, once it is finished), read
   * live from the kernel's report: a progress gauge for a caller streaming a long journal.
   */
  eventsSoFar(): number;
}

export async function loadEngine(options: LoadEngineOptions = {}): Promise<WasmEngine> {
  const flavour = options.flavour ?? (supportsSimd() ? "simd" : "scalar");
  const kernel = await instantiateKernel(options.wasm, flavour);
  return new KernelEngine(new KernelHost(kernel), flavour);
}

class KernelEngine implements WasmEngine {
  readonly name = "wasm";

  constructor(
    private readonly host: KernelHost,
    readonly flavour: KernelFlavour,
  ) {}

  audit(dag: Dag, events: readonly unknown[], source: AuditSource = {}): Report {
    this.fold(dag, events);
    const context = {
      ids: nodeIdsOf(dag),
      lines: source.lines,
      faultSubject: faultSubjectOf(events),
    };
    return { ...readReport(this.host.kernel, context), tornTail: source.tornTail ?? null };
  }

  replay(dag: Dag, events: readonly unknown[]): ModelState {
    const { surfaces } = this.fold(dag, events);
    const context = {
      ids: nodeIdsOf(dag),
      lines: undefined,
      faultSubject: faultSubjectOf(events),
    };
    const fault = readIntegrityFault(this.host.kernel, context);
    if (fault !== null) throw new LogIntegrityError(fault.index, fault.fault);
    const nodes = dag.nodes.map((_, node) => this.host.nodeState(node, surfaces[node]));
    let log: EventLog = null;
    for (const [index, event] of events.entries()) {
      log = Object.freeze({ event: event as never, length: index + 1, earlier: log });
    }
    return Object.freeze({ dag, nodes: Object.freeze(nodes), log });
  }

  async auditBytes(
    dag: Dag | null,
    bytes: JournalBytes,
    options: AuditBytesOptions = {},
  ): Promise<Report> {
    const auditor = this.openAuditor(dag, options);
    for await (const chunk of chunksOf(bytes)) auditor.write(chunk);
    return auditor.finish();
  }

  headerModel(firstLine: Uint8Array, file: string): ModelName | null {
    return this.host.headerModel(firstLine, file);
  }

  openAuditor(dag: Dag | null, options: AuditorOptions = {}): JournalAuditor {
    return new JsonlSession(this.host, givenDag(dag, options), options);
  }

  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
    dag: Dag | null = null,
    options: AuditorOptions = {},
  ): Promise<JournalAuditor> {
    return JsonlSession.resume(this.host, snapshot, journal, givenDag(dag, options), {
      ...options,
      snapshots: true,
    });
  }

  memoryBytes(): number {
    return this.host.kernel.memory.buffer.byteLength;
  }

  eventsSoFar(): number {
    const { kernel } = this.host;
    const at = kernel.reportPointer() + (kernel.REPORT_EVENTS.value as number);
    return new DataView(kernel.memory.buffer).getFloat64(at, true);
  }

  private fold(dag: Dag, events: readonly unknown[]): { surfaces: Surfaces } {
    this.host.journalGeneration += 1;
    this.host.useDag(dag, UNNAMED_JOURNAL);
    const { limit, surfaces } = foldEvents(this.host.kernel, dag, events);
    this.host.check(limit, UNNAMED_JOURNAL);
    return { surfaces };
  }
}

/** The id or kind an unknown-node or unknown-kind fault names, straight from the event. */
function faultSubjectOf(events: readonly unknown[]): ReportContext["faultSubject"] {
  return (index, reason) => {
    const { kind, id } = events[index] as { kind: string; id: string };
    return reason === "unknown-node" ? id : kind;
  };
}
