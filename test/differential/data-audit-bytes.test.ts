/**
 * The data kernel (both builds) against the reference interpreter (src/models/data/engine.ts):
 * for models defined by data compiled by hand (test/bindings/data/models.ts) and journals of
 * their records — kinds by name, alias and unknown spelling; fields of every type written every
 * way JSON allows, absent, null or of another type; keys from small pools so instances collide;
 * duplicate keys, escapes, blank lines, lines that are not JSON or not objects, a header, a torn
 * tail — fed whole and in random chunkings down to single bytes, `auditBytes` deep-equals the
 * reference's `auditDataBytes` (or both refuse the journal with the same error).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadDataEngine, type WasmDataEngine } from "../../bindings/data/engine.js";
import type { CompiledModel } from "../../src/models/data/compiled.js";
import { auditDataBytes, auditDataJournals } from "../../src/models/data/engine.js";
import {
  DATA_REASONS,
  type DataJournalsReport,
  type DataReason,
  type DataReport,
} from "../../src/models/data/report.js";
import { dataDocumentArbitrary, dataJournalArbitrary } from "../bindings/data/journals.js";
import {
  accountRecord,
  intentRecord,
  jsonl,
  orderModel,
  pathsModel,
  paymentIntents,
  splitPayments,
  tasksModel,
} from "../bindings/data/models.js";
import { concatBytes, encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import { chunked, chunkingArbitrary } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf, outcomeOf } from "../support/outcome.js";

const MODELS: readonly CompiledModel[] = [paymentIntents(), orderModel(), tasksModel()];

/** Both builds' engines of each model, loaded once. */
const engines = new Map<CompiledModel, Promise<readonly WasmDataEngine[]>>();

function enginesOf(model: CompiledModel): Promise<readonly WasmDataEngine[]> {
  let loaded = engines.get(model);
  if (loaded === undefined) {
    loaded = Promise.all(FLAVOURS.map((flavour) => loadDataEngine(model, { flavour })));
    engines.set(model, loaded);
  }
  return loaded;
}

const ONE_BYTE_CHUNKS = { sizes: [1], feed: "reused-buffer" } as const;

/** Every build, the bytes whole, chunked and byte by byte, against the reference. */
async function expectSameReports(
  model: CompiledModel,
  bytes: Uint8Array,
  chunking: Parameters<typeof chunked>[1] = ONE_BYTE_CHUNKS,
): Promise<DataReport | null> {
  const expected = outcomeOf(() => auditDataBytes(model, bytes));
  const builds = await enginesOf(model);
  expect(builds).toHaveLength(FLAVOURS.length);
  for (const engine of builds) {
    expect(await asyncOutcomeOf(() => engine.auditBytes(bytes))).toEqual(expected);
    expect(await asyncOutcomeOf(() => engine.auditBytes(chunked(bytes, chunking)))).toEqual(
      expected,
    );
    expect(await asyncOutcomeOf(() => engine.auditBytes(chunked(bytes, ONE_BYTE_CHUNKS)))).toEqual(
      expected,
    );
  }
  return "returned" in expected ? expected.returned : null;
}

