/**
 * The engine interface of the `operations` model (docs/models/operations.md), and its reference
 * implementation; the kernel's is bindings/operations. Apart from src/engine.ts so that the dag
 * engines do not load the operations model.
 */
import { collectBytes, type EngineName, type JournalBytes, UNNAMED_JOURNAL } from "../../engine.js";
import { AUDIT_OPTIONS, arrayArgument, auditBytesArguments } from "../../engine-arguments.js";
import { chooseModel } from "../../journal/choose-model.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import type { AuditSource } from "../journal-source.js";
import { audit } from "./audit.js";
import type { OperationsReport } from "./report.js";

export interface OperationsAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

export interface OperationsEngine {
  readonly name: EngineName;
  /** Audits a JSONL journal; a header, when there is one, must name the operations model. */
  auditBytes(bytes: JournalBytes, options?: OperationsAuditOptions): Promise<OperationsReport>;
}

export const referenceOperationsEngine: OperationsEngine & {
  /** The report for a journal's records (any values; the audit judges them). */
  audit(records: readonly unknown[], source?: AuditSource): OperationsReport;
} = {
  name: "reference",
  audit(records: unknown, source?: AuditSource) {
    return audit(arrayArgument("audit(records, source)", "records", records), source);
  },
  async auditBytes(given: unknown, givenOptions?: unknown) {
    const { bytes, options } = auditBytesArguments<OperationsAuditOptions>(
      given,
      givenOptions,
      AUDIT_OPTIONS,
    );
    const file = options.file ?? UNNAMED_JOURNAL;
    const journal = readJsonlJournal(await collectBytes(bytes), file, "operations");
    chooseModel(file, journal.header?.model ?? null, "operations", "the operations engine");
    const { events, lines, tornTail } = journal;
    return audit(events, { lines, tornTail });
  },
};
