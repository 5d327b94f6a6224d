/**
 * Worked examples of a data model's findings replayed (src/models/data/replay.ts): for each
 * listed finding, and each broken rule's first, the instance it concerns with its state before
 * and after the record, and the values it compared — in the words the text output and the HTML
 * report show (src/report/data/wording.ts).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readDataJournal } from "../../../src/journal/data/read.js";
import type { DataEntry } from "../../../src/models/data/audit.js";
import { checkModel } from "../../../src/models/data/check.js";
import type { CompiledModel } from "../../../src/models/data/compiled.js";
import { auditDataJournals } from "../../../src/models/data/engine.js";
import { parseModelFile } from "../../../src/models/data/load.js";
import { type ReplayedFindings, replayFindings } from "../../../src/models/data/replay.js";
import type { DataReport } from "../../../src/models/data/report.js";
import { findingWords, findingWordsText } from "../../../src/report/data/wording.js";

type ModelFile = Record<string, unknown>;

/** The payment intents of examples/data/, with a refund that needs a succeeded intent. */
function paymentIntents(extra: ModelFile = {}): ModelFile {
  return {
    statefold: "model",
    version: 1,
    name: "payment-intents",
    records: {
      source: "lines",
      kind: { path: "type" },
      fields: {
        seq: { path: "seq", type: "int" },
        intent: { path: "id", type: "string" },
        amount: { path: "amount", type: "int" },
        ts: { path: "ts", type: "int" },
      },
    },
    journal: { sequence: { field: "seq" } },
    entities: {
      intent: {
        states: ["created", "processing", "succeeded", "canceled"],
        final: ["succeeded", "canceled"],
        slots: ["amount"],
      },
    },
    kinds: {
      created: [
        { new: "intent", key: "$intent", to: "created", rule: "created-once" },
        { check: ["$amount", ">", 0], rule: "amount-positive" },
        { put: "@amount", value: "$amount" },
      ],
      processing: [
        {
          step: "intent",
          key: "$intent",
          from: ["created"],
          to: "processing",
          rule: "lifecycle",
        },
      ],
      succeeded: [
        {
          step: "intent",
          key: "$intent",
          from: ["processing"],
          to: "succeeded",
          rule: "lifecycle",
        },
        { check: ["$amount", "==", "@amount"], rule: "amount-kept" },
      ],
      refunded: [
        { need: "intent", key: "$intent", in: ["succeeded"], rule: "refund-settled" },
        { check: ["$amount", "<=", "@amount"], rule: "refund-within" },
      ],
    },
    ...extra,
  };
}

function lines(records: readonly unknown[]): Uint8Array {
  return new TextEncoder().encode(records.map((record) => `${JSON.stringify(record)}\n`).join(""));
}

interface Replayed {
  readonly report: DataReport;
  readonly replayed: ReplayedFindings;
}

function replay(file: ModelFile | CompiledModel, bytes: Uint8Array, journal = 0): Replayed {
  const model = "kindOf" in file ? (file as CompiledModel) : checkModel(file, "model.json");
  const report = auditDataJournals(model, bytes, { file: "j.jsonl" })[journal] as DataReport;
  const entries = readDataJournal(model, bytes, "j.jsonl").events as DataEntry[];
  const replayed = replayFindings(model, entries, report);
  if (replayed === null) throw new Error("the replay did not give the report's findings");
  return { report, replayed };
}

/** Each listed finding as `index rule reason — words`, as the text output would say it. */
function said({ report, replayed }: Replayed): string[] {
  return replayed.listed.map((finding, place) => {
    const { index, rule, reason } = report.legality.first[
      place
    ] as DataReport["legality"]["first"][number];
    return `${index} ${rule} ${reason} — ${findingWordsText(findingWords(finding), false)}`;
  });
}

