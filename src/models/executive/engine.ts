/**
 * The engine interface of the `executive` model (docs/models/executive.md, "The journal and its
 * audit"), and its reference implementation: the journal read whole, its header's spec and
 * budget checked by the reader, every observation replayed through the machine.
 */
import { collectBytes, type ModelEngine, UNNAMED_JOURNAL } from "../../engine.js";
import { AUDIT_OPTIONS, AUDITOR_OPTIONS, auditBytesArguments } from "../../engine-arguments.js";
import { chooseModel } from "../../journal/choose-model.js";
import type { JournalHeader } from "../../journal/journal.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { type MissingHeader, missingHeaderError, NO_HEADER } from "../../journal/missing-header.js";
import { referenceAuditing } from "../../reference-auditor.js";
import { auditExecutive, type ExecutiveReport, type ExecutiveRun } from "./audit.js";

export interface ExecutiveAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

/** An executive journal's header gives the spec and budget it ran under. */
export type ExecutiveEngine = ModelEngine<ExecutiveReport, ExecutiveAuditOptions>;

export const referenceExecutiveEngine: ExecutiveEngine = {
  name: "reference",
  async auditBytes(given: unknown, givenOptions?: unknown) {
    const { bytes, options } = auditBytesArguments<ExecutiveAuditOptions>(
      given,
      givenOptions,
      AUDIT_OPTIONS,
    );
    return auditWhole(await collectBytes(bytes), options);
  },
  ...referenceAuditing("executive", auditWhole, AUDITOR_OPTIONS),
};

function auditWhole(bytes: Uint8Array, options: ExecutiveAuditOptions): ExecutiveReport {
  const file = options.file ?? UNNAMED_JOURNAL;
  const journal = readJsonlJournal(bytes, file, "executive");
  chooseModel(file, journal.header?.model ?? null, "executive", "the executive engine");
  const { events, lines, tornTail } = journal;
  const run = executiveRunOf(journal.header, file, journal.missingHeader);
  return auditExecutive(run, events, { lines, tornTail });
}

/**
 * The spec and budget an executive journal's header gives; a `JournalError` when it has none,
 * saying why (`missing`: what line 1 is instead, when known).
 */
export function executiveRunOf(
  header: JournalHeader | null,
  file: string,
  missing: MissingHeader | null = null,
): ExecutiveRun {
  const run = (header?.fields ?? null) as ExecutiveRun | null;
  if (run !== null) return run;
  const what = 'expected a header with the run\'s "spec" and "budget"';
  const remedy = "an executive journal means nothing without them";
  throw missingHeaderError(file, "executive", what, missing ?? NO_HEADER, remedy);
}
