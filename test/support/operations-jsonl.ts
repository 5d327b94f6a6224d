/**
 * An `operations` JSONL journal as the reference reads it: the project's one JSONL reader
 * (src/journal/jsonl.ts), whose header must name the operations model or none — what the reference
 * `audit(records, { lines, tornTail })` takes.
 */
import { chooseModel } from "../../src/journal/choose-model.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import type { TornTail } from "../../src/models/journal-source.js";

export interface OperationsJournal {
  readonly records: unknown[];
  readonly lines: number[];
  readonly tornTail: TornTail | null;
}

export function readOperationsJournal(bytes: Uint8Array, file = "<journal>"): OperationsJournal {
  const journal = readJsonlJournal(bytes, file, "operations");
  chooseModel(file, journal.header?.model ?? null, "operations", "the operations engine");
  return { records: journal.events, lines: journal.lines, tornTail: journal.tornTail };
}
