/**
 * Every run checks that the engines agree before it reports a figure: a fast wrong answer proves
 * nothing. The auditors' reports must be deep-equal (on the same span of the journal) to the
 * report of the WASM engine of the journal's model, XState's fold must reach the same final
 * counts, the kernel alone the same counts and illegal events, and the parse-only loop must have
 * parsed every line.
 */
import { isDeepStrictEqual } from "node:util";
import { loadExecutiveEngine, type WasmExecutiveEngine } from "../bindings/executive/index.js";
import { loadEngine, type WasmEngine } from "../bindings/index.js";
import { loadOperationsEngine, type WasmOperationsEngine } from "../bindings/operations/index.js";
import { readFileChunks } from "../src/journal/read-file-bytes.js";
import type { ModelReport } from "../src/models/registry.js";
import type { BenchedModel, EngineName, Finding } from "./engines.js";

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
      if (expected.model !== "dag") {
        // Only the dag model's engines fold to node counts.
        fail(`final counts of a dag fold, but the journal is of the ${expected.model} model`);
      } else if (!isDeepStrictEqual(finding.counts, expected.final.counts)) {
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

/** The WASM engines of this process, loaded on first use. */
const checkers: {
  dag?: Promise<WasmEngine>;
  operations?: Promise<WasmOperationsEngine>;
  executive?: Promise<WasmExecutiveEngine>;
} = {};

/** The in-process WASM engine's report on a journal file of the model: what the measured engines must find. */
export async function expectedReport(model: BenchedModel, path: string): Promise<ModelReport> {
  switch (model) {
    case "dag":
      checkers.dag ??= loadEngine();
      return (await checkers.dag).auditBytes(null, readFileChunks(path));
    case "operations":
      checkers.operations ??= loadOperationsEngine();
      return (await checkers.operations).auditBytes(readFileChunks(path));
    case "executive":
      checkers.executive ??= loadExecutiveEngine();
      return (await checkers.executive).auditBytes(readFileChunks(path), { file: path });
  }
}
