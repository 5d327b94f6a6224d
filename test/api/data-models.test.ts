/**
 * Models defined by data through the library (docs/api.md, "Models defined by data"): a model
 * file read and checked, both engines made for it agreeing, snapshots resuming, and the shipped
 * models loaded by name like any model.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { data, JournalError, journalReports, loadEngine } from "../../src/index.js";

const MODEL = "examples/data/payment-intents.json";
const JOURNAL = "examples/data/payment-intents-violations.jsonl";

describe("a model file in the library", () => {
  it("is read and checked, and both its engines give one report, resumed from a snapshot too", async () => {
    const model = await data.loadModelFile(MODEL);
    const bytes = readFileSync(JOURNAL);
    const reference = data.referenceEngineOf(model);
    const kernel = await data.loadEngineOf(model);
    const report = await reference.auditBytes(bytes, { file: JOURNAL });
    const [only] = journalReports(report);
    expect(journalReports(report)).toHaveLength(1);
    expect(only?.model).toBe("payment-intents");
    expect(only?.conformant).toBe(false);
    expect(await kernel.auditBytes(bytes, { file: JOURNAL })).toEqual(report);
    const cut = bytes.indexOf(0x0a, bytes.length / 2) + 1;
    const auditor = kernel.openAuditor({ file: JOURNAL, snapshots: true });
    auditor.write(bytes.subarray(0, cut));
    const resumed = await kernel.resume(auditor.snapshot(), bytes, { file: JOURNAL });
    expect(resumed.finish()).toEqual(report);
  });

  it("refuses a model file's mistake by its JSON Pointer, line and column", () => {
    const text =
      '{"statefold":"model","version":1,"name":"n",\n"records":{"source":"lines","kind":{"path":"k"}},"kinds":{"a":["twice"]}}';
    const refusal = () => data.parseModelFile(new TextEncoder().encode(text), "m.json");
    expect(refusal).toThrow(data.ModelFileError);
    expect(refusal).toThrow(JournalError);
    expect(refusal).toThrow(
      /^m\.json:2:\d+: model file \/kinds\/a\/0: a clause written as a string must be "first", "once" or "last", found "twice"$/,
    );
  });

  it("reports each journal of a stream split by journal.key", async () => {
    const model = await data.loadModelFile("examples/data/orders.json");
    const bytes = readFileSync("examples/data/orders.jsonl");
    const reports = data.auditDataJournals(model, bytes);
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.every((report) => report.journal !== undefined && report.conformant)).toBe(true);
    const answer = await data.referenceEngineOf(model).auditBytes(bytes);
    expect(answer).toEqual({ journals: reports });
  });
});

describe("a shipped model defined by data", () => {
  it("is loaded by name like any model", async () => {
    const kernel = await loadEngine({ model: "temporal" });
    const report = await kernel.auditBytes(
      readFileSync("examples/temporal/worker-deployment.json"),
      { file: "h" },
    );
    expect([report.conformant, report.events]).toEqual([true, 7]);
  });
});

describe("the shipped models' compiled files", () => {
  it("give the reference engine the kernel loaded by name agrees with", async () => {
    const bytes = readFileSync("examples/cadence/greetings-event-lost.json");
    const reference = await data
      .referenceEngineOf(data.shipped.cadence)
      .auditBytes(bytes, { file: "h" });
    const kernel = await (await loadEngine({ model: "cadence" })).auditBytes(bytes, { file: "h" });
    expect(journalReports(reference).map((report) => report.conformant)).toEqual([false]);
    expect(kernel).toEqual(reference);
  });
});
