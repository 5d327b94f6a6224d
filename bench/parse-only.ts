/**
 * The floor of any JavaScript auditor: `readline` + `JSON.parse` per line, no checks at all. An
 * auditor that reads the journal as JavaScript values pays at least this much.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** Parses every non-blank line of the file; returns how many there were. */
export async function parseOnly(path: string): Promise<number> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  let parsed = 0;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.length === 0) continue;
    JSON.parse(line);
    parsed += 1;
  }
  return parsed;
}
