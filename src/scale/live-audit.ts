/**
 * A live journal's audit (docs/scale-out.md, "Live"): its bytes as the runtime appends them, fed
 * to the gate's snapshotting auditor (src/cli/snapshotting-auditor.ts) a complete line at a time —
 * the bytes of an unfinished line are held, and committed with the snapshot — and at each
 * checkpoint the first breach of every rule so far, each told once.
 *
 * A live snapshot's prefix is named by the journal's stream, whose entries up to the one a
 * checkpoint reached never change, not hashed: its digest is one of the journal's name and length
 * (`liveDigest`), and a watcher resuming from it vouches for the prefix instead of reading it
 * again. The report so far is read by finishing the auditor and resuming it from the snapshot just
 * taken (the kernel finishes a journal only at its end: its rules are checked line by line).
 */
import { createHash } from "node:crypto";
import type { ModelFlagValues } from "../cli/model-flags.js";
import { openSnapshottingAuditor, type SnapshottingAuditor } from "../cli/snapshotting-auditor.js";
import type { JournalDigests } from "../digest/journal-digests.js";
import { readJsonlHeaderModel } from "../journal/jsonl.js";
import type { ResumableFile } from "../journal/resumable-file.js";
import type { ModelAnswer, ModelName, ModelReport } from "../models/registry.js";
import { journalReports } from "../models/report-frame.js";
import { journalTitle } from "../report/wording.js";
import { decodeSnapshot } from "../snapshot-format.js";

export interface LiveAuditOptions {
  readonly modelFlags: ModelFlagValues;
  readonly model: ModelName | undefined;
  /** The journal's bytes from its start, read as far as its first line (a header can be big: a dag header's DAG). */
  readonly firstLine: () => AsyncIterable<Uint8Array>;
}

const LINE_FEED = 0x0a;

export class LiveAudit {
  private auditor: SnapshottingAuditor | null = null;
  /** Bytes after the last complete line fed (and, before the first line is complete, all of them). */
  private held: Uint8Array;
  private readonly published: Set<string>;

  private constructor(
    private readonly journal: string,
    private readonly options: LiveAuditOptions,
    tail: Uint8Array,
    published: readonly string[],
  ) {
    this.held = tail;
    this.published = new Set(published);
  }

  /** A journal's audit, fresh or from a checkpoint (its snapshot, unfinished line and findings). */
  static async open(
    journal: string,
    options: LiveAuditOptions,
    from: { snapshot: Uint8Array | null; tail: Uint8Array; published: readonly string[] },
  ): Promise<LiveAudit> {
    const live = new LiveAudit(journal, options, from.tail, from.published);
    if (from.snapshot !== null && from.snapshot.length > 0) {
      live.auditor = await live.resume(from.snapshot);
    }
    return live;
  }

  /** Audits the lines these bytes complete. */
  async append(chunk: Uint8Array): Promise<void> {
    const bytes = concat(this.held, chunk);
    const end = bytes.lastIndexOf(LINE_FEED) + 1;
    this.held = bytes.slice(end);
    if (end === 0) return;
    const lines = bytes.subarray(0, end);
    this.auditor ??= await this.openFresh(lines);
    this.auditor.write(lines);
  }

  /** The checkpoint to commit: the snapshot, the unfinished line, the rules' first breaches not yet told. */
  async checkpoint(): Promise<{
    snapshot: Uint8Array;
    tail: Uint8Array;
    published: string[];
    findings: string[];
  }> {
    if (this.auditor === null) {
      return { snapshot: new Uint8Array(0), tail: this.held, published: [], findings: [] };
    }
    const snapshot = this.auditor.snapshot();
    const soFar = this.auditor.finish();
    this.auditor = await this.resume(snapshot);
    const findings = this.newFindings(soFar);
    return { snapshot, tail: this.held, published: [...this.published], findings };
  }

  /**
   * The journal ended: its report (an unfinished last line a torn tail, as `audit` says), and the
   * breaches not told at a checkpoint.
   */
  async finish(): Promise<{ report: ModelAnswer; findings: string[] }> {
    const tail = this.held;
    this.held = new Uint8Array(0);
    this.auditor ??= await this.openFresh(tail);
    this.auditor.write(tail);
    const report = this.auditor.finish();
    return { report, findings: this.newFindings(report) };
  }

  /** A stream split into journals (docs/models/data.md) tells each journal's breaches under its title. */
  private newFindings(answer: ModelAnswer): string[] {
    const findings: string[] = [];
    for (const report of journalReports(answer)) {
      const journal = journalTitle(this.journal, report);
      for (const [rule, breach] of firstBreaches(report)) {
        const told = journal === this.journal ? rule : `${journal} ${rule}`;
        if (this.published.has(told)) continue;
        this.published.add(told);
        findings.push(JSON.stringify({ journal, rule, breach }));
      }
    }
    return findings;
  }

  private openFresh(firstBytes: Uint8Array): Promise<SnapshottingAuditor> {
    const end = firstBytes.indexOf(LINE_FEED);
    const firstLine = end < 0 ? firstBytes : firstBytes.subarray(0, end);
    const headerModel = readJsonlHeaderModel(firstLine, this.journal);
    return openSnapshottingAuditor(headerModel, null, this.auditorOptions());
  }

  private resume(snapshot: Uint8Array): Promise<SnapshottingAuditor> {
    const body = decodeSnapshot(snapshot, this.auditorOptions().snapshotFile);
    return openSnapshottingAuditor(
      body.model,
      {
        bytes: snapshot,
        journal: vouchedPrefix(body.prefix, this.options.firstLine, this.journal),
      },
      this.auditorOptions(),
    );
  }

  private auditorOptions() {
    return {
      file: this.journal,
      modelFlags: this.options.modelFlags,
      model: this.options.model,
      snapshotFile: `${this.journal} (its live snapshot)`,
      digests: liveDigest(this.journal),
    };
  }
}

/** A live journal's prefix digest: its name and length (see the file's comment). */
function liveDigest(journal: string): JournalDigests {
  return {
    hex: (bytes) =>
      createHash("sha256").update(`statefold-live\n${journal}\n${bytes}`).digest("hex"),
  };
}

/** The journal as a resume sees it: the prefix the snapshot covers vouched for, nothing after it. */
function vouchedPrefix(
  covered: { readonly bytes: number; readonly sha256: string },
  firstLine: () => AsyncIterable<Uint8Array>,
  journal: string,
): ResumableFile {
  return {
    fromStart: firstLine,
    afterPrefix: () => ({
      chunks: (async function* () {})(),
      digests: liveDigest(journal),
      prefix: async () => ({ bytes: covered.bytes, sha256: covered.sha256 }),
      stop() {},
    }),
    close() {},
  };
}

/** Each broken rule's first breach in a report: its invariants, then integrity and legality. */
function firstBreaches(report: ModelReport): [string, unknown][] {
  const breaches: [string, unknown][] = [];
  for (const [rule, verdict] of Object.entries(report.invariants)) {
    if ((verdict as { holds?: boolean }).holds === false) breaches.push([rule, verdict]);
  }
  if (report.integrity !== null) breaches.push(["integrity", report.integrity]);
  const firstIllegal = report.legality.first[0];
  if (firstIllegal !== undefined) breaches.push(["legality", firstIllegal]);
  return breaches;
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  if (first.length === 0) return second.slice();
  const bytes = new Uint8Array(first.length + second.length);
  bytes.set(first);
  bytes.set(second, first.length);
  return bytes;
}
