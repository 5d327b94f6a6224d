/**
 * One JSONL journal streamed through the dag kernel: `auditBytes` is a session fed to its end, and
 * the boot gate's incremental audits are sessions that snapshot and resume. The streaming, the
 * prefix hash and resuming are every streamed model's (../streamed-session.ts); the dag's own is
 * the DAG audited against — given, or the header's, read in the kernel where it can — which a
 * snapshot holds, or leaves to the header line its prefix begins with.
 */

import { chooseDag, type GivenDag } from "../../src/journal/dag/choose-dag.js";
import { JournalError } from "../../src/journal/errors.js";
import { FirstLineHold } from "../../src/journal/first-line.js";
import { missingHeader } from "../../src/journal/missing-header.js";
import { type Dag, type DagNode, makeDag } from "../../src/models/dag/dag.js";
import type { AuditBytesOptions } from "../../src/models/dag/engine.js";
import type { Report } from "../../src/models/dag/report.js";
import type { SnapshotOptions } from "../../src/prefix-hash.js";
import { u32Bytes, u32sOf } from "../../src/snapshot-format.js";
import type { KernelExports } from "../kernel.js";
import { type StreamedAuditor, StreamedSession } from "../streamed-session.js";
import { Limit } from "./codes.js";
import { idsOf, KernelHeaderDag, referenceDag } from "./header-dag.js";
import { DAG_MEMORY_MESSAGE, type KernelHost } from "./kernel-host.js";
import { readReport } from "./read-report.js";
import { type DagSnapshotBody, HEADER_DAG, MALFORMED_SURFACE } from "./snapshot-body.js";

const NODE_RECORD_BYTES = 16;

export type JournalAuditor = StreamedAuditor<Report>;

export interface AuditorOptions extends AuditBytesOptions, SnapshotOptions {}

export class DagSession
  extends StreamedSession<KernelExports, Report, DagSnapshotBody, "dag">
  implements JournalAuditor
{
  protected readonly model = "dag";
  protected readonly memoryMessage = DAG_MEMORY_MESSAGE;
  /** The DAG audited against; null until the kernel started. */
  private dag: Dag | KernelHeaderDag | null = null;
  /** Whether the DAG is the journal header's (a snapshot then leaves it to the header). */
  private dagFromHeader = false;
  /** The DAG a snapshot being resumed from holds; null when it holds none or leaves it to the header. */
  private snapshotDag: Dag | null = null;

  constructor(
    private readonly host: KernelHost,
    private given: GivenDag | null,
    options: AuditorOptions,
  ) {
    super(host, options);
  }

  /** A limit also has the host load its DAG again (kernel-host.ts). */
  protected override check(limit: number): void {
    if (limit !== Limit.NONE) this.host.forgetDag();
    super.check(limit);
  }

  /** Chooses the DAG and starts the kernel; a header the kernel read is not fed to it again. */
  protected begin(firstLine: Uint8Array, complete: boolean): number {
    const headerDag = this.host.headerDag(firstLine, this.file);
    const dag = this.chosenDag(headerDag, firstLine);
    this.host.useDag(dag, this.file);
    this.dag = dag;
    if (headerDag === null || !complete) {
      this.check(this.kernel.beginJsonl(headerDag === null ? 0 : 1));
      return 0;
    }
    // The header line is read: the kernel starts on the line after it, and never holds it.
    this.check(this.kernel.beginJsonl(0));
    this.kernel.resumeJsonlAt(firstLine.length, 2, 0);
    return firstLine.length;
  }

  protected override leadingFields(started: boolean): Pick<DagSnapshotBody, "dag"> {
    if (!started) return { dag: this.given === null ? null : { nodes: this.given.dag.nodes } };
    if (this.dagFromHeader) return { dag: HEADER_DAG };
    return { dag: { nodes: referenceDag(this.dag as Dag | KernelHeaderDag).nodes } };
  }

  protected emptyStateFields() {
    return {
      nodeRecords: new Uint8Array(0),
      pathBytes: new Uint8Array(0),
      pathEnds: new Uint8Array(0),
      surfaceLengths: new Uint8Array(0),
      surfaceIds: new Uint8Array(0),
      report: new Uint8Array(0),
      subject: new Uint8Array(0),
    };
  }

  protected stateFields() {
    return kernelState(this.kernel, idsOf(this.dag as Dag | KernelHeaderDag).nodeCount);
  }

  /**
   * The snapshot's DAG, checked against the one given beside it; a hold for the journal's first
   * line when the DAG is the header's (the prefix covers it).
   */
  protected override resumeWith(body: DagSnapshotBody, snapshotFile: string): FirstLineHold | null {
    const snapshotDag =
      body.dag === null || body.dag === HEADER_DAG ? null : snapshotDagOf(body.dag, snapshotFile);
    if (this.given !== null && snapshotDag !== null) chooseDag(this.file, snapshotDag, this.given);
    this.given ??= snapshotDag === null ? null : { dag: snapshotDag, name: "the snapshot's DAG" };
    this.snapshotDag = snapshotDag;
    return body.dag === HEADER_DAG ? new FirstLineHold() : null;
  }

  /** Lays the snapshot's state into the kernel: the journal goes on after its prefix. */
  protected restoreState(
    body: DagSnapshotBody,
    snapshotFile: string,
    firstLine: FirstLineHold | null,
  ): void {
    const dag = firstLine === null ? this.snapshotDag : this.resumedHeaderDag(firstLine);
    if (dag === null) {
      throw new JournalError(
        snapshotFile,
        "refusing the snapshot: it started auditing, but names no DAG",
      );
    }
    this.dag = dag;
    restoreKernel(this.host, body, dag, this.file);
  }

  protected readReport(): Report {
    return readReport(this.kernel, {
      ids: idsOf(this.dag as Dag | KernelHeaderDag),
      lines: "kernel",
    });
  }

  /** The DAG of the header the snapshot's prefix begins with, chosen as a fresh audit would. */
  private resumedHeaderDag(held: FirstLineHold): Dag | KernelHeaderDag {
    const headerDag = held.complete ? this.host.headerDag(held.firstLine(), this.file) : null;
    if (headerDag === null) {
      throw new JournalError(
        this.file,
        "refusing the snapshot: it audits against the journal header's DAG, but the journal starts with no header",
      );
    }
    return this.chosenDag(headerDag, held.firstLine());
  }

  /**
   * The DAG to audit against, given the header's: the one given beside it, when they agree. Notes
   * whether it is the header's. `firstLine` tells why there is no header, when there is none.
   */
  private chosenDag(
    headerDag: Dag | KernelHeaderDag | null,
    firstLine: Uint8Array,
  ): Dag | KernelHeaderDag {
    this.dagFromHeader = headerDag !== null && this.given === null;
    if (headerDag instanceof KernelHeaderDag && this.given === null) return headerDag;
    if (headerDag === null) return chooseDag(this.file, null, this.given, missingHeader(firstLine));
    return chooseDag(this.file, referenceDag(headerDag), this.given);
  }
}

