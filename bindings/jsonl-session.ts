/**
 * One JSONL journal streamed through the kernel: `auditBytes` is a session fed to its end, and
 * the boot gate's incremental audits are sessions that snapshot and resume.
 *
 * Bytes are held back until the first non-blank line is complete, so the reference reader can
 * say whether it is a header (and give the DAG) before the kernel starts. With snapshots on, the
 * session also hashes the journal's complete lines, the prefix a snapshot covers.
 */

import { type Sha256, sha256 } from "../src/digest/sha256.js";
import { type AuditBytesOptions, UNNAMED_JOURNAL } from "../src/engine.js";
import { chooseDag, type GivenDag } from "../src/journal/choose-dag.js";
import { JournalError } from "../src/journal/errors.js";
import { FirstLineHold } from "../src/journal/first-line.js";
import { type Dag, makeDag } from "../src/models/dag/dag.js";
import type { Report } from "../src/models/dag/report.js";
import type { KernelHost } from "./kernel-host.js";
import { PrefixHash, resumeAfterPrefix } from "./prefix-hash.js";
import { readReport } from "./read-report.js";
import {
  type DagSnapshotBody,
  decodeSnapshot,
  encodeSnapshot,
  fromBase64,
  snapshotOfModel,
  toBase64,
} from "./snapshot-format.js";

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

export interface AuditorOptions extends AuditBytesOptions {
  /** Hash the journal as it streams, so `snapshot()` can be taken (costs a SHA-256 pass). */
  readonly snapshots?: boolean;
  /** Names the snapshot in errors about it. */
  readonly snapshotFile?: string;
}

export class JsonlSession implements JournalAuditor {
  private readonly file: string;
  private readonly generation: number;
  /** The first chunks, until the first non-blank line is complete; null once the kernel has started. */
  private held: FirstLineHold | null = new FirstLineHold();
  private dag: Dag | null = null;
  private prefix: PrefixHash | null;
  /** The bytes the snapshot this session resumed from covers; null when it did not resume. */
  private resumedAt: number | null = null;

  constructor(
    private readonly host: KernelHost,
    private readonly given: GivenDag | null,
    options: AuditorOptions,
  ) {
    this.file = options.file ?? UNNAMED_JOURNAL;
    this.generation = ++host.journalGeneration;
    this.prefix = options.snapshots ? new PrefixHash(sha256(), 0) : null;
  }

  write(chunk: Uint8Array): void {
    this.assertCurrent();
    if (this.held === null) this.feed(chunk);
    else if (this.held.hold(chunk)) this.start(this.held);
  }

  finish(): Report {
    this.assertCurrent();
    if (this.held !== null) this.start(this.held);
    this.host.check(this.host.kernel.finishJsonl(), this.file);
    this.host.journalGeneration += 1; // the report is read; the kernel is free for the next journal
    return readReport(this.host.kernel, { dag: this.dag as Dag, lines: "kernel" });
  }

  snapshot(): Uint8Array {
    this.assertCurrent();
    if (this.prefix === null)
      throw new Error("statefold: open the auditor with { snapshots: true } to take snapshots");
    if (this.held !== null || this.dag === null) {
      return encodeSnapshot(emptyBody(this.given?.dag ?? null, sha256().hex()));
    }
    return encodeSnapshot(captureBody(this.host, this.dag, this.prefix));
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
    chunks: AsyncIterable<Uint8Array>,
    given: GivenDag | null,
    options: AuditorOptions,
  ): Promise<JsonlSession> {
    const file = options.file ?? UNNAMED_JOURNAL;
    const body = snapshotOfModel(
      decodeSnapshot(snapshot, options.snapshotFile ?? file),
      "dag",
      options.snapshotFile ?? file,
    );
    const snapshotDag =
      body.dag === null ? null : snapshotDagOf(body, options.snapshotFile ?? file);
    if (given !== null && snapshotDag !== null) chooseDag(file, snapshotDag, given);
    const session = new JsonlSession(
      host,
      given ?? (snapshotDag === null ? null : { dag: snapshotDag, name: "the snapshot's DAG" }),
      options,
    );
    await resumeAfterPrefix(
      body.prefix.bytes,
      chunks,
      file,
      (prefixHash) => session.restore(body, snapshotDag, prefixHash, file),
      (chunk) => session.write(chunk),
    );
    return session;
  }

  private restore(body: DagSnapshotBody, dag: Dag | null, prefixHash: Sha256, file: string): void {
    if (prefixHash.copy().hex() !== body.prefix.sha256) {
      throw new JournalError(
        file,
        `refusing the snapshot: the journal's first ${body.prefix.bytes} bytes are not the ones it covers (changed since, or another journal)`,
      );
    }
    if (this.prefix !== null) this.prefix = new PrefixHash(prefixHash, body.prefix.bytes);
    this.resumedAt = body.prefix.bytes;
    if (!body.started || dag === null) return; // nothing was audited yet: audit from the start
    this.held = null;
    this.dag = dag;
    restoreKernel(this.host, body, dag, file);
  }

