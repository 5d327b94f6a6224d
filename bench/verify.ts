/**
 * Every run checks that the engines agree before it reports a figure: a fast wrong answer proves
 * nothing. The auditors' reports must be deep-equal (on the same span of the journal), XState's
 * fold must reach the same final counts, the kernel alone the same counts and illegal events, and
 * the parse-only loop must have parsed every line.
 */
import { isDeepStrictEqual } from "node:util";
import type { Report } from "../src/models/dag/report.js";
import type { EngineName, Finding } from "./engines.js";

export interface Checked {
  readonly engine: EngineName;
  readonly finding: Finding;
  /** The report of the WASM engine on the same span (the whole journal or the same prefix). */
  readonly expected: Report;
  readonly events: number;
}

/** Throws naming the first engine that disagrees. */
export function verifyFindings(scale: string, checked: readonly Checked[]): void {
  for (const { engine, finding, expected, events } of checked) {
    const fail = (what: string) => {
      throw new Error(`${scale}: ${engine} disagrees with the WASM engine: ${what}`);
    };
    if (expected.events !== events) fail(`${expected.events} events in the journal, not ${events}`);
    if ("report" in finding) {
      if (!isDeepStrictEqual(finding.report, expected)) fail(JSON.stringify(finding.report));
    } else if ("counts" in finding) {
      if (!isDeepStrictEqual(finding.counts, expected.final.counts)) {
        fail(`final counts ${JSON.stringify(finding.counts)}`);
      }
      if (finding.illegal !== undefined && finding.illegal !== expected.legality.illegal) {
        fail(`${finding.illegal} illegal events`);
      }
    } else if (finding.parsed !== events + 1) {
      fail(`parsed ${finding.parsed} lines, not the header and ${events} events`);
    }
  }
}