describe("data kernel ≡ reference: hand-written journals", () => {
  const payments = paymentIntents();
  const cases: readonly (readonly [string, string])[] = [
    ["a header naming the model", '{"statefold":"journal","version":1,"model":"payment-intents"}'],
    ["a header naming another", '{"statefold":"journal","version":1,"model":"other"}'],
    ["a header of another version", '{"statefold":"journal","version":2}'],
    ["a header that is not a journal's", '{"statefold":"model"}'],
    ["an escaped kind", '{"type":"pi.cr\\u0065ated","seq":1,"data":{"object":{"id":"a"}}}'],
    ["a kind that is no string", '{"type":["pi.created"],"seq":1}'],
    ["a record that is an array", "[]"],
    ["a line that is no JSON", '{"type":'],
    ["invalid UTF-8", '{"type":"\xff"}'],
    ["a BOM", '\ufeff{"type":"pi.created"}'],
    ["a deep record", `{"type":"x","seq":1,"data":${"[".repeat(500)}${"]".repeat(500)}}`],
    ["a path through an array", '{"type":"pi.created","seq":1,"data":[{"object":{"id":"a"}}]}'],
    ["a string key that is empty", '{"type":"pi.created","seq":1,"data":{"object":{"id":""}}}'],
    ["an int key", '{"type":"pi.created","seq":1,"data":{"object":{"id":5}}}'],
    ["a null sequence", '{"type":"pi.created","seq":null,"data":{"object":{"id":"a"}}}'],
    ["a sequence as a string", '{"type":"pi.created","seq":"01","data":{"object":{"id":"a"}}}'],
    ["a sequence of -0", '{"type":"pi.created","seq":-0.0e5,"data":{"object":{"id":"a"}}}'],
  ];
  for (const [name, line] of cases) {
    it(name, async () => {
      await expectSameReports(
        payments,
        concatBytes(
          encode(`${line}\n`),
          jsonl(
            intentRecord("payment_intent.created", 2, "a", 5),
            intentRecord("payment_intent.processing", 3, "a"),
          ),
          encode('{"torn":'),
        ),
      );
    });
  }

  it("the worked examples of each model", async () => {
    await expectSameReports(
      payments,
      jsonl(
        intentRecord("payment_intent.created", 1, "pi_1", 500),
        intentRecord("payment_intent.created", 2, "pi_1", 500),
        intentRecord("payment_intent.succeeded", 3, "pi_1", 500),
        intentRecord("payment_intent.processing", 5, "pi_2"),
        intentRecord("pi.created", 6, "pi_3", 1),
        { type: "refund", seq: 7 },
      ),
    );
    await expectSameReports(
      orderModel(),
      jsonl(...["open", "other", "open", "close", "step", "open"].map((kind) => ({ kind }))),
    );
  });
});

describe("data kernel ≡ reference: paths", () => {
  const model = pathsModel([
    "*Attributes.id",
    "xAttributes.id",
    "d1.d2.d3.d4.d5",
    "n.*S",
    "m.*S.v",
    "kind",
  ]);
  const records = [
    '{"kind":"k","aAttributes":{"id":"first"},"bAttributes":{"id":"second"}}',
    '{"kind":"k","xAttributes":{"id":"both"}}',
    '{"kind":"k","yAttributes":{"id":"y"},"xAttributes":{"id":"x"}}',
    '{"kind":"k","\u0078Attributes":{"id":"escaped"},"xAttribute\u0073":{"id":"again"}}',
    '{"kind":"k","d1":{"d2":{"d3":{"d4":{"d5":"deep"}}}}}',
    '{"kind":"k","d1":{"d2":{"d3":{"d4":{"d5":"deep","d5":"deeper"}}}}}',
    '{"kind":"k","n":{"aS":"one","bS":"two","aS":"three"}}',
    '{"kind":"k","m":{"aS":{"v":"nested"},"S":"plain"}}',
    '{"kind":"k","n":null,"xAttributes":null}',
    '{"kind":"k","n":[{"aS":"in an array"}]}',
    '{"kind":"k","kind":"k","n":{"S":"x"}}',
    '{"kind":"k","n":{"S":"x"},"n":{"T":"y"}}',
  ];
  for (const record of records) {
    it(record, async () => {
      const report = await expectSameReports(model, encode(`${record}\n`));
      expect(report?.integrity ?? null).toBeNull();
    });
  }
});

/** The reasons each model's generated journals must reach (together, every reason there is). */
const REACHED: ReadonlyMap<CompiledModel, readonly DataReason[]> = new Map([
  [
    MODELS[0] as CompiledModel,
    [
      "missing-key",
      "duplicate",
      "missing",
      "wrong-state",
      "no-instance",
      "check-failed",
      "limit",
      "unknown-kind",
      "out-of-sequence",
      "open-at-end",
    ],
  ],
  [MODELS[1] as CompiledModel, ["unexpected-kind", "not-first", "repeated", "after-last"]],
  [MODELS[2] as CompiledModel, ["not-increasing", "limit", "open-at-end", "duplicate"]],
]);

