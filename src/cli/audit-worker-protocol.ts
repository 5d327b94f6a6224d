/** The messages between `AuditPool` and its workers (src/cli/audit-worker.ts). */
import type { JournalProgress } from "./audit-tally.js";
import type { FileAuditorOptions } from "./file-auditor.js";
import type { JournalOutcome } from "./journal-outcome.js";

export type AuditWorkerData = FileAuditorOptions;

/** Journals to audit in this order (several small ones, or one), with their listed sizes. */
export interface AuditRequest {
  readonly journals: readonly { readonly path: string; readonly bytes: number | null }[];
  /** Whether to report progress while a journal streams. */
  readonly progress: boolean;
}

/** Each reply is about the oldest journals sent and not yet answered for, in order. */
export type AuditReply =
  | ({ readonly kind: "progress" } & JournalProgress)
  | { readonly kind: "done"; readonly outcomes: readonly JournalOutcome[] }
  /** A bug in statefold: the one-line message of what was thrown. */
  | { readonly kind: "failed"; readonly message: string };

/** How often a worker reports progress at most: a progress bar redraws about as often. */
export const PROGRESS_INTERVAL_MS = 50;
