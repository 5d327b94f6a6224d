/**
 * A journal read into JavaScript values, as the object API receives events: the header's DAG,
 * then each line parsed with `JSON.parse`. Streamed line by line, so reading a 1.4 GB journal
 * never holds its bytes whole; the parsed events are what the object API needs in memory.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import type { Dag } from "../../src/models/dag/dag.js";

export interface ParsedJournal {
  readonly dag: Dag;
  readonly events: unknown[];
  /** `events[i]` came from the 1-based line `lines[i]`. */
  readonly lines: number[];
}

/** Reads a generated journal (a header, then events that all parse). */
export async function readParsedJournal(path: string): Promise<ParsedJournal> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  let dag: Dag | null = null;
  const events: unknown[] = [];
  const lines: number[] = [];
  let lineNumber = 0;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    lineNumber += 1;
    if (line.length === 0) continue;
    if (dag === null) {
      dag = dagOfHeader(readJsonlHeader(new TextEncoder().encode(line), path));
      if (dag === null) throw new Error(`${path}: the journal has no dag header`);
      continue;
    }
    events.push(JSON.parse(line));
    lines.push(lineNumber);
  }
  if (dag === null) throw new Error(`${path}: the journal is empty`);
  return { dag, events, lines };
}
