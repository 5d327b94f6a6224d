/**
 * A model defined by data in the text output (src/report/data/text.ts): after each listed
 * finding, the numbers behind it (src/cli/finding-numbers.ts) — the instance it concerns with its
 * states before and after the record, and the values it compared — from the journal replayed;
 * what the report says alone when the journal cannot be read again.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { findingNumbersOfJournals } from "../../src/cli/finding-numbers.js";
import { checkModel } from "../../src/models/data/check.js";
import { auditDataJournals } from "../../src/models/data/engine.js";
import { dataModel } from "../../src/models/data/model.js";
import { addLoadedModel, type ModelReport } from "../../src/models/registry.js";
import { statefold, statefoldInProcess, tempFile } from "../cli/cli-process.js";

const MODEL = "examples/data/payment-intents.json";
const VIOLATIONS = "examples/data/payment-intents-violations.jsonl";

describe("the text output of a journal of a model file", () => {
  it("says after each listed finding its instance's states and the values it compared", async () => {
    const run = await statefoldInProcess(["audit", "--model", MODEL, VIOLATIONS]);
    expect(run.code).toBe(1);
    const listed = run.stdout.split("\n").filter((line) => line.startsWith("      line "));
    expect(listed).toEqual([
      "      line 4 (event 3)  payment_intent.succeeded  sequence: out-of-sequence — seq expected 4, found 5",
      '      line 4 (event 3)  payment_intent.succeeded  amount-kept: check-failed — intent "pi_3Qa1" processing → succeeded, $amount (1200) == @amount (1250) does not hold',
      '      line 5 (event 4)  payment_intent.created  created-once intent "pi_3Qa2": duplicate — created → created, key "pi_3Qa2" already exists',
      '      line 6 (event 5)  payment_intent.processing  lifecycle intent "pi_3Qa9": missing — none → none, key "pi_3Qa9" does not exist',
      "      line 7 (event 6)  payment_intent.requires_action  known-kinds: unknown-kind",
      '      line 7 (event 6)  payment_intent.requires_action  intent.atEnd intent "pi_3Qa2": open-at-end — created → created, it ended in created, it may end in succeeded or canceled',
    ]);
    // docs/models/data.md quotes them.
    const docs = readFileSync("docs/models/data.md", "utf8").split("\n");
    expect(docs.filter((line) => line.startsWith("      line "))).toEqual(listed);
  });

  it("says what the report says when the journal cannot be read again (standard input)", async () => {
    const run = await statefold(
      ["audit", "--model", MODEL, "-"],
      {},
      readFileSync(VIOLATIONS, "utf8"),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '      line 5 (event 4)  payment_intent.created  created-once intent "pi_3Qa2": duplicate\n',
    );
  });

  it("gives the numbers of one journal of a stream split by key, from that journal's records", async () => {
    const model = checkModel(
      {
        statefold: "model",
        version: 1,
        name: "split-jobs",
        records: {
          source: "lines",
          kind: { path: "k" },
          fields: { q: { path: "q", type: "string" }, id: { path: "id", type: "string" } },
        },
        journal: { key: "q" },
        entities: { job: { states: ["queued", "running"] } },
        kinds: {
          made: [{ new: "job", key: "$id", to: "queued" }],
          start: [{ step: "job", key: "$id", from: ["queued"], to: "running", rule: "lifecycle" }],
        },
      },
      "split-jobs.json",
    );
    addLoadedModel(dataModel(model.name, model, "a test's model"));
    const text = [
      { q: "A", k: "made", id: "a" },
      { q: "B", k: "made", id: "a" },
      { q: "B", k: "start", id: "a" },
      { q: "B", k: "start", id: "a" },
    ]
      .map((record) => `${JSON.stringify(record)}\n`)
      .join("");
    const file = tempFile("stream.jsonl", text);
    const [, journalB] = auditDataJournals(model, new TextEncoder().encode(text), { file });
    const [numbers = new Map()] = await findingNumbersOfJournals(file, [journalB as ModelReport]);
    // Keyed by the finding's place in the journal's own list: B's first finding, its record 2.
    expect(journalB?.legality.first.map((finding) => finding.index)).toEqual([2]);
    expect([...numbers]).toEqual([
      [0, "running → running, found in running, the clause accepts queued"],
    ]);
  });
});
