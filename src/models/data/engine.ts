/**
 * The reference engine of a model defined by data (docs/models/data.md): a journal's bytes read
 * as the model's `records.source` says, and folded by the interpreter (audit.ts).
 */
import { collectBytes, type ModelEngine, UNNAMED_JOURNAL } from "../../engine.js";
import { AUDIT_OPTIONS, AUDITOR_OPTIONS, auditBytesArguments } from "../../engine-arguments.js";
import { readDataJournal } from "../../journal/data/read.js";
import { JournalError } from "../../journal/errors.js";
import { referenceAuditing } from "../../reference-auditor.js";
import type { ModelName } from "../registry.js";
import { auditDataEntries, type DataEntry } from "./audit.js";
import type { CompiledModel } from "./compiled.js";
import type { DataAnswer, DataReport } from "./report.js";

export interface DataAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

/** Why `auditDataBytes`, which reports one journal, refuses a stream split by `journal.key`. */
function splitStreamRefused(file: string, model: CompiledModel): JournalError {
  return new JournalError(
    file,
    `the model ${model.name} splits its stream into journals by journal.key: auditDataJournals reports each of them (docs/api.md, "Models defined by data")`,
  );
}

/**
 * Why a journal that is a JSON document is neither snapshotted nor resumed, by either engine: a
 * document is written whole, not appended to (docs/models/data.md, "Journals").
 */
export function noDocumentSnapshots(file: string): JournalError {
  return new JournalError(
    file,
    "snapshots of a journal that is a JSON document are not taken: a document is audited whole",
  );
}

/** The reference engine of a compiled model, under the name it is registered or loaded by. */
export function referenceDataEngine(
  model: CompiledModel,
  name: ModelName,
): ModelEngine<DataAnswer, DataAuditOptions> {
  const auditWhole = (bytes: Uint8Array, options: DataAuditOptions) =>
    model.journal.key === null
      ? auditDataBytes(model, bytes, options)
      : { journals: auditDataJournals(model, bytes, options) };
  const auditing = referenceAuditing(name, auditWhole, AUDITOR_OPTIONS);
  const engine = {
    name: "reference" as const,
    async auditBytes(given: unknown, givenOptions?: unknown) {
      const { bytes, options } = auditBytesArguments<DataAuditOptions>(
        given,
        givenOptions,
        AUDIT_OPTIONS,
      );
      return auditWhole(await collectBytes(bytes), options);
    },
  };
  if ("lines" in model.source) return { ...engine, ...auditing };
  const fileOf = (options: unknown) =>
    (options as DataAuditOptions | undefined)?.file ?? UNNAMED_JOURNAL;
  return {
    ...engine,
    openAuditor(options?: unknown) {
      const auditor = auditing.openAuditor(options as DataAuditOptions | undefined);
      return {
        write: (chunk: Uint8Array) => auditor.write(chunk),
        finish: () => auditor.finish(),
        snapshot: () => {
          throw noDocumentSnapshots(fileOf(options));
        },
        advancedSinceResume: () => true,
      };
    },
    async resume(_snapshot: unknown, _journal: unknown, options?: unknown) {
      throw noDocumentSnapshots(fileOf(options));
    },
  };
}

/** The reports of a journal: one, or one per journal when the model splits a stream by `journal.key`. */
export function auditDataJournals(
  model: CompiledModel,
  bytes: Uint8Array,
  options: DataAuditOptions = {},
): DataReport[] {
  const journal = readDataJournal(model, bytes, options.file ?? UNNAMED_JOURNAL);
  return auditDataEntries(model, journal.events as DataEntry[], journal.tornTail);
}

/** The report of a journal of a model that does not split streams (the reference's `auditBytes` answers for both). */
export function auditDataBytes(
  model: CompiledModel,
  bytes: Uint8Array,
  options: DataAuditOptions = {},
): DataReport {
  if (model.journal.key !== null) throw splitStreamRefused(options.file ?? UNNAMED_JOURNAL, model);
  return auditDataJournals(model, bytes, options)[0] as DataReport;
}
