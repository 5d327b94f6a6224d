/** The messages between the page (main.ts) and its audit worker (audit-worker.ts). */
import type { ModelAnswer, RegisteredModelName } from "../src/models/registry.js";

/**
 * The page's Model: a model statefold ships, by its name, or a model file picked (JSON or YAML,
 * checked as `statefold audit --model FILE` checks it: docs/models/data.md).
 */
export type ModelPick = { readonly name: RegisteredModelName } | { readonly file: File };

/**
 * What the page asks: audit this journal, against this DAG file if one is given, as a journal of
 * `model` (null: of the model its header names, else dag — as `statefold audit` without `--model`).
 * Without a journal, only the model file picked is checked.
 */
export interface AuditRequest {
  readonly journal: File | null;
  readonly dag: File | null;
  readonly model: ModelPick | null;
}

export type AuditMessage =
  /** Bytes of the journal read so far of `total`, and the events audited (null if unknown). */
  | {
      readonly type: "progress";
      readonly bytes: number;
      readonly total: number;
      readonly events: number | null;
    }
  /** Gathering the findings' context after the verdicts. */
  | { readonly type: "context" }
  /**
   * The verdicts (a report, or a split stream's `{"journals": [...]}`, as `statefold audit
   * --format json` prints them), the HTML report's page for them (src/report), and the time taken.
   */
  | {
      readonly type: "done";
      readonly report: ModelAnswer;
      readonly html: string;
      readonly auditMs: number;
    }
  /** The model file picked, checked with no journal yet: the model it states, how its journals are written. */
  | { readonly type: "model"; readonly name: string; readonly journals: string }
  /** The files could not be audited: why, in one line. */
  | { readonly type: "unreadable"; readonly message: string }
  /** A bug in statefold (or the browser): its message. */
  | { readonly type: "failed"; readonly message: string };
