/**
 * One engine, many calls: the WASM engine keeps state between calls (the loaded DAG, the last
 * header's DAG, the kernel's journal region), so any sequence of audit, replay and auditBytes over
 * several DAGs — with journals whose stream breaks half-way and calls that throw in between — must
 * give each call the reference's outcome, as if it were the engine's first.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { WasmEngine } from "../../bindings/index.js";
import { type Engine, referenceEngine } from "../../src/models/dag/engine.js";
import type { Dag } from "../../src/models/dag/index.js";
import { dagArbitrary, rawLogArbitrary } from "../support/arbitraries.js";
import { loadFlavours } from "../support/engines.js";
import {
  type Chunking,
  chunked,
  chunkingArbitrary,
  encodingStyleArbitrary,
  type JsonlJournalCase,
  journalCaseOf,
  journalOptionsArbitrary,
} from "../support/jsonl-encoding.js";
import { asyncOutcomeOf } from "../support/outcome.js";

let engines: readonly WasmEngine[];
beforeAll(async () => {
  engines = await loadFlavours();
});

type Call =
  | { readonly api: "audit" | "replay"; readonly dag: Dag; readonly events: unknown[] }
  | {
      readonly api: "auditBytes";
      readonly journal: JsonlJournalCase;
      readonly chunking: Chunking;
      /** The stream throws after this many chunks, if set. */
      readonly breakAfter: number | null;
      /** Pass the DAG beside the bytes even when the journal has a header (or give another one). */
      readonly given: "as generated" | "other DAG";
    };

function callArbitrary(dags: readonly Dag[]): fc.Arbitrary<Call> {
  const dag = fc.constantFrom(...dags);
  return fc.oneof(
    dag.chain((d) =>
      fc.record({
        api: fc.constantFrom("audit" as const, "replay" as const),
        dag: fc.constant(d),
        events: rawLogArbitrary(d, { maxInsertions: 4 }),
      }),
    ),
    dag.chain((d) =>
      fc.record({
        api: fc.constant("auditBytes" as const),
        journal: fc
          .tuple(
            rawLogArbitrary(d, { maxInsertions: 4 }),
            encodingStyleArbitrary,
            journalOptionsArbitrary,
            fc.boolean(),
          )
          .map(([events, style, options, giveDag]) =>
            journalCaseOf(d, events, style, options, giveDag),
          ),
        chunking: chunkingArbitrary,
        breakAfter: fc.option(fc.nat({ max: 20 }), { freq: 4 }),
        given: fc.constantFrom(
          "as generated" as const,
          "as generated" as const,
          "other DAG" as const,
        ),
      }),
    ),
  );
}

async function run(engine: Engine, call: Call, dags: readonly Dag[], intact = false) {
  if (call.api !== "auditBytes") {
    const { dag, events } = call;
    return asyncOutcomeOf(async () =>
      call.api === "audit" ? engine.audit(dag, events) : engine.replay(dag, events),
    );
  }
  const { journal, chunking } = call;
  const breakAfter = intact ? null : call.breakAfter;
  const given =
    call.given === "other DAG" ? (dags.find((d) => d !== journal.dag) ?? null) : journal.given;
  return asyncOutcomeOf(() =>
    engine.auditBytes(given, stream(journal.bytes, chunking, breakAfter)),
  );
}

/** The chunks, and then, if `breakAfter` is set, an error in their place. */
async function* stream(bytes: Uint8Array, chunking: Chunking, breakAfter: number | null) {
  let count = 0;
  for await (const chunk of chunked(bytes, chunking)) {
    if (breakAfter !== null && count++ === breakAfter) throw new Error("the stream broke");
    yield chunk;
  }
  if (breakAfter !== null) throw new Error("the stream broke at its end");
}

describe("one engine, many calls", () => {
  it("answers every call of any sequence as the reference does", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(dagArbitrary({ maxNodes: 6 }), { minLength: 1, maxLength: 3 })
          .chain((dags) =>
            fc.tuple(
              fc.constant(dags),
              fc.array(callArbitrary(dags), { minLength: 2, maxLength: 8 }),
            ),
          ),
        async ([dags, calls]) => {
          const expected = [];
          for (const call of calls) expected.push(await run(referenceEngine, call, dags));
          // The reference reads a whole stream before it looks at the header; a streaming engine
          // may find a bad header first. So where a stream breaks, the engine may also throw the
          // JournalError the reference throws for the same stream unbroken.
          const unbroken = [];
          for (const call of calls) unbroken.push(await run(referenceEngine, call, dags, true));
          for (const engine of engines) {
            for (const [i, call] of calls.entries()) {
              const outcome = await run(engine, call, dags);
              const label = `${engine.flavour}, call ${i} (${call.api})`;
              const alternative = unbroken[i];
              const brokeAfterABadHeader =
                call.api === "auditBytes" &&
                call.breakAfter !== null &&
                alternative !== undefined &&
                "threw" in alternative &&
                alternative.threw.class === "JournalError";
              if (
                brokeAfterABadHeader &&
                "threw" in outcome &&
                outcome.threw.class === "JournalError"
              ) {
                expect(outcome, label).toEqual(alternative);
              } else {
                expect(outcome, label).toEqual(expected[i]);
              }
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