describe("data kernel ≡ reference: generated journals", () => {
  it("the models' reasons are every reason", () => {
    expect(new Set([...REACHED.values()].flat())).toEqual(new Set(DATA_REASONS));
  });

  for (const model of MODELS) {
    it(`journals of ${model.name}`, async () => {
      const reasons = new Set<string>();
      let integrity = 0;
      await fc.assert(
        fc.asyncProperty(
          dataJournalArbitrary(model),
          chunkingArbitrary,
          async (bytes, chunking) => {
            const report = await expectSameReports(model, bytes, chunking);
            if (report === null) return;
            if (report.integrity !== null) integrity += 1;
            for (const finding of report.legality.first) reasons.add(finding.reason);
          },
        ),
        { numRuns: 150 },
      );
      expect(integrity).toBeGreaterThan(0);
      for (const reason of REACHED.get(model) ?? []) expect(reasons, reason).toContain(reason);
    });
  }
});

describe("data kernel ≡ reference: journals that are JSON documents", () => {
  const documents = (model: CompiledModel): CompiledModel => ({
    ...model,
    name: `${model.name}-documents`,
    source: {
      arrays: [[{ member: "events" }], [{ member: "history" }, { member: "events" }], []],
    },
  });
  const DOCUMENT_MODELS = MODELS.map(documents);

  it("a worked example, in one chunk and byte by byte", async () => {
    const records = [
      intentRecord("payment_intent.created", 1, "pi_1", 500),
      intentRecord("payment_intent.created", 2, "pi_1", 500),
      { type: "refund", seq: 3 },
    ];
    const report = await expectSameReports(
      DOCUMENT_MODELS[0] as CompiledModel,
      encode(JSON.stringify({ events: records }, null, 2)),
    );
    expect(report?.legality.first.map((finding) => [finding.line, finding.reason])).toEqual([
      [13, "duplicate"],
      [13, "no-instance"],
      [23, "unknown-kind"],
      [23, "open-at-end"],
    ]);
  });

  for (const model of DOCUMENT_MODELS) {
    it(`documents of ${model.name}`, async () => {
      let refused = 0;
      let reported = 0;
      await fc.assert(
        fc.asyncProperty(
          dataDocumentArbitrary(model),
          chunkingArbitrary,
          async (bytes, chunking) => {
            if ((await expectSameReports(model, bytes, chunking)) === null) refused += 1;
            else reported += 1;
          },
        ),
        { numRuns: 100 },
      );
      expect(refused).toBeGreaterThan(0);
      expect(reported).toBeGreaterThan(0);
    });
  }
});

describe("data kernel ≡ reference: hand-written streams split by journal.key", () => {
  const model = splitPayments();
  const builds = Promise.all(
    FLAVOURS.map((flavour) => loadDataEngine<DataJournalsReport>(model, { flavour })),
  );
  const created = (account: string, seq: number, id: string) =>
    accountRecord(account, "payment_intent.created", seq, id, 1);
  const header = encode('{"statefold":"journal","version":1,"model":"payment-intents"}\n');
  const cases: readonly (readonly [string, Uint8Array])[] = [
    ["the empty stream", new Uint8Array(0)],
    ["a header alone", header],
    ["a stream broken before its first record", encode('{"type":\n')],
    ["a first record without its key", jsonl(intentRecord("payment_intent.created", 1, "a", 1))],
    ["a torn tail alone", encode('{"account":"a","ty')],
    [
      "journals, a torn tail",
      concatBytes(header, jsonl(created("a", 1, "x"), created("b", 1, "x")), encode('{"a')),
    ],
    [
      "journals broken by a line that is not an object",
      jsonl(created("a", 1, "x"), created("b", 1, "x"), "[1]", created("a", 2, "y")),
    ],
    [
      "an int key where a string is read",
      jsonl(created("a", 1, "x"), { ...created("b", 1, "x"), account: 5 }),
    ],
    [
      "keys that differ only in their escapes are one journal",
      concatBytes(
        jsonl(created("é", 1, "x")),
        encode(
          '{"account":"\\u00e9","type":"payment_intent.processing","seq":2,"data":{"object":{"id":"x"}}}\n',
        ),
      ),
    ],
    ["an empty key", jsonl(created("", 1, "x"), created("", 2, "y"))],
  ];
  for (const [name, bytes] of cases) {
    it(name, async () => {
      const expected = outcomeOf(() => ({ journals: auditDataJournals(model, bytes) }));
      for (const engine of await builds) {
        expect(await asyncOutcomeOf(() => engine.auditBytes(bytes))).toEqual(expected);
        expect(
          await asyncOutcomeOf(() => engine.auditBytes(chunked(bytes, ONE_BYTE_CHUNKS))),
        ).toEqual(expected);
      }
    });
  }
});
