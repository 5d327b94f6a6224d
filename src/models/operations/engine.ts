/**
 * The engine interface of the `operations` model (docs/models/operations.md), and its reference
 * implementation; the kernel's is bindings/operations/engine.ts.
 */
import { collectBytes, type ModelEngine, UNNAMED_JOURNAL } from "../../engine.js";
import {
  AUDIT_OPTIONS,
  AUDITOR_OPTIONS,
  arrayArgument,
  auditBytesArguments,
} from "../../engine-arguments.js";
import { chooseModel } from "../../journal/choose-model.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { referenceAuditing } from "../../reference-auditor.js";
import type { AuditSource } from "../journal-source.js";
import { audit } from "./audit.js";
import type { OperationsReport } from "./report.js";

export interface OperationsAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

/** A journal's header, when it has one, must name the operations model. */
export type OperationsEngine = ModelEngine<OperationsReport, OperationsAuditOptions>;

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
    return auditWhole(await collectBytes(bytes), options);
  },
  ...referenceAuditing("operations", auditWhole, AUDITOR_OPTIONS),
};

function auditWhole(bytes: Uint8Array, options: OperationsAuditOptions): OperationsReport {
  const file = options.file ?? UNNAMED_JOURNAL;
  const journal = readJsonlJournal(bytes, file, "operations");
  chooseModel(file, journal.header?.model ?? null, "operations", "the operations engine");
  const { events, lines, tornTail } = journal;
  return audit(events, { lines, tornTail });
}
