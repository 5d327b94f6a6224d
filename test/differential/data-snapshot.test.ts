/**
 * Data kernel snapshots, both builds: a journal snapshotted at any byte, on one engine, and
 * resumed on another (another instance, another hash key) gives the report a whole audit gives —
 * and so the reference's — for generated journals of each hand-compiled model, and through
 * chains of snapshots. A snapshot of another model, or of the same model compiled to another
 * table, is refused; one whose state was edited and its checksum recomputed is refused by name,
 * never a trap.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadDataEngine, type WasmDataEngine } from "../../bindings/data/engine.js";
import type { DataSnapshotBody } from "../../bindings/data/snapshot-body.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { auditDataBytes, auditDataJournals } from "../../src/models/data/engine.js";
import { checkModel } from "../../src/models/data/load.js";
import { dataModel } from "../../src/models/data/model.js";
import type { DataJournalsReport } from "../../src/models/data/report.js";
import { addLoadedModel } from "../../src/models/registry.js";
import { decodeSnapshot, encodeSnapshot } from "../../src/snapshot-format.js";
import { dataJournalArbitrary } from "../bindings/data/journals.js";
import {
  accountRecord,
  intentRecord,
  jsonl,
  orderModel,
  paymentIntents,
  splitPayments,
  tasksModel,
} from "../bindings/data/models.js";
import { dataModelAndJournalArbitrary } from "../support/data-model-arbitrary.js";
import { FLAVOURS } from "../support/engines.js";

const MODELS: readonly CompiledModel[] = [paymentIntents(), orderModel(), tasksModel()];

interface Engines {
  readonly writers: readonly WasmDataEngine[];
  readonly resumers: readonly WasmDataEngine[];
}

let engines: Map<CompiledModel, Engines>;
beforeAll(async () => {
  engines = new Map();
  for (const model of MODELS) {
    // A snapshot names its model, which must be one this process knows (a loaded model file).
    addLoadedModel(dataModel(model.name, model, model.name));
    const load = () => Promise.all(FLAVOURS.map((flavour) => loadDataEngine(model, { flavour })));
    engines.set(model, { writers: await load(), resumers: await load() });
  }
});

function snapshotAt(
  engine: WasmDataEngine<DataJournalsReport> | WasmDataEngine,
  bytes: Uint8Array,
  cut: number,
): Uint8Array {
  const auditor = engine.openAuditor({ snapshots: true });
  auditor.write(bytes.subarray(0, cut));
  return auditor.snapshot();
}

async function expectResumedAsWhole(
  model: CompiledModel,
  bytes: Uint8Array,
  cuts: readonly number[],
): Promise<void> {
  const { writers, resumers } = engines.get(model) as Engines;
  let whole: unknown;
  try {
    whole = auditDataBytes(model, bytes);
  } catch {
    return; // a journal the reference refuses (a wrong header) is refused before any snapshot
  }
  for (const writer of writers) {
    expect(await writer.auditBytes(bytes)).toEqual(whole);
    for (const resumer of resumers) {
      for (const cut of cuts) {
        const resumed = await resumer.resume(snapshotAt(writer, bytes, cut), [
          bytes.subarray(0, cut + 3),
          bytes.subarray(cut + 3),
        ]);
        expect(resumed.finish(), `at ${cut}`).toEqual(whole);
      }
    }
  }
}

describe("data kernel snapshots", () => {
  for (const model of MODELS) {
    it(`resume journals of ${model.name} to the whole audit's report from any byte`, async () => {
      await fc.assert(
        fc.asyncProperty(
          dataJournalArbitrary(model).chain((bytes) =>
            fc.tuple(
              fc.constant(bytes),
              fc.array(fc.nat({ max: bytes.length }), { minLength: 1, maxLength: 3 }),
            ),
          ),
          async ([bytes, cuts]) => expectResumedAsWhole(model, bytes, cuts),
        ),
        { numRuns: 40 },
      );
    });
  }

  it("resume through a chain of snapshots", async () => {
    const model = MODELS[2] as CompiledModel;
    const bytes = jsonl(
      { kind: "scheduled", t: 1, aAttributes: { taskId: 1 } },
      { kind: "started", t: 2, aAttributes: { taskId: 1 } },
      { kind: "mystery", t: 3 },
      { kind: "completed", t: 4, aAttributes: { taskId: 1 } },
      { kind: "scheduled", t: 4, aAttributes: { taskId: 2 } },
    );
    const [engine] = (engines.get(model) as Engines).writers as [WasmDataEngine];
    let snapshot = snapshotAt(engine, bytes, 10);
    for (const cut of [40, 90, 130, bytes.length]) {
      const resumed = await engine.resume(snapshot, bytes.subarray(0, cut), { snapshots: true });
      snapshot = resumed.snapshot();
    }
    const resumed = await engine.resume(snapshot, bytes);
    expect(resumed.finish()).toEqual(auditDataBytes(model, bytes));
  });

  it("refuse a snapshot of another model, or of the model compiled to another table", async () => {
    const bytes = jsonl(intentRecord("payment_intent.created", 1, "pi_1", 5));
    const [payments] = (engines.get(MODELS[0] as CompiledModel) as Engines).writers;
    const [orders] = (engines.get(MODELS[1] as CompiledModel) as Engines).writers;
    const snapshot = snapshotAt(payments as WasmDataEngine, bytes, bytes.length);
    await expect(
      (orders as WasmDataEngine).resume(snapshot, bytes, { snapshotFile: "s.snap" }),
    ).rejects.toThrow(
      /^s\.snap: refusing the snapshot: it is a snapshot of a payment-intents journal, and this is an order journal/,
    );
    const renamed = await loadDataEngine(
      paymentIntents({
        rules: paymentIntents().rules.map((rule) => ({ ...rule, name: `${rule.name}!` })),
      }),
    );
    // Rule names are the report's words, not the table's: a model renaming them resumes.
    expect((await renamed.resume(snapshot, bytes)).finish().invariants).toHaveProperty(
      "created-once!",
    );
    const recompiled = await loadDataEngine(paymentIntents({ kindPath: [{ member: "kind" }] }));
    await expect(recompiled.resume(snapshot, bytes)).rejects.toThrow(
      /compiled to another table .*: the model file changed since/,
    );
  });

  it("refuse a snapshot whose state was edited, by name", async () => {
    const model = MODELS[0] as CompiledModel;
    const [engine] = (engines.get(model) as Engines).writers as [WasmDataEngine];
    const bytes = jsonl(
      intentRecord("payment_intent.created", 1, "pi_1", 5),
      intentRecord("payment_intent.created", 2, "pi_1", 5),
      { type: "mystery", seq: 3 },
    );
    const snapshot = snapshotAt(engine, bytes, bytes.length);
    const body = decodeSnapshot(snapshot, "s.snap") as DataSnapshotBody;
    let refused = 0;
    const stride = Math.max(1, Math.floor(body.state.length / 150));
    for (let at = 0; at < body.state.length; at += stride) {
      for (const value of [0xff, 0x07]) {
        const state = body.state.slice();
        state[at] = value;
        const edited = encodeSnapshot({ ...body, state });
        try {
          (await engine.resume(edited, bytes)).finish();
        } catch (error) {
          expect(String(error)).toMatch(
            /refusing the snapshot: its state is not one the data kernel wrote|WebAssembly memory/,
          );
          refused += 1;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
    const truncated = encodeSnapshot({
      ...body,
      state: body.state.subarray(0, body.state.length - 4),
    });
    await expect(engine.resume(truncated, bytes)).rejects.toThrow(/not one the data kernel wrote/);
  });
});

describe("data kernel snapshots of streams split by journal.key", () => {
  it("resume generated streams from any byte to the reference's report per journal", async () => {
    const seen = { resumed: 0, several: 0 };
    await fc.assert(
      fc.asyncProperty(
        dataModelAndJournalArbitrary({ split: "always", arrays: false }).chain((generated) =>
          fc.tuple(
            fc.constant(generated),
            fc.array(fc.nat({ max: generated.journal.bytes.length }), {
              minLength: 1,
              maxLength: 3,
            }),
          ),
        ),
        async ([{ model: file, journal }, cuts]) => {
          const model = checkModel(file, "generated.json");
          if (model.journal.key === null) return; // no field could key it
          addLoadedModel(dataModel(model.name, model, model.name));
          const { bytes } = journal;
          let whole: DataJournalsReport;
          try {
            whole = { journals: auditDataJournals(model, bytes) };
          } catch {
            return; // a journal the reference refuses (a wrong header) is refused before any snapshot
          }
          if (whole.journals.length > 1) seen.several += 1;
          for (const flavour of FLAVOURS) {
            const load = () => loadDataEngine<DataJournalsReport>(model, { flavour });
            const [writer, resumer] = await Promise.all([load(), load()]);
            for (const cut of cuts) {
              const resumed = await resumer.resume(snapshotAt(writer, bytes, cut), [
                bytes.subarray(0, cut + 3),
                bytes.subarray(cut + 3),
              ]);
              expect(resumed.finish(), `at ${cut}`).toEqual(whole);
              seen.resumed += 1;
            }
          }
        },
      ),
      { numRuns: 80 },
    );
    expect(seen.resumed).toBeGreaterThan(0);
    expect(seen.several).toBeGreaterThan(0);
  }, 300_000);

  const model = splitPayments();
  const stream = jsonl(
    accountRecord("acct_a", "payment_intent.created", 1, "pi_1", 5),
    accountRecord("acct_b", "payment_intent.created", 1, "pi_1", 7),
    { type: "mystery", seq: 2, account: "acct_a" },
    accountRecord("acct_b", "payment_intent.processing", 2, "pi_1"),
    accountRecord("acct_c", "payment_intent.created", 1, "pi_2", 1),
    accountRecord("acct_a", "payment_intent.processing", 3, "pi_1"),
  );

  it("resume through a chain of snapshots, each holding every journal", async () => {
    addLoadedModel(dataModel(model.name, model, model.name));
    const engine = await loadDataEngine<DataJournalsReport>(model);
    let snapshot = snapshotAt(engine, stream, 0);
    for (let cut = 40; cut < stream.length; cut += 60) {
      const resumed = await engine.resume(snapshot, stream.subarray(0, cut), { snapshots: true });
      snapshot = resumed.snapshot();
    }
    const resumed = await engine.resume(snapshot, stream);
    expect(resumed.finish()).toEqual({ journals: auditDataJournals(model, stream) });
  });

  it("refuse a split stream's snapshot whose state was edited, by name", async () => {
    addLoadedModel(dataModel(model.name, model, model.name));
    const engine = await loadDataEngine<DataJournalsReport>(model);
    const body = decodeSnapshot(
      snapshotAt(engine, stream, stream.length),
      "s.snap",
    ) as DataSnapshotBody;
    let refused = 0;
    const stride = Math.max(1, Math.floor(body.state.length / 150));
    for (let at = 0; at < body.state.length; at += stride) {
      for (const value of [0xff, 0x07]) {
        const state = body.state.slice();
        state[at] = value;
        try {
          (await engine.resume(encodeSnapshot({ ...body, state }), stream)).finish();
        } catch (error) {
          expect(String(error)).toMatch(
            /refusing the snapshot: its state is not one the data kernel wrote|WebAssembly memory/,
          );
          refused += 1;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
