/**
 * The engine interface of the `executive` model (docs/models/executive.md, "The journal and its
 * audit"), and its reference implementation: the journal read whole, its header's spec and
 * budget checked by the reader, every observation replayed through the machine.
 */
import { collectBytes, type EngineName, type JournalBytes, UNNAMED_JOURNAL } from "./engine.js";
import { chooseModel } from "./journal/choose-model.js";
import { JournalError } from "./journal/errors.js";
import type { JournalHeader } from "./journal/journal.js";
import { readJsonlJournal } from "./journal/jsonl.js";
import {
  auditExecutive,
  type ExecutiveReport,
  type ExecutiveRun,
} from "./models/executive/audit.js";

export interface ExecutiveEngine {
  readonly name: EngineName;
  /** Audits a JSONL executive journal, whose header gives the spec and budget it ran under. */
  auditBytes(bytes: JournalBytes, options?: { readonly file?: string }): Promise<ExecutiveReport>;
}

export const referenceExecutiveEngine: ExecutiveEngine = {
  name: "reference",
  async auditBytes(bytes, options = {}) {
    const file = options.file ?? UNNAMED_JOURNAL;
    const journal = readJsonlJournal(await collectBytes(bytes), file, "executive");
    chooseModel(file, journal.header?.model ?? null, "executive", "the executive engine");
    const { events, lines, tornTail } = journal;
    return auditExecutive(executiveRunOf(journal.header, file), events, { lines, tornTail });
  },
};

/** The spec and budget an executive journal's header gives; a `JournalError` when it has none. */
export function executiveRunOf(header: JournalHeader | null, file: string): ExecutiveRun {
  const run = header?.executive ?? null;
  if (run !== null) return run;
  throw new JournalError(
    file,
    'expected a header with the run\'s "spec" and "budget": an executive journal means nothing without them',
  );
}
