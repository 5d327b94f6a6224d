/**
 * A `FileAuditor` audits journal files one call at a time and answers each with its outcome.
 * Two kinds: `InProcessAuditor` (`--jobs 1`, or a single journal) audits on this thread, one
 * journal after another, and `AuditPool` (src/cli/audit-pool.ts) on worker threads and, through
 * an `InProcessAuditor`, this one.
 */
import type { ModelName } from "../models/registry.js";
import type { PrinterOptions } from "./audit-printer.js";
import type { JournalProgress } from "./audit-tally.js";
import type { EngineName } from "./engine.js";
import {
  auditFileOutcome,
  auditStreamOutcome,
  type JournalOutcome,
  type OutcomeOptions,
} from "./journal-outcome.js";
import type { ModelFlagValues } from "./model-flags.js";

export type ProgressListener = (progress: JournalProgress) => void;

export interface FileAuditorOptions {
  readonly engine: EngineName;
  readonly modelFlags: ModelFlagValues;
  readonly model: ModelName | undefined;
  /** The model file `model` was loaded from (`--model FILE`): a worker thread loads it too. */
  readonly modelFile?: string | undefined;
  /** How each journal's output is rendered, where it is audited. */
  readonly printer: PrinterOptions;
  /** Whether outcomes carry their reports (for an HTML report). */
  readonly keepReport: boolean;
}

export interface FileAuditor {
  /**
   * Calls may overlap; the auditor queues them. `bytes` is the regular file's size when it was
   * listed (null when unknown), a hint for sharing out work and for reading it. Rejects only for
   * a bug in statefold.
   */
  audit(path: string, bytes: number | null, onProgress?: ProgressListener): Promise<JournalOutcome>;
  close(): Promise<void>;
}

export class InProcessAuditor implements FileAuditor {
  /** One engine audits one journal at a time: each audit waits for the one before. */
  private previous: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: FileAuditorOptions) {}

  audit(
    path: string,
    bytes: number | null,
    onProgress?: ProgressListener,
  ): Promise<JournalOutcome> {
    return this.inTurn(() => auditFileOutcome(path, bytes, this.withProgress(onProgress)));
  }

  /** A JSONL journal from a stream (the standard input), in its turn like a file. */
  auditStream(
    file: string,
    chunks: AsyncIterable<Uint8Array>,
    onProgress?: ProgressListener,
  ): Promise<JournalOutcome> {
    return this.inTurn(() => auditStreamOutcome(file, chunks, this.withProgress(onProgress)));
  }

  async close(): Promise<void> {
    await this.previous;
  }

  private inTurn(audit: () => Promise<JournalOutcome>): Promise<JournalOutcome> {
    const next = this.previous.then(audit);
    this.previous = next.catch(() => {});
    return next;
  }

  private withProgress(onProgress: ProgressListener | undefined): OutcomeOptions {
    if (onProgress === undefined) return this.options;
    return { ...this.options, onProgress: (bytes, events) => onProgress({ bytes, events }) };
  }
}
