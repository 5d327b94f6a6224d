/**
 * Reading journal files from disk: the reader is chosen by extension (`.lisp-expr` is the
 * librecode runtime journal, anything else JSONL) and the DAG comes from `--dag` or the
 * journal's header.
 */
import { statSync } from "node:fs";
import type { Dag } from "../models/dag/dag.js";
import type { ExecutiveRun } from "../models/executive/audit.js";
import { readParsedSpec } from "../models/executive/spec.js";
import type { TornTail } from "../models/journal-source.js";
import type { ModelName } from "../models/registry.js";
import { chooseModel } from "./choose-model.js";
import { chooseDag } from "./dag/choose-dag.js";
import { parseDagFile } from "./dag/dag-file.js";
import { dagOfHeader } from "./dag/header.js";
import { readLispExprJournal } from "./dag/lisp-expr.js";
import { JournalError } from "./errors.js";
import type { Journal, JournalHeader } from "./journal.js";
import { parseJsonFile } from "./json-file.js";
import { describeJsonPath } from "./json-value-error.js";
import { readJsonlHeader, readJsonlJournal } from "./jsonl.js";
import { readFileBytes } from "./read-file-bytes.js";

export { JournalError } from "./errors.js";
export type { Journal } from "./journal.js";

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
  const journal = readJournal(path);
  chooseModel(path, journal.header?.model ?? null, "dag", "dag journals only here");
  return dagJournalFile(path, journal, options);
}

/** A journal file of a model other than dag: its entries, for that model to judge. */
export interface OtherJournalFile {
  readonly model: Exclude<ModelName, "dag">;
  readonly file: string;
  readonly header: JournalHeader | null;
  /** Its model's own header fields, as the model read them; null without a header. */
  readonly fields: unknown;
  readonly events: readonly unknown[];
  readonly lines: readonly number[];
  readonly tornTail: TornTail | null;
}

/** A dag journal file: its fields are the DAG it is audited against (its header's or `--dag`). */
type DagJournalFile = {
  readonly model: "dag";
  readonly header: JournalHeader | null;
  readonly fields: Dag;
} & JournalFile;

/**
 * A journal file of whichever model its header names (or `options.model`, which must agree);
 * a .lisp-expr journal is a dag journal.
 */
export function readAnyJournalFile(
  path: string,
  options: ReadJournalOptions & { readonly model?: ModelName | undefined } = {},
): DagJournalFile | OtherJournalFile {
  return readAnyJournal(path, readFileBytes(path), options);
}

/** `readAnyJournalFile` of bytes read elsewhere (the standard input), named `path` in reports. */
export function readAnyJournal(
  path: string,
  bytes: Uint8Array,
  options: ReadJournalOptions & { readonly model?: ModelName | undefined } = {},
): DagJournalFile | OtherJournalFile {
  const journal = readJournal(path, bytes, options.model);
  const headerModel = isLispExprJournal(path) ? "dag" : (journal.header?.model ?? null);
  const model = chooseModel(path, headerModel, options.model);
  if (model === "dag") {
    const file = dagJournalFile(path, journal, options);
    return { model, header: journal.header, fields: file.dag, ...file };
  }
  if (options.dagPath !== undefined) {
    throw new JournalError(path, `--dag is for dag journals; an ${model} journal needs none`);
  }
  const { header, events, lines, tornTail } = journal;
  return { model, file: path, header, fields: header?.fields ?? null, events, lines, tornTail };
}

function dagJournalFile(path: string, journal: Journal, options: ReadJournalOptions): JournalFile {
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
 * A spec file and a budget file (`statefold executive`, `explore --model executive`), read and
 * checked as a journal's header is: a refusal names the file its path lies in.
 */
export function readExecutiveRunFiles(specFile: string, budgetFile: string): ExecutiveRun {
  const spec = parseJsonFile(readFileBytes(specFile), specFile, 'a spec {"task", "plan"}').value;
  const budget = parseJsonFile(
    readFileBytes(budgetFile),
    budgetFile,
    'a budget {"steps", "depth", …}',
  ).value;
  const read = readParsedSpec(spec, budget);
  if (read.ok) return { spec: read.spec, budget: read.budget };
  const [first, ...rest] = read.rejection.path;
  const inBudget = first === "budget";
  const where = describeJsonPath(inBudget ? rest : read.rejection.path) || "the top level";
  throw new JournalError(
    inBudget ? budgetFile : specFile,
    `refused (${read.rejection.reason}) at ${where}`,
  );
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
  chooseModel(path, header.model, "dag", "a DAG");
  return dagOfHeader(header) as Dag;
}

/** `model`: the model given for the journal, which a header naming none is read as. */
function readJournal(path: string, bytes = readFileBytes(path), model?: ModelName): Journal {
  if (isLispExprJournal(path)) return readLispExprJournal(bytes, path);
  return readJsonlJournal(bytes, path, model);
}

export function isLispExprJournal(path: string): boolean {
  return path.endsWith(".lisp-expr");
}
