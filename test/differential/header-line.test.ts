/**
 * Only line 1 can be the header (docs/journals.md, "The header"), on both engines and for every
 * model, whatever the chunking: after a blank line 1, a header's line is a record, judged by the
 * model like any other. Held through the command line's routing (src/cli/engine.ts), which peeks
 * at line 1 for the model and hands the journal to that model's engine.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { auditJsonlStream } from "../../src/cli/engine.js";
import type { ModelName } from "../../src/models/registry.js";
import { encode } from "../support/bytes.js";
import { asyncOutcomeOf } from "../support/outcome.js";

const CHUNK_SIZES = [1, 7, 64, Number.MAX_SAFE_INTEGER];

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

/** The outcome on both engines, in every chunking, which must all be the same; then that outcome. */
async function auditEverywhere(bytes: Uint8Array, model: ModelName, dagPath?: string) {
  const outcomes = [];
  for (const engine of ["reference", "wasm"] as const) {
    for (const size of CHUNK_SIZES) {
      const chunks = chunksOf(bytes, size);
      const run = asyncOutcomeOf(() =>
        auditJsonlStream("j.jsonl", chunks, {
          engine,
          model,
          modelFlags: dagPath === undefined ? {} : { dag: dagPath },
        }),
      );
      outcomes.push(
        await run.then((outcome) =>
          "returned" in outcome ? { returned: outcome.returned.report } : outcome,
        ),
      );
    }
  }
  for (const outcome of outcomes) expect(outcome).toEqual(outcomes[0]);
  return outcomes[0];
}

describe("only line 1 is the header", () => {
  it.each([
    ["operations", "examples/operations/cancellation.jsonl", undefined, "record"],
    ["dag", "examples/diamond.jsonl", "examples/diamond.dag.json", "event"],
  ] as const)(
    "%s: after a blank line 1 the header's line is a malformed record at line 2",
    async (model, file, dagPath, record) => {
      for (const blank of ["", " \t", "\r"]) {
        const bytes = encode(`${blank}\n${readFileSync(file, "utf8")}`);
        const outcome = await auditEverywhere(bytes, model, dagPath);
        expect(outcome).toMatchObject({
          returned: {
            conformant: false,
            integrity: {
              index: 0,
              line: 2,
              reason: "malformed-event",
              message: `the ${record} has no string "kind"`,
            },
          },
        });
      }
    },
  );

  it("executive: after a blank line 1 the journal has no header, which it needs", async () => {
    const bytes = encode(`\n${readFileSync("examples/executive/conformant.jsonl", "utf8")}`);
    const outcome = await auditEverywhere(bytes, "executive");
    expect(outcome).toMatchObject({ threw: { class: "JournalError" } });
  });
});

describe("a journal with no header where one is needed", () => {
  it.each([
    ["operations", "examples/operations/cancellation.jsonl"],
    ["executive", "examples/executive/conformant.jsonl"],
  ] as const)(
    "%s with a typo in its header: line 1 is named not JSON, at its column, by both engines",
    async (_model, file) => {
      const typo = readFileSync(file, "utf8").replace(/}\n/, "\n");
      const outcome = await auditEverywhere(encode(typo), "dag");
      expect(outcome).toMatchObject({
        threw: {
          class: "JournalError",
          fields: { line: 1, detail: expect.stringMatching(/^line 1 is not JSON \(/) },
        },
      });
    },
  );

  it("a headerless operations journal audited as dag is asked whether it is one, by both engines", async () => {
    const records = readFileSync("examples/operations/cancellation.jsonl", "utf8")
      .split("\n")
      .slice(1);
    const outcome = await auditEverywhere(encode(records.join("\n")), "dag");
    expect(outcome).toMatchObject({
      threw: {
        class: "JournalError",
        message: expect.stringContaining("did you mean --model operations?"),
      },
    });
  });
});
