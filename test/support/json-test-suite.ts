/**
 * JSONTestSuite (vendored in test/data/json-test-suite, read only): its folder, the files
 * that fit on one JSONL line, and the ways such a file's bytes stand in a journal.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { concatBytes, encode } from "./bytes.js";

export const JSON_TEST_SUITE = join(import.meta.dirname, "../data/json-test-suite/test_parsing");

const LF = 0x0a;

export interface SuiteFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * The files that fit on one JSONL line, by name: those without a line feed, and those whose only
 * line feed is their last byte, taken without it (it is a line end, not JSON content, in either
 * reading).
 */
export function oneLineSuiteFiles(): SuiteFile[] {
  return readdirSync(JSON_TEST_SUITE)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => {
      const bytes = new Uint8Array(readFileSync(join(JSON_TEST_SUITE, name)));
      const lf = bytes.indexOf(LF);
      return { name, bytes: lf === bytes.length - 1 ? bytes.subarray(0, lf) : bytes };
    })
    .filter(({ bytes }) => !bytes.includes(LF));
}

const EVENT = encode('{"kind":"dispatched","id":"A"}\n');

/** The ways a file's bytes stand in a journal (node A's DAG). */
export const PLACEMENTS: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  "as an extra field's value": (bytes) =>
    concatBytes(encode('{"kind":"dispatched","id":"A","x":'), bytes, encode("}\n")),
  "as a line of its own": (bytes) => concatBytes(EVENT, bytes, encode("\n")),
  "as an unterminated final line": (bytes) => concatBytes(EVENT, bytes),
};
