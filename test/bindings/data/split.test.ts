/**
 * The data kernel over a stream split by `journal.key` (docs/models/data.md, "A stream of
 * journals"): a report per journal, in order of first appearance, each counting its own records
 * at the file's lines; what belongs to the stream — an integrity error, a torn tail — in every
 * journal's report; the reference's reports (src/models/data/engine.ts, auditDataJournals) for
 * the same bytes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadDataEngine, type WasmDataEngine } from "../../../bindings/data/engine.js";
import type { CompiledModel } from "../../../src/models/data/compiled.js";
import { auditDataJournals } from "../../../src/models/data/engine.js";
import type { DataJournalsReport, DataReport } from "../../../src/models/data/report.js";
import { concatBytes, encode } from "../../support/bytes.js";
import { accountRecord, jsonl, paymentIntents, splitPayments } from "./models.js";

let engine: WasmDataEngine<DataJournalsReport>;

beforeAll(async () => {
  engine = await loadDataEngine<DataJournalsReport>(splitPayments());
});

/** The kernel's reports, held to the reference's before the example looks at them. */
async function journalsOf(bytes: Uint8Array, model: CompiledModel = splitPayments()) {
  const kernel = model === engine.model ? engine : await loadDataEngine<DataJournalsReport>(model);
  const { journals } = await kernel.auditBytes(bytes, { file: "stream.jsonl" });
  expect(journals).toEqual(auditDataJournals(model, bytes, { file: "stream.jsonl" }));
  return journals;
}

const created = "payment_intent.created";
const processing = "payment_intent.processing";
const succeeded = "payment_intent.succeeded";

/** Two accounts' lifecycles interleaved, the same intent id in both. */
const interleaved = () =>
  jsonl(
    accountRecord("acct_a", created, 1, "pi_1", 5),
    accountRecord("acct_b", created, 1, "pi_1", 7),
    accountRecord("acct_a", processing, 2, "pi_1"),
    accountRecord("acct_b", processing, 2, "pi_1"),
    accountRecord("acct_b", succeeded, 3, "pi_1", 7),
    accountRecord("acct_a", succeeded, 4, "pi_1", 5),
  );

