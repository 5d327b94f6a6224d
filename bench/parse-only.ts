/**
 * The floor of any JavaScript auditor: `readline` + `JSON.parse` per line, no checks at all. An
 * auditor that reads the journal as JavaScript values pays at least this much. It parses any
 * JSONL, so it is measured at every model's scales; and a journal that is a JSON document as the
 * benchmarks write one — one record a line between the lines that open and close its array
 * (./json-document.ts) — each record parsed alone, without the comma after it, and the
 * frame once (its first and last lines joined, `{"events":[]}`), where a JSONL journal's header is.
 * Splitting a document into its records in JavaScript costs more than the parse itself, so no
 * reader of an arbitrary document is faster than this.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { EngineSpec } from "./bench-model.js";
import { DOCUMENT_EXTENSION } from "./json-document.js";

/** Parses every non-blank line of the file; returns how many there were. */
export async function parseOnly(path: string): Promise<number> {
  if (path.endsWith(DOCUMENT_EXTENSION)) return parseDocumentRecords(path);
  let parsed = 0;
  for await (const line of linesOf(path)) {
    if (line.length === 0) continue;
    JSON.parse(line);
    parsed += 1;
  }
  return parsed;
}

/** Parses the document's records and its frame; returns how many texts that was. */
async function parseDocumentRecords(path: string): Promise<number> {
  let opening: string | null = null;
  let pending: string | null = null;
  let parsed = 0;
  for await (const line of linesOf(path)) {
    if (line.length === 0) continue;
    if (opening === null) {
      opening = line;
      continue;
    }
    if (pending !== null) {
      JSON.parse(pending.endsWith(",") ? pending.slice(0, -1) : pending);
      parsed += 1;
    }
    pending = line;
  }
  JSON.parse(`${opening}${pending}`);
  return parsed + 1;
}

function linesOf(path: string): AsyncIterable<string> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  return createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
}

/** The parse-only floor as an engine of every model, by the name its tables and `--engines` use. */
export const PARSE_ONLY_ENGINE = {
  "parse-only": {
    label: "parse-only floor",
    input: "`readline` + `JSON.parse`",
    checks: "none",
    mayNeedPrefix: false,
    holdsParsedEvents: false,
    color: "#7f7f7f",
    prepare: async (path) => async () => ({ parsed: await parseOnly(path) }),
  },
} as const satisfies Record<string, EngineSpec>;
