/**
 * One JSONL journal streamed through the kernel: `auditBytes` is a session fed to its end, and
 * the boot gate's incremental audits are sessions that snapshot and resume.
 *
 * Bytes are held back until line 1 is complete, so the reference reader can
 * say whether it is a header (and give the DAG) before the kernel starts. With snapshots on, the
 * session also hashes the journal's complete lines, the prefix a snapshot covers.
 */

import { sha256 } from "../../src/digest/sha256.js";
import { type ResumeJournal, UNNAMED_JOURNAL } from "../../src/engine.js";
import { checkWrittenChunk } from "../../src/engine-arguments.js";
import { chooseDag, type GivenDag } from "../../src/journal/dag/choose-dag.js";
import { JournalError } from "../../src/journal/errors.js";
import { FirstLineHold } from "../../src/journal/first-line.js";
import { missingHeader } from "../../src/journal/missing-header.js";
import { type Dag, type DagNode, makeDag } from "../../src/models/dag/dag.js";
import type { AuditBytesOptions } from "../../src/models/dag/engine.js";
import type { Report } from "../../src/models/dag/report.js";
import {
  type PrefixDigest,
  prefixDigest,
  resumeAfterPrefix,
  type SnapshotOptions,
} from "../../src/prefix-hash.js";
import {
  decodeSnapshot,
  encodeSnapshot,
  snapshotOfModel,
  u32Bytes,
  u32sOf,
} from "../../src/snapshot-format.js";
import type { KernelExports } from "../kernel.js";
import { idsOf, KernelHeaderDag, referenceDag } from "./header-dag.js";
import type { KernelHost } from "./kernel-host.js";
import { readReport } from "./read-report.js";
import { type DagSnapshotBody, HEADER_DAG, MALFORMED_SURFACE } from "./snapshot-body.js";

const NODE_RECORD_BYTES = 16;

export interface JournalAuditor {
  /** Audits the lines these bytes complete (the bytes may be reused once this returns). */
  write(chunk: Uint8Array): void;
  /** Ends the journal — an unterminated last line that does not parse is a torn tail — and reports. */
  finish(): Report;
  /** The state over the journal's complete lines so far, to `resume` from once more is appended. */
  snapshot(): Uint8Array;
  /**
   * False when the auditor was resumed and no line has been completed since: the snapshot it
   * resumed from covers what a new one would, and still stands.
   */
  advancedSinceResume(): boolean;
}

export interface AuditorOptions extends AuditBytesOptions, SnapshotOptions {}

export class JsonlSession implements JournalAuditor {
  private readonly file: string;
  private readonly generation: number;
  /** The first chunks, until line 1 is complete; null once the kernel has started. */
  private held: FirstLineHold | null = new FirstLineHold();
  private dag: Dag | KernelHeaderDag | null = null;
  /** Whether the DAG is the journal header's (a snapshot then leaves it to the header). */
  private dagFromHeader = false;
  private prefix: PrefixDigest | null;
  /** The bytes the snapshot this session resumed from covers; null when it did not resume. */
  private resumedAt: number | null = null;

  constructor(
    private readonly host: KernelHost,
    private readonly given: GivenDag | null,
    options: AuditorOptions,
  ) {
    this.file = options.file ?? UNNAMED_JOURNAL;
    this.generation = ++host.journalGeneration;
    this.prefix = options.snapshots ? prefixDigest(options.digests) : null;
  }

  write(chunk: Uint8Array): void {
    this.assertCurrent();
    checkWrittenChunk(chunk);
    if (this.held === null) this.feed(chunk);
    else if (this.held.hold(chunk)) this.start(this.held);
  }

  finish(): Report {
    this.assertCurrent();
    if (this.held !== null) this.start(this.held);
    this.host.check(this.host.kernel.finishJsonl(), this.file);
    this.host.journalGeneration += 1; // the report is read; the kernel is free for the next journal
    return readReport(this.host.kernel, {
      ids: idsOf(this.dag as Dag | KernelHeaderDag),
      lines: "kernel",
    });
  }

  snapshot(): Uint8Array {
    this.assertCurrent();
    if (this.prefix === null)
      throw new Error("statefold: open the auditor with { snapshots: true } to take snapshots");
    if (this.held !== null || this.dag === null) {
      return encodeSnapshot(emptyBody(this.given?.dag ?? null, sha256().hex()));
    }
    const dag = this.dagFromHeader ? HEADER_DAG : { nodes: referenceDag(this.dag).nodes };
    return encodeSnapshot(captureBody(this.host, idsOf(this.dag).nodeCount, dag, this.prefix));
  }

  advancedSinceResume(): boolean {
    const covered = this.held === null ? this.host.kernel.prefixBytes() : 0;
    return this.resumedAt === null || covered > this.resumedAt;
  }

