/**
 * Generated journals for the benchmarks, of every model, written once to the system's temp folder
 * and reused (generation is deterministic, so a file's name says all about its content). What a
 * model's journals are made of and how they are named is the model's (bench/<model>/journals.ts).
 */
import { createWriteStream, existsSync, renameSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface JournalFile {
  readonly path: string;
  readonly bytes: number;
}

/** The benchmarks' own folder in the temp folder. */
export const BENCH_FOLDER = join(tmpdir(), "statefold-bench");

/**
 * The journal named `name` in `folder`: written once from `texts`, each followed by `terminator`,
 * then reused (a file's name says all about its content). JSONL unless `extension` says otherwise
 * (a journal that is a JSON document is `.json`).
 */
export async function journalFile(
  folder: string,
  name: string,
  texts: () => Iterable<string>,
  terminator: "\n" | "",
  extension = ".jsonl",
): Promise<JournalFile> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${name}${extension}`);
  if (!existsSync(path)) await writeTexts(path, texts(), terminator);
  return { path, bytes: statSync(path).size };
}

/** A file name's suffix for the options given: `-d3` for `["d", 3]`; an absent one says nothing. */
export function suffixOf(optional: readonly [string, number | undefined][]): string {
  return optional.map(([key, value]) => (value === undefined ? "" : `-${key}${value}`)).join("");
}

/** Batches of about this many characters: a line or a 64 K piece alike, one write a mebibyte. */
const BATCH_CHARS = 1 << 20;

/** Each text followed by `terminator`, written in batches, then renamed into place whole. */
async function writeTexts(
  path: string,
  texts: Iterable<string>,
  terminator: "\n" | "",
): Promise<void> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  let pending: string[] = [];
  let pendingChars = 0;
  for (const text of texts) {
    pending.push(text);
    pendingChars += text.length;
    if (pendingChars >= BATCH_CHARS) {
      if (!out.write(`${pending.join(terminator)}${terminator}`))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      pending = [];
      pendingChars = 0;
    }
  }
  out.write(pending.length > 0 ? `${pending.join(terminator)}${terminator}` : "");
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  renameSync(partial, path);
}