describe("loadDataEngine: a stream split by a key", () => {
  it("is a report per journal in order of first appearance, each with its key, its own records counted", async () => {
    const journals = await journalsOf(interleaved());
    expect(journals.map((journal) => [journal.journal, journal.events])).toEqual([
      ["acct_a", 3],
      ["acct_b", 3],
    ]);
    const [a, b] = journals as [DataReport, DataReport];
    expect(b.conformant).toBe(true);
    // acct_a's third record is the file's sixth line; its sequence skipped 3 in its own journal.
    expect(a.legality.first).toEqual([
      { index: 2, line: 6, kind: succeeded, rule: "sequence", reason: "out-of-sequence" },
    ]);
    // The same intent id in two journals is two instances: each closed in its own.
    expect(a.final.entities.intent).toEqual(b.final.entities.intent);
    expect(a.final.entities.intent?.succeeded).toBe(1);
  });

  it("reports each journal's open instances at its own last record", async () => {
    const journals = await journalsOf(
      jsonl(
        accountRecord("acct_a", created, 1, "pi_1", 5),
        accountRecord("acct_b", created, 1, "pi_2", 7),
        accountRecord("acct_a", processing, 2, "pi_1"),
      ),
    );
    expect(journals.map((journal) => journal.invariants["intent.atEnd"])).toEqual([
      {
        holds: false,
        index: 1,
        line: 3,
        kind: processing,
        reason: "open-at-end",
        entity: "intent",
        key: "pi_1",
      },
      {
        holds: false,
        index: 0,
        line: 2,
        kind: created,
        reason: "open-at-end",
        entity: "intent",
        key: "pi_2",
      },
    ]);
  });

  it("stops every journal at a record without a key, each at its own count, with no end findings", async () => {
    const journals = await journalsOf(
      jsonl(
        accountRecord("acct_a", created, 1, "pi_1", 5),
        accountRecord("acct_b", created, 1, "pi_2", 7),
        accountRecord("acct_a", processing, 2, "pi_1"),
        { type: processing, seq: 2, data: { object: { id: "pi_2" } } },
        accountRecord("acct_c", created, 1, "pi_3", 1),
      ),
    );
    const message = 'the record has no journal key: field "account" is absent';
    expect(journals.map((journal) => [journal.journal, journal.events, journal.integrity])).toEqual(
      [
        ["acct_a", 2, { index: 2, line: 4, reason: "malformed-event", message }],
        ["acct_b", 1, { index: 1, line: 4, reason: "malformed-event", message }],
      ],
    );
    for (const journal of journals) expect(journal.legality.illegal).toBe(0);
  });

  it("stops every journal at a line that is not JSON, or a key of another type", async () => {
    const broken = await journalsOf(
      concatBytes(
        jsonl(accountRecord("acct_a", created, 1, "pi_1", 5)),
        encode('{"type":\n'),
        jsonl(accountRecord("acct_b", created, 1, "pi_2", 7)),
      ),
    );
    expect(broken.map((journal) => journal.integrity?.message)).toEqual([
      "the line is not valid JSON",
    ]);
    const numbered = await journalsOf(
      jsonl(accountRecord("acct_a", created, 1, "pi_1", 5), {
        ...accountRecord("acct_a", processing, 2, "pi_1"),
        account: 7,
      }),
    );
    expect(numbered[0]?.integrity).toMatchObject({ index: 1, line: 2 });
    expect(numbered[0]?.integrity?.message).toMatch(/^field "account" \(account\) is not a string/);
  });

  it("reports a stream in which no journal began as one report, journal null", async () => {
    for (const bytes of [new Uint8Array(0), encode("[]\n"), jsonl({ type: created })]) {
      const journals = await journalsOf(bytes);
      expect(journals).toHaveLength(1);
      expect(journals[0]?.journal).toBeNull();
      expect(journals[0]?.events).toBe(0);
    }
  });

  it("writes the stream's torn tail into every journal's report", async () => {
    const journals = await journalsOf(
      concatBytes(interleaved(), encode('{"account":"acct_c","type":"payme')),
    );
    expect(journals.map((journal) => journal.tornTail)).toEqual([
      { line: 7, offset: expect.any(Number) },
      { line: 7, offset: expect.any(Number) },
    ]);
  });

  it("keeps the journals of many keys apart as its table of journals grows", async () => {
    const records = [];
    for (let i = 0; i < 200; i++)
      records.push(accountRecord(`acct_${i % 40}`, created, 1 + Math.floor(i / 40), `pi_${i}`, i));
    const journals = await journalsOf(jsonl(...records));
    expect(journals).toHaveLength(40);
    expect(journals.every((journal) => journal.events === 5)).toBe(true);
  });

  it("audits a document's records split the same way", async () => {
    const model = splitPayments({ source: { arrays: [[{ member: "events" }]] } });
    const records = [
      accountRecord("acct_a", created, 1, "pi_1", 5),
      accountRecord("acct_b", created, 1, "pi_1", 7),
      accountRecord("acct_a", processing, 3, "pi_1"),
    ];
    const journals = await journalsOf(encode(JSON.stringify({ events: records })), model);
    expect(journals.map((journal) => [journal.journal, journal.events])).toEqual([
      ["acct_a", 2],
      ["acct_b", 1],
    ]);
  });

  it("stops the stream at the memory limit as an unsplit journal stops, naming the file and line", async () => {
    const limited = await loadDataEngine<DataJournalsReport>(splitPayments(), {
      memoryLimitBytes: 4 << 20,
    });
    const records = [];
    for (let i = 0; i < 60_000; i++) records.push(accountRecord(`acct_${i}`, created, 1, "pi", 1));
    await expect(limited.auditBytes(jsonl(...records), { file: "big.jsonl" })).rejects.toThrow(
      /^big\.jsonl:\d+: the WebAssembly memory cannot grow any further/,
    );
  });

  it("streams through an auditor in chunks of any size, to the same reports", async () => {
    const bytes = interleaved();
    const auditor = engine.openAuditor({ file: "stream.jsonl" });
    for (let at = 0; at < bytes.length; at += 7) auditor.write(bytes.subarray(at, at + 7));
    expect(auditor.finish()).toEqual({
      journals: auditDataJournals(splitPayments(), bytes, { file: "stream.jsonl" }),
    });
  });

  it("keys journals by an int field, written as a number or as digits alike", async () => {
    const model = splitPayments();
    const byInt = {
      ...model,
      fields: model.fields.map((field) =>
        field.name === "account" ? { ...field, type: "int" as const } : field,
      ),
    };
    const journals = await journalsOf(
      jsonl(
        { ...accountRecord("", created, 1, "pi_1", 5), account: 7 },
        { ...accountRecord("", created, 1, "pi_1", 5), account: "8" },
        { ...accountRecord("", processing, 2, "pi_1"), account: "7" },
        { ...accountRecord("", processing, 2, "pi_1"), account: 8.0 },
      ),
      byInt,
    );
    expect(journals.map((journal) => [journal.journal, journal.events])).toEqual([
      [7, 2],
      [8, 2],
    ]);
  });

  it("leaves a model that does not split its stream one report", async () => {
    const unsplit = await loadDataEngine(paymentIntents());
    const report = await unsplit.auditBytes(interleaved());
    expect(report).not.toHaveProperty("journal");
    expect(report.events).toBe(6);
  });
});
