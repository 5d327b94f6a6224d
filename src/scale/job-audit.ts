/**
 * One bulk job's journal audited as `statefold audit` audits it — the same engines, models and
 * options — with a snapshot handed to `commit` every `snapshotEveryBytes`, and resumed from the
 * last committed one when the job was taken over. Snapshots are the gate's (src/cli/
 * snapshotting-auditor.ts): the wasm engine, JSONL journals. The reference engine, journals of
 * a format a model reads itself (.lisp-expr) and journals that are JSON documents (a model
 * defined by data whose records are an array's) are audited whole, as `audit` does; a worker
 * that takes such a job over starts again.
 */
import { statSync } from "node:fs";
import {
  type AuditOptions,
  type AuditRun,
  auditJournalFile,
  peekJournalModel,
} from "../cli/engine.js";
import { journalsAreDocuments } from "../cli/model-choice.js";
import { openSnapshottingAuditor } from "../cli/snapshotting-auditor.js";
import { JournalError } from "../journal/errors.js";
import { ownFormatOf } from "../journal/model-inputs.js";
import { readFileHashed } from "../journal/read-descriptor.js";
import { readFileChunks } from "../journal/read-file-bytes.js";
import { decodeSnapshot } from "../snapshot-format.js";

export interface JobAuditOptions extends AuditOptions {
  readonly snapshotEveryBytes: number;
  /** Told the bytes read so far, for a progress line. */
  readonly onRead?: (bytes: number) => void;
  /** Told why a snapshot was not resumed from (the journal changed since it was taken). */
  readonly notice: (message: string) => void;
}

/** Commits a snapshot, and the bytes read when it was taken; rejects when the lease is lost. */
export type CommitSnapshot = (snapshot: Uint8Array, bytesRead: number) => Promise<void>;

export async function auditJob(
  path: string,
  resumeFrom: Uint8Array | null,
  options: JobAuditOptions,
  commit: CommitSnapshot,
): Promise<AuditRun> {
  if (auditedWhole(path, options)) return auditJournalFile(path, options);
  if (resumeFrom === null) {
    // A journal no longer than a snapshot's worth is audited as `audit` audits it: hashing it for
    // snapshots that will not be taken started a hashing thread per journal (10× slower on small
    // journals).
    const bytes = statSync(path, { throwIfNoEntry: false })?.size ?? null;
    if (bytes !== null && bytes <= options.snapshotEveryBytes) {
      return auditJournalFile(path, options, bytes);
    }
    return auditSnapshotting(path, null, options, commit);
  }
  try {
    return await auditSnapshotting(path, resumeFrom, options, commit);
  } catch (error) {
    if (!(error instanceof JournalError) || !error.message.includes("refusing the snapshot")) {
      throw error;
    }
    options.notice(`${error.message}; auditing it again from the start`);
    return auditSnapshotting(path, null, options, commit);
  }
}

/** The reference engine, a format a model reads itself, a JSON document: audited in one go. */
function auditedWhole(path: string, options: JobAuditOptions): boolean {
  const { engine, model } = options;
  return (
    engine !== "wasm" ||
    ownFormatOf(path) !== null ||
    (model !== undefined && journalsAreDocuments(model))
  );
}

async function auditSnapshotting(
  path: string,
  resumeFrom: Uint8Array | null,
  options: JobAuditOptions,
  commit: CommitSnapshot,
): Promise<AuditRun> {
  const snapshotName = `${path} (the job's snapshot)`;
  const coveredBytes =
    resumeFrom === null ? 0 : decodeSnapshot(resumeFrom, snapshotName).prefix.bytes;
  // A fresh audit has its lines hashed by the thread reading them (as the gate's first snapshot).
  const hashed = resumeFrom === null ? readFileHashed(path) : null;
  const peeked = await peekJournalModel(
    hashed?.chunks ?? readFileChunks(path),
    path,
    "wasm",
    options.model,
  );
  const chunks = peeked.chunks[Symbol.asyncIterator]();
  try {
    const split = new PrefixSplit(chunks, coveredBytes);
    const auditor = await openSnapshottingAuditor(
      peeked.model,
      resumeFrom === null ? null : { bytes: resumeFrom, journal: split.prefix() },
      {
        file: path,
        modelFlags: options.modelFlags,
        model: options.model,
        snapshotFile: snapshotName,
        digests: hashed?.digests,
      },
    );
    let bytesRead = coveredBytes;
    let sinceSnapshot = 0;
    for await (const chunk of split.rest()) {
      auditor.write(chunk);
      bytesRead += chunk.length;
      sinceSnapshot += chunk.length;
      options.onRead?.(bytesRead);
      if (sinceSnapshot >= options.snapshotEveryBytes) {
        sinceSnapshot = 0;
        await commit(auditor.snapshot(), bytesRead);
      }
    }
    return { file: path, report: auditor.finish(), bytesRead };
  } finally {
    await chunks.return?.();
  }
}

/**
 * A journal's chunks cut where a snapshot's prefix ends: the prefix goes to the resume, which
 * checks its digest; what follows is audited here, a snapshot taken as it goes.
 */
class PrefixSplit {
  /** The part of the chunk the prefix ended in that lies after it (copied: readers reuse chunks). */
  private leftover: Uint8Array | null = null;

  constructor(
    private readonly chunks: AsyncIterator<Uint8Array>,
    private readonly prefixBytes: number,
  ) {}

  async *prefix(): AsyncGenerator<Uint8Array> {
    let seen = 0;
    while (seen < this.prefixBytes) {
      const next = await this.chunks.next();
      if (next.done === true) return;
      const chunk = next.value;
      const wanted = Math.min(chunk.length, this.prefixBytes - seen);
      seen += wanted;
      if (wanted < chunk.length) this.leftover = chunk.slice(wanted);
      yield chunk.subarray(0, wanted);
    }
  }

  async *rest(): AsyncGenerator<Uint8Array> {
    if (this.leftover !== null) yield this.leftover;
    this.leftover = null;
    while (true) {
      const next = await this.chunks.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
}
