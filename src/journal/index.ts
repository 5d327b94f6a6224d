/**
 * Reading a journal file of any model: the model's own reader where its name calls for one (the
 * dag's `.lisp-expr`), JSONL otherwise; the model its header names, or the one given (which must
 * agree); and the model's own fields it is audited with — its header's, or those its flags give
 * (the dag's `--dag FILE`).
 */

import type { TornTail } from "../models/journal-source.js";
import type { Model } from "../models/model.js";
import { type ModelName, modelNamed } from "../models/registry.js";
import { chooseModel } from "./choose-model.js";
import type { Journal, JournalHeader } from "./journal.js";
import { readJsonlJournal } from "./jsonl.js";
import { type ModelFlagValues, ownFormatOf, refuseForeignFlags } from "./model-inputs.js";
import { readFileBytes } from "./read-file-bytes.js";

export { JournalError } from "./errors.js";
export type { Journal } from "./journal.js";

/** A journal file read whole, with its model and the model's fields it is audited with. */
export interface AnyJournalFile {
  readonly model: ModelName;
  readonly file: string;
  readonly header: JournalHeader | null;
  /** The model's own fields: its header's as the model read them, or its flags' (a dag's DAG). */
  readonly fields: unknown;
  readonly events: readonly unknown[];
  /** `events[i]` came from the 1-based line `lines[i]`. */
  readonly lines: readonly number[];
  readonly tornTail: TornTail | null;
}

export interface ReadAnyJournalOptions {
  /** The model the journal must be of (`--model`); by default its header's, else the default. */
  readonly model?: ModelName | undefined;
  /** The models' flags given (`--dag FILE`); a journal of another model refuses them. */
  readonly modelFlags?: ModelFlagValues;
}

/** A journal file of whichever model its header names (or `options.model`, which must agree). */
export function readAnyJournalFile(
  path: string,
  options: ReadAnyJournalOptions = {},
): Promise<AnyJournalFile> {
  return readAnyJournal(path, readFileBytes(path), options);
}

/** `readAnyJournalFile` of bytes read elsewhere (the standard input), named `path` in reports. */
export async function readAnyJournal(
  path: string,
  bytes: Uint8Array,
  options: ReadAnyJournalOptions = {},
): Promise<AnyJournalFile> {
  const own = ownFormatOf(path);
  const given: Model | null = options.model === undefined ? null : modelNamed(options.model);
  const givenReader = own === null ? given?.commandLine.readJournal : undefined;
  let journal: Journal =
    givenReader !== undefined
      ? givenReader(bytes, path)
      : own === null
        ? readJsonlJournal(bytes, path, options.model)
        : await own.format.read(bytes, path);
  const headerModel = own === null ? (journal.header?.model ?? null) : own.model.name;
  const model: Model = modelNamed(
    chooseModel(path, headerModel as ModelName | null, options.model),
  );
  // A journal whose header names a model that reads its journals itself is read again by it.
  const reader = model.commandLine.readJournal;
  if (reader !== undefined && givenReader === undefined) journal = reader(bytes, path);
  const flags = options.modelFlags ?? {};
  refuseForeignFlags(path, model, flags);
  const fields = await model.commandLine.journalFields(journal, path, flags);
  const { header, events, lines, tornTail } = journal;
  return { model: model.name as ModelName, file: path, header, fields, events, lines, tornTail };
}