  /**
   * Continues a journal from a snapshot: the journal's first `prefix.bytes` must hash as the
   * snapshot says; only the bytes after them are audited.
   */
  static async resume(
    host: KernelHost,
    snapshot: Uint8Array,
    journal: ResumeJournal,
    given: GivenDag | null,
    options: AuditorOptions,
  ): Promise<JsonlSession> {
    const file = options.file ?? UNNAMED_JOURNAL;
    const body = snapshotOfModel<DagSnapshotBody>(
      decodeSnapshot(snapshot, options.snapshotFile ?? file),
      "dag",
      options.snapshotFile ?? file,
    );
    const snapshotDag =
      body.dag === null || body.dag === HEADER_DAG
        ? null
        : snapshotDagOf(body.dag, options.snapshotFile ?? file);
    if (given !== null && snapshotDag !== null) chooseDag(file, snapshotDag, given);
    const session = new JsonlSession(
      host,
      given ?? (snapshotDag === null ? null : { dag: snapshotDag, name: "the snapshot's DAG" }),
      options,
    );
    // A DAG that was the header's is read from the journal's first line, which the prefix covers.
    const firstLine = body.dag === HEADER_DAG ? new FirstLineHold() : null;
    await resumeAfterPrefix({
      journal,
      covered: body.prefix,
      file,
      firstLine,
      digest: session.prefix,
      restore: (digest) => {
        session.prefix = digest;
        session.resumedAt = body.prefix.bytes;
        const dag = firstLine === null ? snapshotDag : session.resumedHeaderDag(firstLine);
        if (body.started && dag !== null) session.restore(body, dag, file);
      },
      write: (chunk) => session.write(chunk),
    });
    return session;
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

  /** Lays the snapshot's state into the kernel: the journal goes on after its prefix. */
  private restore(body: DagSnapshotBody, dag: Dag | KernelHeaderDag, file: string): void {
    this.held = null;
    this.dag = dag;
    restoreKernel(this.host, body, dag, file);
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

  /** The first line is complete (or the input ended): choose the DAG, start the kernel, feed what was held. */
  private start(held: FirstLineHold): void {
    const firstLine = held.firstLine();
    const headerDag = this.host.headerDag(firstLine, this.file);
    this.dag = this.chosenDag(headerDag, firstLine);
    this.host.useDag(this.dag, this.file);
    const { kernel } = this.host;
    this.held = null;
    if (headerDag === null || !held.complete) {
      this.host.check(kernel.beginJsonl(headerDag === null ? 0 : 1), this.file);
      for (const chunk of held.chunks) this.feed(chunk);
      return;
    }
    // The header line is read: the kernel starts on the line after it, and never holds it.
    this.host.check(kernel.beginJsonl(0), this.file);
    kernel.resumeJsonlAt(firstLine.length, 2, 0);
    this.prefix?.advance(firstLine, firstLine.length);
    let skip = firstLine.length;
    for (const chunk of held.chunks) {
      if (skip < chunk.length) this.feed(chunk.subarray(skip));
      skip = Math.max(0, skip - chunk.length);
    }
  }

  private feed(chunk: Uint8Array): void {
    this.host.feed(chunk, this.file);
    this.prefix?.advance(chunk, this.host.kernel.prefixBytes());
  }

  private assertCurrent(): void {
    if (this.host.journalGeneration !== this.generation) {
      throw new Error(
        "statefold: this auditor is finished, or its engine has started another journal since",
      );
    }
  }
}

function emptyBody(dag: Dag | null, emptyHash: string): DagSnapshotBody {
  return {
    model: "dag",
    dag: dag === null ? null : { nodes: dag.nodes },
    started: false,
    headerPending: false,
    prefix: { bytes: 0, nextLine: 1, sha256: emptyHash },
    nodeRecords: new Uint8Array(0),
    pathBytes: new Uint8Array(0),
    pathEnds: new Uint8Array(0),
    surfaceLengths: new Uint8Array(0),
    surfaceIds: new Uint8Array(0),
    report: new Uint8Array(0),
    subject: new Uint8Array(0),
  };
}

function captureBody(
  host: KernelHost,
  nodeCount: number,
  dag: DagSnapshotBody["dag"],
  prefix: PrefixDigest,
): DagSnapshotBody {
  const { kernel } = host;
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
  // The kernel's state is copied first: the hashing thread finishes the prefix meanwhile, and
  // its digest is waited for last. The key order is the format's.
  const state = {
    nodeRecords: records,
    pathBytes,
    pathEnds: u32Bytes(pathEnds),
    surfaceLengths: u32Bytes(surfaceLengths),
    surfaceIds: u32Bytes(ids),
    report,
    subject: memory().slice(subjectPointer, subjectPointer + subjectLength),
  };
  return {
    model: "dag",
    dag,
    started: true,
    headerPending: kernel.isHeaderPending() !== 0,
    prefix: {
      bytes: kernel.prefixBytes(),
      nextLine: kernel.prefixLineNumber(),
      sha256: prefix.hex(kernel.prefixBytes()),
    },
    ...state,
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

/** Lays the snapshot's state into a freshly begun journal; its shape is checked before any write. */
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
  kernel.resumeJsonlAt(body.prefix.bytes, body.prefix.nextLine, body.headerPending ? 1 : 0);
}
