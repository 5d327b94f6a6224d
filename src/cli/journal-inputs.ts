/**
 * What a command was given, made into the journals it reads: a file stands for itself (whatever
 * its name — and if it cannot be read, the command says so in its turn), `-` for the standard
 * input (a JSONL journal), and, for `statefold audit`, a directory for every `*.jsonl` file and
 * every file of a format a model reads itself (`*.lisp-expr`) under it, each plain or gzipped
 * (`*.jsonl.gz`), found recursively and listed in a stable order: each directory's
 * entries sorted by name (UTF-16 code units, the same on every machine and locale), depth first.
 * Every command that reads journals reads `-` through here.
 */
import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { concatBytes } from "../journal/bytes.js";
import { OWN_FORMAT_EXTENSIONS } from "../journal/model-inputs.js";
import { readDescriptorChunks } from "../journal/read-descriptor.js";
import { GZIP_EXTENSION, isGzipped, readFileBytes } from "../journal/read-file-bytes.js";
import { UsageError } from "./command.js";

export const STDIN_ARGUMENT = "-";
const STDIN_FD = 0;
/** How the standard input is named in reports and errors. */
export const STDIN_NAME = "<stdin>";

export type JournalInput =
  | {
      readonly kind: "file";
      readonly path: string;
      /** Its size where known in advance; null for a pipe (`<(zcat j.jsonl.gz)`) or a device. */
      readonly bytes: number | null;
    }
  | { readonly kind: "stdin"; readonly path: typeof STDIN_NAME }
  /** A directory that could not be listed, or holds no journal: reported in its turn. */
  | { readonly kind: "unreadable"; readonly path: string; readonly message: string };

/** The one journal of a command that reads one (`gate`, `replay`, `layers`): a file or `-`. */
export type OneJournal = Exclude<JournalInput, { readonly kind: "unreadable" }>;

export function oneJournal(arg: string): OneJournal {
  return arg === STDIN_ARGUMENT
    ? { kind: "stdin", path: STDIN_NAME }
    : { kind: "file", path: arg, bytes: null };
}

/**
 * The standard input as a stream of chunks, in constant memory whatever its length (how, and why
 * so: src/journal/read-descriptor.ts). A chunk is valid until the next is asked for.
 */
export function standardInputChunks(): AsyncIterable<Uint8Array> {
  return readDescriptorChunks(STDIN_FD, STDIN_NAME, () => process.stdin);
}

/** A journal's bytes, whole, for the commands that read it whole; failures name the file. */
export async function oneJournalBytes(journal: OneJournal): Promise<Uint8Array> {
  if (journal.kind === "file") return readFileBytes(journal.path);
  const chunks: Uint8Array[] = [];
  for await (const chunk of standardInputChunks()) chunks.push(chunk.slice());
  return concatBytes(chunks);
}

/** JSONL, and the formats the models read themselves (`.lisp-expr`). */
const PLAIN_EXTENSIONS = [".jsonl", ...OWN_FORMAT_EXTENSIONS];
/** Those, plain or gzipped. */
const JOURNAL_EXTENSIONS = PLAIN_EXTENSIONS.flatMap((extension) => [
  extension,
  extension + GZIP_EXTENSION,
]);

/** `extensions`: the model's own journals' (a document model's `.json`), listed in directories too. */
export function journalInputs(
  args: readonly string[],
  extensions: readonly string[] = [],
): JournalInput[] {
  const listed = [
    ...JOURNAL_EXTENSIONS,
    ...extensions.flatMap((extension) => [extension, extension + GZIP_EXTENSION]),
  ];
  if (args.filter((arg) => arg === STDIN_ARGUMENT).length > 1)
    throw new UsageError("the standard input (-) can be audited once", "audit");
  return args.flatMap((arg): JournalInput[] => {
    if (arg === STDIN_ARGUMENT) return [{ kind: "stdin", path: STDIN_NAME }];
    const stats = statSync(arg, { throwIfNoEntry: false });
    if (stats?.isDirectory() !== true)
      return [{ kind: "file", path: arg, bytes: sizeOf(arg, stats) }];
    const found = journalsUnder(arg, listed);
    if (found.length > 0) return found;
    const patterns = [...PLAIN_EXTENSIONS, ...extensions]
      .map((extension) => `*${extension}`)
      .join(" or ");
    const message = `${arg}: expected ${patterns} journals in the directory, found none`;
    return [{ kind: "unreadable", path: arg, message }];
  });
}

function journalsUnder(directory: string, extensions: readonly string[]): JournalInput[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    const message = `${directory}: cannot list the directory: ${(error as Error).message}`;
    return [{ kind: "unreadable", path: directory, message }];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((entry): JournalInput[] => {
    const path = join(directory, entry.name);
    // Linked directories are not followed: a link back up would never end.
    if (entry.isDirectory()) return journalsUnder(path, extensions);
    if (!extensions.some((extension) => entry.name.endsWith(extension))) return [];
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isDirectory() === true) return [];
    return [{ kind: "file", path, bytes: sizeOf(path, stats) }];
  });
}

/**
 * A missing file will be read as nothing; a pipe or a device, as much as it gives; a gzipped file,
 * as much as it decompresses to, which its size does not say.
 */
function sizeOf(path: string, stats: Stats | undefined): number | null {
  if (stats === undefined) return 0;
  return stats.isFile() && !isGzipped(path) ? stats.size : null;
}