  /** The first line is complete (or the input ended): choose the DAG, start the kernel, feed what was held. */
  private start(held: FirstLineHold): void {
    const headerDag = this.host.headerDag(held.firstLine(), this.file);
    this.dag = chooseDag(this.file, headerDag, this.given);
    this.host.useDag(this.dag, this.file);
    this.host.check(this.host.kernel.beginJsonl(headerDag === null ? 0 : 1), this.file);
    this.held = null;
    for (const chunk of held.chunks) this.feed(chunk);
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
    nodeRecords: "",
    paths: [],
    surfaces: [],
    report: "",
    subject: "",
  };
}

function captureBody(host: KernelHost, dag: Dag, prefix: PrefixHash): DagSnapshotBody {
  const { kernel } = host;
  const memory = () => new Uint8Array(kernel.memory.buffer);
  const records = memory().slice(
    kernel.nodeStatesPointer(),
    kernel.nodeStatesPointer() + dag.nodes.length * NODE_RECORD_BYTES,
  );
  const paths: string[] = [];
  for (let path = 0; path < kernel.pathCountNow(); path++) {
    paths.push(
      toBase64(
        memory().slice(
          kernel.pathPointer(path),
          kernel.pathPointer(path) + kernel.pathLength(path),
        ),
      ),
    );
  }
  const surfaces = dag.nodes.map((_, node) => {
    if (kernel.isSurfaceMalformed(node) !== 0) return null;
    const start = kernel.surfacePointer(node);
    return Array.from(
      new Uint32Array(kernel.memory.buffer.slice(start, start + kernel.surfaceLength(node) * 4)),
    );
  });
  const reportBytes = kernel.REPORT_BYTES.value as number;
  const report = memory().slice(kernel.reportPointer(), kernel.reportPointer() + reportBytes);
  const view = new DataView(report.buffer);
  const subjectPointer = view.getUint32(kernel.REPORT_SUBJECT_POINTER.value as number, true);
  const subjectLength = view.getUint32(kernel.REPORT_SUBJECT_LENGTH.value as number, true);
  return {
    model: "dag",
    dag: { nodes: dag.nodes },
    started: true,
    headerPending: kernel.isHeaderPending() !== 0,
    prefix: {
      bytes: kernel.prefixBytes(),
      nextLine: kernel.prefixLineNumber(),
      sha256: prefix.hash.copy().hex(),
    },
    nodeRecords: toBase64(records),
    paths,
    surfaces,
    report: toBase64(report),
    subject: toBase64(memory().slice(subjectPointer, subjectPointer + subjectLength)),
  };
}

function snapshotDagOf(body: DagSnapshotBody, file: string): Dag {
  const made = makeDag(body.dag?.nodes ?? []);
  if (!made.ok)
    throw new JournalError(
      file,
      `refusing the snapshot: its DAG is not one (${made.rejection.reason})`,
    );
  return made.dag;
}

/** Lays the snapshot's state into a freshly begun journal; its shape is checked before any write. */
function restoreKernel(host: KernelHost, body: DagSnapshotBody, dag: Dag, file: string): void {
  const { kernel } = host;
  const refuse = (why: string) => new JournalError(file, `refusing the snapshot: ${why}`);
  const records = fromBase64(body.nodeRecords);
  const report = fromBase64(body.report);
  if (records.length !== dag.nodes.length * NODE_RECORD_BYTES)
    throw refuse("its node records do not fit its DAG");
  if (report.length !== (kernel.REPORT_BYTES.value as number))
    throw refuse("its report block has the wrong size");
  if (body.surfaces.length !== dag.nodes.length) throw refuse("its surfaces do not fit its DAG");
  const isPathId = (path: unknown) =>
    Number.isInteger(path) && (path as number) >= 0 && (path as number) < body.paths.length;
  for (const surface of body.surfaces) {
    if (surface !== null && !(Array.isArray(surface) && surface.every(isPathId))) {
      throw refuse("a surface names a path it does not hold");
    }
  }
  host.useDag(dag, file);
  host.check(kernel.beginJsonl(body.headerPending ? 1 : 0), file);
  new Uint8Array(kernel.memory.buffer, kernel.nodeStatesPointer(), records.length).set(records);
  for (const [id, encoded] of body.paths.entries()) {
    const bytes = fromBase64(encoded);
    const room = kernel.restoreRoom(bytes.length);
    if (room === 0) throw refuse("the kernel's memory cannot hold its paths");
    new Uint8Array(kernel.memory.buffer, room, bytes.length).set(bytes);
    if (Number(kernel.restorePath(room, bytes.length)) !== id)
      throw refuse("it holds the same path twice");
  }
  for (const [node, surface] of body.surfaces.entries()) {
    if (surface === null) kernel.restoreMalformedSurface(node);
    if (surface === null || surface.length === 0) continue;
    const room = kernel.restoreRoom(surface.length * 4);
    if (room === 0) throw refuse("the kernel's memory cannot hold its surfaces");
    new Uint32Array(kernel.memory.buffer, room, surface.length).set(surface);
    if (kernel.restoreSurface(node, room, surface.length) === 0)
      throw refuse("the kernel's memory cannot hold its surfaces");
  }
  new Uint8Array(kernel.memory.buffer, kernel.reportPointer(), report.length).set(report);
  const subject = fromBase64(body.subject);
  const subjectRoom = kernel.adoptRestoredReport(subject.length);
  new Uint8Array(kernel.memory.buffer, subjectRoom, subject.length).set(subject);
  kernel.resumeJsonlAt(body.prefix.bytes, body.prefix.nextLine, body.headerPending ? 1 : 0);
}