describe("a data model's findings replayed", () => {
  it("the example's violations: each with its instance's states and what it compared", () => {
    const model = parseModelFile(
      readFileSync("examples/data/payment-intents.json"),
      "payment-intents.json",
    );
    const run = replay(model, readFileSync("examples/data/payment-intents-violations.jsonl"));
    expect(said(run)).toEqual([
      "3 sequence out-of-sequence — seq expected 4, found 5",
      '3 amount-kept check-failed — intent "pi_3Qa1" processing → succeeded, $amount (1200) == @amount (1250) does not hold',
      '4 created-once duplicate — intent "pi_3Qa2" created → created, key "pi_3Qa2" already exists',
      '5 lifecycle missing — intent "pi_3Qa9" none → none, key "pi_3Qa9" does not exist',
      "6 known-kinds unknown-kind — null",
      '6 intent.atEnd open-at-end — intent "pi_3Qa2" created → created, it ended in created, it may end in succeeded or canceled',
    ]);
    // The record each was found at, as written.
    const violations = readFileSync("examples/data/payment-intents-violations.jsonl", "utf8");
    const entry = run.replayed.entries.get(4);
    expect(entry?.parsed).toMatchObject({ text: violations.split("\n")[4] });
  });

  it("new, step and need: the state before the record and the state it left", () => {
    const run = replay(
      paymentIntents(),
      lines([
        { seq: 1, type: "created", id: "a", amount: 0 },
        { seq: 2, type: "processing", id: "a" },
        { seq: 3, type: "succeeded", id: "a", amount: 5 },
        { seq: 4, type: "refunded", id: "a", amount: 9 },
        { seq: 5, type: "processing", id: "a" },
      ]),
    );
    expect(said(run)).toEqual([
      '0 amount-positive check-failed — intent "a" none → created, $amount (0) > 0 does not hold',
      '2 amount-kept check-failed — intent "a" processing → succeeded, $amount (5) == @amount (0) does not hold',
      '3 refund-within check-failed — intent "a" succeeded → succeeded, $amount (9) <= @amount (0) does not hold',
      '4 lifecycle wrong-state — intent "a" succeeded → succeeded, found in succeeded, the clause accepts created',
    ]);
  });

  it("a limit: the counter's value, by and max", () => {
    const run = replay(
      paymentIntents({
        journal: { counters: { open: { max: 1 } } },
        kinds: {
          created: [
            { new: "intent", key: "$intent", to: "created" },
            { count: "open", by: 1, rule: "one-open" },
          ],
          succeeded: [
            { step: "intent", key: "$intent", from: ["created"], to: "succeeded" },
            { count: "open", by: -1, rule: "one-open" },
          ],
        },
      }),
      lines([
        { type: "created", id: "a" },
        { type: "created", id: "b" },
        { type: "succeeded", id: "a" },
        { type: "succeeded", id: "b" },
      ]),
    );
    expect(said(run)).toEqual([
      '1 one-open limit — intent "b" none → created, counter open 1 + 1 = 2, above its max 1',
      '3 one-open limit — intent "b" created → succeeded, counter open 0 − 1 = -1, below 0',
    ]);
  });

  it("out-of-sequence and not-increasing: what was expected and what came", () => {
    const run = replay(
      paymentIntents({
        journal: { sequence: { field: "seq" }, monotone: [{ field: "ts", strict: true }] },
      }),
      lines([
        { seq: 1, ts: 7, type: "created", id: "a", amount: 1 },
        { seq: 3, ts: 7, type: "processing", id: "a" },
        { ts: 5, type: "processing", id: "a" },
      ]),
    );
    expect(said(run)).toEqual([
      "1 sequence out-of-sequence — seq expected 2, found 3",
      "1 monotone not-increasing — ts stayed at 7, it must go up",
      "2 sequence out-of-sequence — seq expected 4, found none",
      "2 monotone not-increasing — ts went from 7 down to 5",
      '2 lifecycle wrong-state — intent "a" processing → processing, found in processing, the clause accepts created',
    ]);
  });

  it("a key that is absent or of another type, and a kind that was not to come next", () => {
    const run = replay(
      paymentIntents({
        records: {
          source: "lines",
          kind: { path: "type" },
          fields: { intent: { path: "id", type: "string" }, flag: { path: "flag", type: "bool" } },
        },
        journal: {},
        kinds: {
          created: [
            { new: "intent", key: "$intent", to: "created" },
            { next: ["processing", "canceled"] },
          ],
          flagged: [{ new: "intent", key: "$flag", to: "created" }],
          processing: [],
          canceled: [],
        },
      }),
      lines([
        { type: "created" },
        { type: "flagged", flag: true },
        { type: "created", id: "a" },
        { type: "created", id: "b" },
      ]),
    );
    expect(said(run)).toEqual([
      "0 created#1 missing-key — the key is absent",
      "1 created#2 unexpected-kind — processing or canceled was to come next",
      "1 flagged#1 missing-key — the key is true, not an int or a string",
      "3 created#2 unexpected-kind — processing or canceled was to come next",
    ]);
  });

  it("a state moved earlier in the record is its state before the record, not when found", () => {
    const run = replay(
      paymentIntents({
        kinds: {
          created: [{ new: "intent", key: "$intent", to: "created" }],
          rushed: [
            { step: "intent", key: "$intent", from: ["created"], to: "processing" },
            { need: "intent", key: "$intent", in: ["created"], rule: "still-created" },
            { step: "intent", key: "$intent", from: ["processing"], to: "succeeded" },
          ],
          revived: [
            { need: "intent", key: "$intent", in: ["created"], rule: "exists" },
            { new: "intent", key: "$intent", to: "created" },
          ],
        },
        journal: {},
      }),
      lines([
        { type: "created", id: "a" },
        { type: "rushed", id: "a" },
        { type: "revived", id: "z" },
      ]),
    );
    expect(said(run)).toEqual([
      '1 still-created wrong-state — intent "a" created → succeeded, found in processing, the clause accepts created',
      '2 exists missing — intent "z" none → created, key "z" does not exist',
    ]);
  });

  it("an instance reuse forgets: its final state, and that its key is free again", () => {
    const run = replay(
      paymentIntents({
        entities: {
          intent: {
            states: ["created", "succeeded"],
            final: ["succeeded"],
            slots: ["amount"],
            reuse: true,
          },
        },
        kinds: {
          created: [
            { new: "intent", key: "$intent", to: "created" },
            { put: "@amount", value: "$amount" },
          ],
          succeeded: [
            { step: "intent", key: "$intent", from: ["created"], to: "succeeded" },
            { check: ["$amount", "==", "@amount"], rule: "amount-kept" },
          ],
        },
        journal: {},
      }),
      lines([
        { type: "created", id: "a", amount: 3 },
        { type: "succeeded", id: "a", amount: 4 },
      ]),
    );
    expect(said(run)).toEqual([
      '1 amount-kept check-failed — intent "a" created → succeeded (forgotten: its key is free again), $amount (4) == @amount (3) does not hold',
    ]);
  });

  it("each broken rule's first finding, listed or not, and no record read past the last", () => {
    const model = checkModel(paymentIntents({ journal: {} }), "model.json");
    const records = [
      ...Array.from({ length: 12 }, (_, i) => ({ type: "processing", id: `x${i}` })),
      { type: "created", id: "a", amount: -1 },
      { type: "processing", id: "y" },
      { type: "processing", id: "z" },
    ];
    const bytes = lines(records);
    const report = auditDataJournals(model, bytes)[0] as DataReport;
    const entries = readDataJournal(model, bytes, "j.jsonl").events as DataEntry[];
    let pulled = 0;
    function* counted(): Generator<DataEntry> {
      for (const entry of entries) {
        pulled += 1;
        yield entry;
      }
    }
    const replayed = replayFindings(model, counted(), report);
    expect(replayed?.listed).toHaveLength(10);
    const first = replayed?.firstOfRule.get("amount-positive");
    expect(first === undefined ? null : findingWordsText(findingWords(first), false)).toBe(
      'intent "a" none → created, $amount (-1) > 0 does not hold',
    );
    expect(replayed?.entries.get(12)?.parsed).toMatchObject({ text: JSON.stringify(records[12]) });
    // Record 12 is the last a wanted finding is at; the one after it is pulled, and not folded.
    expect(pulled).toBe(14);
  });

  it("a journal of a stream split by key: that journal's records only", () => {
    const model = paymentIntents({
      records: {
        source: "lines",
        kind: { path: "type" },
        fields: {
          account: { path: "account", type: "string" },
          intent: { path: "id", type: "string" },
          amount: { path: "amount", type: "int" },
        },
      },
      journal: { key: "account" },
    });
    const bytes = lines([
      { account: "A", type: "created", id: "a", amount: 1 },
      { account: "B", type: "created", id: "a", amount: 2 },
      { account: "B", type: "processing", id: "a" },
      { account: "A", type: "succeeded", id: "a", amount: 1 },
      { account: "B", type: "succeeded", id: "a", amount: 3 },
    ]);
    const run = replay(model, bytes, 1);
    expect(run.report.journal).toBe("B");
    expect(said(run)).toEqual([
      '2 amount-kept check-failed — intent "a" processing → succeeded, $amount (3) == @amount (2) does not hold',
    ]);
    expect(run.replayed.entries.get(2)?.line).toBe(5);
    expect(said(replay(model, bytes, 0))).toEqual([
      '1 lifecycle wrong-state — intent "a" created → created, found in created, the clause accepts processing',
      "1 amount-kept check-failed — $amount (1) == @amount (absent) does not hold",
    ]);
  });

  it("gives nothing for a journal that no longer gives its report's findings", () => {
    const model = checkModel(paymentIntents({ journal: {} }), "model.json");
    const audited = lines([{ type: "processing", id: "a" }]);
    const report = auditDataJournals(model, audited)[0] as DataReport;
    const changed = lines([{ type: "created", id: "a", amount: 1 }]);
    const entries = readDataJournal(model, changed, "j.jsonl").events as DataEntry[];
    expect(replayFindings(model, entries, report)).toBeNull();
  });
});
