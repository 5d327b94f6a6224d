/**
 * Every run checks that the engines agree before it reports a figure: a fast wrong answer proves
 * nothing. The auditors' reports must be deep-equal (on the same span of the journal) to the
 * report of the WASM engine of the journal's model, XState's fold must reach the same final
 * counts, the kernel alone the same counts and illegal events, and the parse-only loop must have
 * parsed every line.
 */
import { isDeepStrictEqual } from "node:util";
import type { ModelReport } from "../src/models/registry.js";
import {
  type BenchedModel,
  type EngineName,
  type Finding,
  modelOfEngine,
  prepareEngine,
  WASM_JSONL_ENGINES,
} from "./engines.js";

export interface Checked {
  readonly engine: EngineName;
  readonly finding: Finding;
  /**
   * The report of the WASM engine of the journal's model on the same span (the whole journal or
   * the same prefix), audited in the bench's own process (`expectedReport`).
   */
  readonly expected: ModelReport;
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
      const folded = modelOfEngine(engine);
      // A fold's counts are its model's report's `final.counts`.
      const counts = (expected.final as { readonly counts?: unknown }).counts;
      if (folded !== expected.model) {
        fail(`final counts of a ${folded} fold, but the journal is of the ${expected.model} model`);
      } else if (!isDeepStrictEqual(finding.counts, counts)) {
        fail(`final counts ${JSON.stringify(finding.counts)}`);
      } else if (finding.illegal !== undefined && finding.illegal !== expected.legality.illegal) {
        fail(`${finding.illegal} illegal events`);
      }
    } else if (finding.parsed !== events + 1) {
      // Every benchmark journal, of any model, is a header line and then its events.
      fail(`parsed ${finding.parsed} lines, not the header and ${events} events`);
    }
  }
}

/**
 * The report of the model's WASM engine on JSONL (its `wasmJsonl`, which reads every form of the
 * model's journals) on a journal file, audited in this process: what the measured engines must
 * find.
 */
export async function expectedReport(model: BenchedModel, path: string): Promise<ModelReport> {
  const run = await prepareEngine(WASM_JSONL_ENGINES[model], path);
  const finding = await run();
  if (!("report" in finding)) throw new Error(`${model}: its WASM engine gave no report`);
  return finding.report;
}
