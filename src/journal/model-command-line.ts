/**
 * What a model adds to the commands that audit (audit, gate, worker, watch): its own flags, the
 * engine options their values make, and the journal formats it reads itself beside JSONL. Every
 * model fills it in its manifest (src/models/<model>/model.ts); the commands build their flags
 * from every registered model (src/cli/model-flags.ts). Nothing here reaches the registry, so a
 * manifest may import its types.
 */
import type { JournalOptions, ModelEngine } from "../engine.js";
import type { Journal } from "./journal.js";

/** A flag of one model's, e.g. `--dag FILE`. */
export interface ModelFlag {
  /** The flag without its dashes. */
  readonly name: string;
  /** What it takes, as the help shows it (`FILE`). */
  readonly value: string;
  /** What it does, in one sentence, for the help of every command that takes it. */
  readonly help: string;
  /** What its help adds for a command that reads the model's own formats (`ownFormats`). */
  readonly helpWithOwnFormats?: string;
}

/**
 * The model flags given, by name: plain strings, so that they cross to worker threads. A journal
 * of a model is given only that model's flags (src/cli/model-flags.ts refuses the others').
 */
export type ModelFlagValues = Readonly<Record<string, string>>;

export interface ModelCommandLine<Report, Options extends JournalOptions = JournalOptions> {
  readonly flags: readonly ModelFlag[];
  /** The engine options the model's flags make (their files read); none given, none made. */
  engineOptions(given: ModelFlagValues): Promise<Omit<Options, "file">>;
  /** Journal files the model reads itself rather than as JSONL, each by the end of its name. */
  readonly ownFormats: readonly OwnJournalFormat<Report>[];
  /**
   * The model's own fields a journal read whole is audited with, for the views that read it
   * again: its header's as the model read them, or what its flags give (a dag's chosen DAG).
   */
  journalFields(journal: Journal, file: string, given: ModelFlagValues): Promise<unknown>;
  /**
   * Only for a model whose journals the shared JSONL reader does not read as it needs (a model
   * defined by data: its records may be the elements of a JSON document's array, and keep their
   * text): reads a journal of the model whole, named `path` in errors.
   */
  readJournal?(bytes: Uint8Array, path: string): Journal;
  /**
   * How the names of its journals end where JSONL's `.jsonl` does not say (a model whose records
   * are a document's array: `.json`): a directory audited with the model lists those files too.
   */
  readonly journalExtensions?: readonly string[];
  /**
   * Whether its journals are JSON documents, not lines: no line of one is a header, so none is
   * peeked for a model's name — a minified document is one line of any size, and must stream.
   */
  readonly readsDocuments?: boolean;
}

/**
 * The command line of a model that adds no flags and reads no format of its own: its journals'
 * fields are their headers'.
 */
export const HEADER_FIELDS_ONLY: ModelCommandLine<never> = {
  flags: [],
  engineOptions: async () => ({}),
  ownFormats: [],
  journalFields: async (journal) => journal.header?.fields ?? null,
};

/** A journal format of one model's, read whole by its own reader and audited by either engine. */
export interface OwnJournalFormat<Report> {
  /** How its files' names end, e.g. `.lisp-expr`. */
  readonly extension: string;
  /** Reads such a file's bytes whole into its entries, named `path` in errors. */
  read(bytes: Uint8Array, path: string): Promise<Journal>;
  /** Reads the file and audits it with `engine`, one of the model's. */
  audit(
    path: string,
    engine: ModelEngine<Report>,
    given: ModelFlagValues,
  ): Promise<{ readonly file: string; readonly report: Report }>;
}
