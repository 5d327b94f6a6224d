/**
 * `loadEngine()`: the WASM engine, with the reference's API (src/models/dag/engine.ts) and deep-equal
 * reports. One engine owns one kernel instance and audits one journal at a time; it keeps the
 * last DAG loaded, so auditing many journals over one DAG loads it once.
 */

import type { ResumeJournal } from "../../src/engine.js";
import { chunksOf, UNNAMED_JOURNAL } from "../../src/engine.js";
import {
  arrayArgument,
  optionsArgument,
  resumeJournalArgument,
  snapshotArgument,
} from "../../src/engine-arguments.js";
import type { Dag } from "../../src/models/dag/dag.js";
import {
  dagAuditBytesArguments,
  type Engine,
  givenDag,
  isDagOrNull,
  withDagArgument,
} from "../../src/models/dag/engine.js";
import { LogIntegrityError } from "../../src/models/dag/events.js";
import { DAG_AUDITOR_OPTIONS, dagArgument } from "../../src/models/dag/option-rules.js";
import type { Report } from "../../src/models/dag/report.js";
import type { EventLog, ModelState } from "../../src/models/dag/state.js";
import type { AuditSource } from "../../src/models/journal-source.js";
import type { ModelName } from "../../src/models/registry.js";
import {
  instantiateKernel,
  type KernelFlavour,
  type KernelSource,
  supportsSimd,
} from "../kernel.js";
import { foldEvents, type Surfaces } from "./fold-records.js";
import { nodeIdsOf } from "./header-dag.js";
import { type AuditorOptions, DagSession, type JournalAuditor } from "./jsonl-session.js";
import { KernelHost } from "./kernel-host.js";
import { type ReportContext, readIntegrityFault, readReport } from "./read-report.js";

export interface LoadEngineOptions {
  /** The kernel module; by default the built file beside this package (fetched in a browser). */
  readonly wasm?: KernelSource;
  /** Which build; by default SIMD where the engine supports it. */
  readonly flavour?: KernelFlavour;
}

export interface WasmEngine extends Engine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /**
   * A JSONL journal as a stream you write to: the auditor behind `auditBytes`, for a runtime that
   * appends. With `{ snapshots: true }` it can `snapshot()` its state to `resume` from later.
   */
  openAuditor(options?: AuditorOptions): JournalAuditor;
  /** The older form, still taken: the DAG (null for the header's) before the options. */
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
    options?: AuditorOptions,
  ): Promise<JournalAuditor>;
  /** The older form, still taken: the DAG (null for the snapshot's) before the options. */
  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
    dag: Dag | null | undefined,
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

  audit(dag: unknown, events: unknown, source: AuditSource = {}): Report {
    const call = "audit(dag, events, source)";
    const checkedDag = dagArgument(call, dag);
    const checkedEvents = arrayArgument(call, "events", events);
    this.fold(checkedDag, checkedEvents);
    const context = {
      ids: nodeIdsOf(checkedDag),
      lines: source.lines,
      faultSubject: faultSubjectOf(checkedEvents),
    };
    return { ...readReport(this.host.kernel, context), tornTail: source.tornTail ?? null };
  }

  replay(dag: unknown, events: unknown): ModelState {
    const call = "replay(dag, events)";
    return this.replayChecked(dagArgument(call, dag), arrayArgument(call, "events", events));
  }

  async auditBytes(...args: unknown[]): Promise<Report> {
    const { bytes, options } = dagAuditBytesArguments(args);
    const auditor = this.openChecked(options);
    for await (const chunk of chunksOf(bytes)) auditor.write(chunk);
    return auditor.finish();
  }

  headerModel(firstLine: Uint8Array, file: string): ModelName | null {
    return this.host.headerModel(firstLine, file);
  }

  openAuditor(...args: unknown[]): JournalAuditor {
    if (isDagOrNull(args[0])) {
      const call = "openAuditor(dag, options)";
      return this.openChecked(withDagArgument(call, args[0], args[1], DAG_AUDITOR_OPTIONS));
    }
    const call = "openAuditor(options)";
    return this.openChecked(optionsArgument<AuditorOptions>(call, args[0], DAG_AUDITOR_OPTIONS));
  }

  async resume(snapshot: unknown, journal: unknown, ...rest: unknown[]): Promise<JournalAuditor> {
    const olderForm = isDagOrNull(rest[0]) || rest.length > 1;
    const call = olderForm
      ? "resume(snapshot, journal, dag, options)"
      : "resume(snapshot, journal, options)";
    const checkedSnapshot = snapshotArgument(call, snapshot);
    const checkedJournal = resumeJournalArgument(call, journal);
    const options = olderForm
      ? withDagArgument<AuditorOptions>(call, olderDag(call, rest[0]), rest[1], DAG_AUDITOR_OPTIONS)
      : optionsArgument<AuditorOptions>(call, rest[0], DAG_AUDITOR_OPTIONS);
    const snapshotting = { ...options, snapshots: true };
    const given = givenDag(options.dag ?? null, options);
    return new DagSession(this.host, given, snapshotting).resumeFrom(
      checkedSnapshot,
      checkedJournal,
      snapshotting,
    );
  }

  memoryBytes(): number {
    return this.host.kernel.memory.buffer.byteLength;
  }

  eventsSoFar(): number {
    const { kernel } = this.host;
    const at = kernel.reportPointer() + (kernel.REPORT_EVENTS.value as number);
    return new DataView(kernel.memory.buffer).getFloat64(at, true);
  }

  private openChecked(options: AuditorOptions): JournalAuditor {
    return new DagSession(this.host, givenDag(options.dag ?? null, options), options);
  }

  private replayChecked(dag: Dag, events: readonly unknown[]): ModelState {
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

  private fold(dag: Dag, events: readonly unknown[]): { surfaces: Surfaces } {
    this.host.generation += 1;
    this.host.useDag(dag, UNNAMED_JOURNAL);
    const { limit, surfaces } = foldEvents(this.host.kernel, dag, events);
    this.host.check(limit, UNNAMED_JOURNAL);
    return { surfaces };
  }
}

/** The DAG argument of `resume`'s older form: a DAG, or null or nothing for the snapshot's. */
function olderDag(call: string, dag: unknown): Dag | null {
  return dag === undefined || dag === null ? null : dagArgument(call, dag);
}

/** The id or kind an unknown-node or unknown-kind fault names, straight from the event. */
function faultSubjectOf(events: readonly unknown[]): ReportContext["faultSubject"] {
  return (index, reason) => {
    const { kind, id } = events[index] as { kind: string; id: string };
    return reason === "unknown-node" ? id : kind;
  };
}