/** The kernel's state over the complete lines, as a dag body's fields (in the format's order). */
function kernelState(kernel: KernelExports, nodeCount: number) {
  const memory = () => new Uint8Array(kernel.memory.buffer);
  const records = memory().slice(
    kernel.nodeStatesPointer(),
    kernel.nodeStatesPointer() + nodeCount * NODE_RECORD_BYTES,
  );
  // The kernel keeps the interned paths' bytes one after another in id order, and its tables
  // little-endian, as the format is (assembly/dag/surface.ts): they are read as arrays.
  const pathCount = kernel.pathCountNow();
  const pathStarts = new Uint32Array(
    kernel.memory.buffer,
    kernel.pathStartsPointer(),
    pathCount + 1,
  );
  const firstStart = pathStarts[0] as number;
  const pathEnds = pathStarts.map((start) => start - firstStart).subarray(1);
  const firstPath = pathCount === 0 ? 0 : kernel.pathPointer(0);
  const pathBytes = memory().slice(firstPath, firstPath + (pathEnds[pathCount - 1] ?? 0));
  const lengths = new Uint32Array(kernel.memory.buffer, kernel.surfaceLengthsPointer(), nodeCount);
  const malformed = new Uint8Array(
    kernel.memory.buffer,
    kernel.surfaceMalformedPointer(),
    nodeCount,
  );
  const surfaceLengths = new Uint32Array(nodeCount);
  let idCount = 0;
  for (let node = 0; node < nodeCount; node++) {
    const length = malformed[node] !== 0 ? MALFORMED_SURFACE : (lengths[node] as number);
    surfaceLengths[node] = length;
    if (length !== MALFORMED_SURFACE) idCount += length;
  }
  const ids = new Uint32Array(idCount);
  const starts = new Uint32Array(kernel.memory.buffer, kernel.surfaceStartsPointer(), nodeCount);
  const arenaAt = kernel.surfaceArenaPointer();
  const arena = new Uint32Array(
    kernel.memory.buffer,
    arenaAt,
    (kernel.memory.buffer.byteLength - arenaAt) >> 2,
  );
  for (let node = 0, at = 0; node < nodeCount; node++) {
    const length = surfaceLengths[node] as number;
    if (length === MALFORMED_SURFACE) continue;
    const start = starts[node] as number;
    for (let i = 0; i < length; i++) ids[at++] = arena[start + i] as number;
  }
  const reportBytes = kernel.REPORT_BYTES.value as number;
  const report = memory().slice(kernel.reportPointer(), kernel.reportPointer() + reportBytes);
  const view = new DataView(report.buffer);
  const subjectPointer = view.getUint32(kernel.REPORT_SUBJECT_POINTER.value as number, true);
  const subjectLength = view.getUint32(kernel.REPORT_SUBJECT_LENGTH.value as number, true);
  return {
    nodeRecords: records,
    pathBytes,
    pathEnds: u32Bytes(pathEnds),
    surfaceLengths: u32Bytes(surfaceLengths),
    surfaceIds: u32Bytes(ids),
    report,
    subject: memory().slice(subjectPointer, subjectPointer + subjectLength),
  };
}

