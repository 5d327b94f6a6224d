/** The messages between `AuditPool` and its workers (src/cli/audit-worker.ts). */
import type { FileAuditorOptions, JournalProgress } from "./file-auditor.js";
import type { JournalOutcome } from "./journal-outcome.js";

export type AuditWorkerData = FileAuditorOptions;

export interface AuditRequest {
  readonly path: string;
  /** Whether to report progress while the journal streams. */
  readonly progress: boolean;
}

export type AuditReply =
  | ({ readonly kind: "progress" } & JournalProgress)
  | { readonly kind: "done"; readonly outcome: JournalOutcome }
  /** A bug in statefold: the one-line message of what was thrown. */
  | { readonly kind: "failed"; readonly message: string };

/** How often a worker reports progress at most: a progress bar redraws about as often. */
export const PROGRESS_INTERVAL_MS = 50;
