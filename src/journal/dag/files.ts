/**
 * The dag model's journal and DAG files (docs/journals.md): a dag journal file — JSONL, or the
 * librecode runtime's `.lisp-expr` — with the DAG it is audited against (`--dag`, or the
 * header's), DAG files read once while unchanged, and the DAG a file describes for `layers`.
 * Reads files: a browser page never imports this module.
 */
import { statSync } from "node:fs";
import type { Dag } from "../../models/dag/dag.js";
import type { TornTail } from "../../models/journal-source.js";
import { chooseModel } from "../choose-model.js";
import { JournalError } from "../errors.js";
import type { Journal } from "../journal.js";
import { readJsonlHeader, readJsonlJournal } from "../jsonl.js";
import { contentName, readFileBytes } from "../read-file-bytes.js";
import { chooseDag } from "./choose-dag.js";
import { parseDagFile } from "./dag-file.js";
import { dagOfHeader } from "./header.js";
import { readLispExprJournal } from "./lisp-expr.js";

const DAG_MODEL = "dag";

/** A journal read from a file, with the DAG it is audited against. */
export interface JournalFile {
  readonly file: string;
  readonly dag: Dag;
  readonly events: readonly unknown[];
  /** `events[i]` came from the 1-based line `lines[i]`. */
  readonly lines: readonly number[];
  readonly tornTail: TornTail | null;
}

export interface ReadJournalOptions {
  /** A DAG file; required when the journal has no header, checked against it when it has. */
  readonly dagPath?: string | undefined;
}

export function readJournalFile(path: string, options: ReadJournalOptions = {}): JournalFile {
  const journal = readDagJournal(path);
  chooseModel(path, journal.header?.model ?? null, DAG_MODEL, "dag journals only here");
  return dagJournalFile(path, journal, options);
}

export function dagJournalFile(
  path: string,
  journal: Journal,
  options: ReadJournalOptions,
): JournalFile {
  const given =
    options.dagPath === undefined
      ? null
      : { dag: readDagFile(options.dagPath), name: options.dagPath };
  const dag = chooseDag(path, dagOfHeader(journal.header), given, journal.missingHeader);
  const { events, lines, tornTail } = journal;
  return { file: path, dag, events, lines, tornTail };
}

/**
 * The DAG files read so far, by path, size and modification time: auditing a thousand journals
 * against one `--dag` parses it once, and the engine, seeing the same DAG object, loads it into
 * the kernel once; a file changed since is read again.
 */
const dagFiles = new Map<string, { readonly version: string; readonly dag: Dag }>();

/**
 * A DAG file (`--dag`), parsed once while it stays unchanged: the same `Dag` object for the same
 * size and modification time. Errors are `parseDagFile`'s and `readFileBytes`'s. (Here rather than
 * in dag-file.ts, which a browser page loads and so must not touch `node:fs`.)
 */
export function readDagFile(path: string): Dag {
  const stats = statSync(path, { throwIfNoEntry: false });
  const version = stats === undefined ? "" : `${stats.size}:${stats.mtimeMs}`;
  const known = dagFiles.get(path);
  if (known !== undefined && version !== "" && known.version === version) return known.dag;
  const dag = parseDagFile(readFileBytes(path), path);
  dagFiles.set(path, { version, dag });
  return dag;
}

/**
 * The DAG a file describes, for `layers`: a JSONL journal's header, or else the file read as a
 * DAG file; `bytes`, when given, are the file's, read elsewhere (the standard input).
 */
export function readDagOf(path: string, bytes?: Uint8Array): Dag {
  if (isLispExprJournal(path)) {
    const detail =
      "expected a DAG file or a JSONL journal with a header, found a .lisp-expr journal, which carries no DAG";
    throw new JournalError(path, detail);
  }
  const read = bytes ?? readFileBytes(path);
  const header = readJsonlHeader(read, path);
  if (header === null) return parseDagFile(read, path);
  chooseModel(path, header.model, DAG_MODEL, "a DAG");
  return dagOfHeader(header) as Dag;
}

/** A dag journal file's entries, read by the reader its name calls for. */
function readDagJournal(path: string, bytes = readFileBytes(path)): Journal {
  if (isLispExprJournal(path)) return readLispExprJournal(bytes, path);
  return readJsonlJournal(bytes, path, DAG_MODEL);
}

export function isLispExprJournal(path: string): boolean {
  return contentName(path).endsWith(".lisp-expr");
}