function snapshotDagOf(dag: { readonly nodes: readonly DagNode[] }, file: string): Dag {
  const made = makeDag(dag.nodes ?? []);
  if (!made.ok)
    throw new JournalError(
      file,
      `refusing the snapshot: its DAG is not one (${made.rejection.reason})`,
    );
  return made.dag;
}

function copyInto(kernel: KernelExports, at: number, bytes: Uint8Array): void {
  new Uint8Array(kernel.memory.buffer, at, bytes.length).set(bytes);
}

/** Begins a journal with the snapshot's state laid in; its shape is checked before any write. */
function restoreKernel(
  host: KernelHost,
  body: DagSnapshotBody,
  dag: Dag | KernelHeaderDag,
  file: string,
): void {
  const { nodeCount } = idsOf(dag);
  const { kernel } = host;
  const refuse = (why: string) => new JournalError(file, `refusing the snapshot: ${why}`);
  const bytesOf = (field: keyof DagSnapshotBody): Uint8Array => {
    const bytes = body[field];
    if (bytes instanceof Uint8Array) return bytes;
    throw refuse(`its ${field} is not a section of bytes`);
  };
  const u32sOfField = (field: keyof DagSnapshotBody): Uint32Array => {
    const values = u32sOf(bytesOf(field));
    if (values === null) throw refuse(`its ${field} is not a whole number of u32s`);
    return values;
  };
  const records = bytesOf("nodeRecords");
  const report = bytesOf("report");
  const subject = bytesOf("subject");
  const pathBytes = bytesOf("pathBytes");
  const pathEnds = u32sOfField("pathEnds");
  const surfaceLengths = u32sOfField("surfaceLengths");
  const surfaceIds = bytesOf("surfaceIds");
  if (records.length !== nodeCount * NODE_RECORD_BYTES)
    throw refuse("its node records do not fit its DAG");
  if (report.length !== (kernel.REPORT_BYTES.value as number))
    throw refuse("its report block has the wrong size");
  let end = 0;
  for (const pathEnd of pathEnds) {
    if (pathEnd < end) throw refuse("its path ends run backwards");
    end = pathEnd;
  }
  if (end !== pathBytes.length) throw refuse("its path ends do not fit its path bytes");
  if (surfaceLengths.length !== nodeCount) throw refuse("its surfaces do not fit its DAG");
  let ids = 0;
  for (const length of surfaceLengths) if (length !== MALFORMED_SURFACE) ids += length;
  if (ids * 4 !== surfaceIds.length) throw refuse("its surface ids do not fit its surfaces");
  const idValues = u32sOf(surfaceIds) as Uint32Array;
  if (idValues.some((path) => path >= pathEnds.length)) {
    throw refuse("a surface names a path it does not hold");
  }

  host.useDag(dag, file);
  host.check(kernel.beginJsonl(body.headerPending ? 1 : 0), file);
  copyInto(kernel, kernel.nodeStatesPointer(), records);
  // Each table is copied in with the u32s first, then interned or stored in one call.
  const restored = (outcome: number, what: string) => {
    if (outcome === (kernel.RESTORE_DUPLICATE_PATH.value as number))
      throw refuse("it holds the same path twice");
    if (outcome !== (kernel.RESTORED.value as number))
      throw refuse(`the kernel's memory cannot hold its ${what}`);
  };
  const pathRoom = kernel.restoreRoom(pathEnds.byteLength + pathBytes.length);
  if (pathRoom === 0) throw refuse("the kernel's memory cannot hold its paths");
  copyInto(kernel, pathRoom, bytesOf("pathEnds"));
  copyInto(kernel, pathRoom + pathEnds.byteLength, pathBytes);
  restored(kernel.restorePaths(pathRoom + pathEnds.byteLength, pathRoom, pathEnds.length), "paths");
  const surfaceRoom = kernel.restoreRoom(surfaceLengths.byteLength + surfaceIds.length);
  if (surfaceRoom === 0) throw refuse("the kernel's memory cannot hold its surfaces");
  copyInto(kernel, surfaceRoom, bytesOf("surfaceLengths"));
  copyInto(kernel, surfaceRoom + surfaceLengths.byteLength, surfaceIds);
  const idsAt = surfaceRoom + surfaceLengths.byteLength;
  restored(kernel.restoreSurfaces(surfaceRoom, idsAt, MALFORMED_SURFACE), "surfaces");
  copyInto(kernel, kernel.reportPointer(), report);
  copyInto(kernel, kernel.adoptRestoredReport(subject.length), subject);
}
