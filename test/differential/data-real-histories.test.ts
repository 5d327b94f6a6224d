/**
 * The data kernel (both builds) against the reference interpreter over the histories real
 * systems wrote (test/data/real-histories, its README says where each came from), each audited
 * with its system's shipped model: every report deep-equal, or both engines refusing the
 * document with the same error — whole, and in chunks that cut elements anywhere.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDataEngine } from "../../bindings/data/engine.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { auditDataBytes } from "../../src/models/data/engine.js";
import { parseModelFile } from "../../src/models/data/load.js";
import { FLAVOURS } from "../support/engines.js";
import { chunked } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

const SHIPPED = join(import.meta.dirname, "../../src/models/data/shipped");
const HISTORIES = join(import.meta.dirname, "../data/real-histories");

function shippedModel(name: string): CompiledModel {
  const file = join(SHIPPED, `${name}.json`);
  return parseModelFile(readFileSync(file), file);
}

function historiesUnder(folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(HISTORIES, folder), { recursive: true, encoding: "utf8" })
      .filter((path) => path.endsWith(".json"))
      .map((path) => `${folder}/${path}`)
      .sort(),
  );
}

const SYSTEMS: readonly (readonly [string, readonly string[]])[] = [
  [
    "temporal",
    ["temporalio+temporal", "temporalio+sdk-go", "temporalio+sdk-java", "temporalio+samples-go"],
  ],
  ["cadence", ["uber-go+cadence-client"]],
  ["stepfunctions", ["stepfunctions"]],
];

describe("data kernel ≡ reference over real histories", () => {
  for (const [name, folders] of SYSTEMS) {
    it(`${name}, every history`, async () => {
      const model = shippedModel(name);
      const engines = await Promise.all(
        FLAVOURS.map((flavour) => loadDataEngine(model, { flavour })),
      );
      const histories = historiesUnder(folders);
      expect(histories.length).toBeGreaterThan(10);
      let reported = 0;
      for (const history of histories) {
        const bytes = readFileSync(join(HISTORIES, history));
        const expected = outcomeOf(() => auditDataBytes(model, bytes, { file: history }));
        if ("returned" in expected) reported += 1;
        for (const engine of engines) {
          const whole = await asyncOutcomeOf(() => engine.auditBytes(bytes, { file: history }));
          expect(whole, history).toEqual(expected);
          const chunks = chunked(bytes, { sizes: [4093, 1, 777], feed: "reused-buffer" });
          const pieces = await asyncOutcomeOf(() => engine.auditBytes(chunks, { file: history }));
          expect(pieces, history).toEqual(expected);
        }
      }
      expect(reported).toBeGreaterThan(histories.length / 2);
    });
  }
});
