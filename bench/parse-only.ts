/**
 * The floor of any JavaScript auditor: `readline` + `JSON.parse` per line, no checks at all. An
 * auditor that reads the journal as JavaScript values pays at least this much. It parses any
 * JSONL, so it is measured at every model's scales.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { EngineSpec } from "./bench-model.js";

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
