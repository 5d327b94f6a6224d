/**
 * Prefixes of a journal for engines too slow to finish a scale: the header and the first events,
 * written once beside the journal (named by the count, so reused), and the choice of how many
 * events an engine can audit within the time a scale allows it. A journal that is a JSON document
 * is written by the benchmarks one record a line between the lines that open and close its array
 * (./json-document.ts): its prefix is its opening line and first records, closed.
 */
import { createReadStream, existsSync, renameSync, statSync, writeFileSync } from "node:fs";
import type { JournalFile } from "./journal-files.js";
import { DOCUMENT_CLOSE, DOCUMENT_EXTENSION } from "./json-document.js";

export interface JournalSpan extends JournalFile {
  /** Events in the file. */
  readonly events: number;
  /** Events in the whole journal this is (a prefix of). */
  readonly of: number;
}

/** The journal's header and first `events` events, as a file. */
export async function journalPrefix(journal: JournalFile, events: number): Promise<JournalFile> {
  const extension = journal.path.endsWith(DOCUMENT_EXTENSION) ? DOCUMENT_EXTENSION : ".jsonl";
  const path = `${journal.path.slice(0, -extension.length)}.first-${events}${extension}`;
  if (!existsSync(path)) {
    const lines = await firstLines(journal.path, events + 1);
    const bytes = extension === DOCUMENT_EXTENSION ? closedDocument(lines) : lines;
    writeFileSync(`${path}.partial`, bytes);
    renameSync(`${path}.partial`, path);
  }
  return { path, bytes: statSync(path).size };
}

/** The first lines of a document, its last record's comma dropped and its array closed. */
function closedDocument(lines: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(lines).replace(/,\n$/, "\n");
  return new TextEncoder().encode(`${text}${DOCUMENT_CLOSE}\n`);
}

async function firstLines(path: string, lines: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  let seen = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Uint8Array;
    let end = bytes.length;
    for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) {
      seen += 1;
      if (seen === lines) {
        end = at + 1;
        break;
      }
    }
    parts.push(bytes.subarray(0, end));
    length += end;
    if (seen === lines) break;
  }
  const all = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/**
 * How many events fit in `seconds` at the probed rate, rounded down to 1, 2 or 5 times a power
 * of ten (a prefix a reader can take in at a glance), or all of them.
 */
export function eventsWithin(seconds: number, secondsPerEvent: number, events: number): number {
  const fitting = Math.floor(seconds / secondsPerEvent);
  if (fitting >= events) return events;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, fitting)));
  const mantissa = [5, 2, 1].find((m) => m * power <= fitting) ?? 1;
  return mantissa * power;
}
