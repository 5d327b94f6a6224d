/**
 * The reference engines' streaming auditor and resume (docs/api.md, "Streaming and resuming"):
 * what a model's reference `auditBytes` does, as a stream. The reference keeps no state it could
 * lay aside — it is the definition of correct, not a fast path — so its auditor keeps the
 * journal's bytes and audits them whole at `finish`; its snapshot holds only the prefix it covers
 * (length, next line, SHA-256), and a resume checks that prefix against the journal and audits
 * the whole journal again. A reference engine resumes from any snapshot of its model (a kernel's
 * too: its state is ignored, its prefix checked), so the two engines' resumes can be compared; a
 * kernel refuses the reference's, which has no state to restore.
 */
import { sha256 } from "./digest/sha256.js";
import {
  chunksOf,
  type JournalAuditor,
  type JournalOptions,
  type ModelEngine,
  type ResumeJournal,
  type SnapshotOptions,
  UNNAMED_JOURNAL,
} from "./engine.js";
import {
  type OptionRules,
  optionsArgument,
  resumeJournalArgument,
  snapshotArgument,
} from "./engine-arguments.js";
import { concatBytes } from "./journal/bytes.js";
import { JournalError } from "./journal/errors.js";
import { isResumableFile } from "./journal/resumable-file.js";
import type { ModelName } from "./models/registry.js";
import { checkPrefix } from "./prefix-hash.js";
import {
  decodeSnapshot,
  encodeSnapshot,
  REFERENCE_ENGINE,
  type SnapshotBody,
} from "./snapshot-format.js";

/** How a reference engine audits a whole journal: its `auditBytes`, on bytes already at hand. */
export type AuditWhole<Report, Options> = (bytes: Uint8Array, options: Options) => Report;

/** A reference engine's `openAuditor` and `resume`, from its model's name and whole audit. */
export function referenceAuditing<Report, Options extends JournalOptions>(
  model: ModelName,
  auditWhole: AuditWhole<Report, Options>,
  /** The options its auditors take: its `auditBytes`'s and the snapshot options. */
  optionRules: OptionRules,
): Pick<ModelEngine<Report, Options>, "openAuditor" | "resume"> {
  return {
    openAuditor(given?: unknown) {
      const options = optionsArgument<Options>("openAuditor(options)", given, optionRules);
      return new ReferenceAuditor(model, (bytes) => auditWhole(bytes, options), null);
    },
    async resume(givenSnapshot: unknown, givenJournal: unknown, given?: unknown) {
      const call = "resume(snapshot, journal, options)";
      const snapshot = snapshotArgument(call, givenSnapshot);
      const journal = resumeJournalArgument(call, givenJournal);
      const options = optionsArgument<Options & SnapshotOptions>(call, given, optionRules);
      const file = options.file ?? UNNAMED_JOURNAL;
      const snapshotFile = options.snapshotFile ?? file;
      const body = decodeSnapshot(snapshot, snapshotFile);
      if (body.model !== model) {
        throw new JournalError(
          snapshotFile,
          `refusing the snapshot: it is a snapshot of a "${body.model}" journal, and this is a "${model}" journal`,
        );
      }
      const bytes = await journalBytes(journal);
      const prefix = bytes.subarray(0, body.prefix.bytes);
      const found = { bytes: prefix.length, sha256: sha256().update(prefix).hex() };
      checkPrefix(found, body.prefix, file);
      const auditor = new ReferenceAuditor(model, (all) => auditWhole(all, options), body);
      auditor.write(bytes);
      return auditor;
    },
  };
}

class ReferenceAuditor<Report> implements JournalAuditor<Report> {
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;
  /** Bytes up to the last line feed written, and how many line feeds they hold. */
  private completeBytes = 0;
  private lineFeeds = 0;

  constructor(
    private readonly model: ModelName,
    private readonly audit: (bytes: Uint8Array) => Report,
    /** The snapshot resumed from; null for a fresh auditor. */
    private readonly resumedFrom: SnapshotBody | null,
  ) {}

  write(chunk: Uint8Array): void {
    this.chunks.push(chunk.slice());
    const lastFeed = chunk.lastIndexOf(LINE_FEED);
    if (lastFeed >= 0) {
      this.completeBytes = this.bytes + lastFeed + 1;
      for (const byte of chunk) if (byte === LINE_FEED) this.lineFeeds += 1;
    }
    this.bytes += chunk.length;
  }

  finish(): Report {
    return this.audit(concatBytes(this.chunks));
  }

  snapshot(): Uint8Array {
    const prefix = concatBytes(this.chunks).subarray(0, this.completeBytes);
    return encodeSnapshot({
      model: this.model,
      engine: REFERENCE_ENGINE,
      started: this.completeBytes > 0,
      headerPending: this.completeBytes === 0,
      prefix: {
        bytes: this.completeBytes,
        nextLine: this.lineFeeds + 1,
        sha256: sha256().update(prefix).hex(),
      },
    } as SnapshotBody);
  }

  advancedSinceResume(): boolean {
    return this.resumedFrom === null || this.completeBytes > this.resumedFrom.prefix.bytes;
  }
}

const LINE_FEED = 0x0a;

async function journalBytes(journal: ResumeJournal): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  if (isResumableFile(journal)) {
    for await (const chunk of journal.fromStart()) chunks.push(chunk.slice());
  } else {
    for await (const chunk of chunksOf(journal)) chunks.push(chunk.slice());
  }
  return concatBytes(chunks);
}
