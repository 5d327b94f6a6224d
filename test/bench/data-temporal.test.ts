import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH_MODELS, BENCHED_MODELS } from "../../bench/models.js";
import { parseOnly } from "../../bench/parse-only.js";
import { journalPrefix } from "../../bench/prefix.js";
import { temporalHistory } from "../../bench/temporal/history.js";
import { temporalJournalFile } from "../../bench/temporal/journals.js";
import type { TemporalMix } from "../../bench/temporal/scales.js";
import { expectedReport, verifyFindings } from "../../bench/verify.js";
import { auditDataBytes } from "../../src/models/data/engine.js";
import { temporalModel } from "../../src/models/data/shipped/models.js";

const folder = mkdtempSync(join(tmpdir(), "statefold-temporal-bench-"));
const mix = (form: TemporalMix["form"]): TemporalMix => ({ events: 3_000, seed: 7, form });

describe("the benchmarks' Temporal histories", () => {
  it("are conformant under the shipped temporal model, every rule holding", async () => {
    const document = await temporalJournalFile(mix("document"), folder);
    const report = auditDataBytes(temporalModel.compiled, readFileSync(document.path));
    expect(report.events).toBe(3_000);
    expect(report.conformant).toBe(true);
    expect(Object.values(report.invariants).every((verdict) => verdict.holds)).toBe(true);
    expect(report.final.entities.activity?.completed).toBeGreaterThan(300);
  });

  it("mix both spellings of event types, ids as strings and an increasing taskId", () => {
    const events = [...temporalHistory({ events: 500, seed: 3 })];
    const types = events.map((event) => event.eventType as string);
    expect(types.some((type) => type.startsWith("EVENT_TYPE_"))).toBe(true);
    expect(types.some((type) => /^[A-Z][a-z]/.test(type))).toBe(true);
    const fired = types.filter(
      (type) => type === "TimerFired" || type === "EVENT_TYPE_TIMER_FIRED",
    );
    expect(fired.length).toBeGreaterThan(3);
    const taskIds = events.map((event) => BigInt(event.taskId as string));
    expect(taskIds.every((id, i) => i === 0 || id > (taskIds[i - 1] as bigint))).toBe(true);
    expect(events.map((event) => event.eventId)).toEqual(events.map((_, i) => String(i + 1)));
  });

  it("give the same report as JSONL and as a document, in the kernel and the reference", async () => {
    const jsonl = await temporalJournalFile(mix("jsonl"), folder);
    const document = await temporalJournalFile(mix("document"), folder);
    const fromJsonl = await expectedReport("temporal", jsonl.path);
    expect(fromJsonl.conformant).toBe(true);
    expect(await expectedReport("temporal", document.path)).toEqual(fromJsonl);
    const engines = BENCH_MODELS.temporal.engines;
    for (const path of [jsonl.path, document.path]) {
      const reference = await (await engines["temporal-reference"].prepare(path))();
      expect(reference).toEqual({ report: fromJsonl });
    }
  });

  it("are parsed by the parse-only floor record by record, the frame as a header", async () => {
    for (const form of ["jsonl", "document"] as const) {
      const journal = await temporalJournalFile(mix(form), folder);
      expect(await parseOnly(journal.path)).toBe(3_001);
      const prefix = await journalPrefix(journal, 40);
      expect(await parseOnly(prefix.path)).toBe(41);
      const report = await expectedReport("temporal", prefix.path);
      verifyFindings("prefix", [
        { engine: "parse-only", finding: { parsed: 41 }, expected: report, events: 40 },
      ]);
    }
  });
});

describe("bench:check's temporal row", () => {
  it("holds the data kernel to the parse-only floor on a JSONL history", () => {
    expect(BENCHED_MODELS).toContain("temporal"); // bench/check.ts measures each one's check
    const { scale, gates } = BENCH_MODELS.temporal.check;
    expect(scale.temporal.form).toBe("jsonl");
    expect(gates).toEqual([{ against: "parse-only", min: expect.any(Number) }]);
    expect(gates[0]?.min).toBeGreaterThanOrEqual(3);
  });

  it("and on the same history as a JSON document", () => {
    const [document] = BENCH_MODELS.temporal.moreChecks ?? [];
    expect(document?.scale.temporal.form).toBe("document");
    expect(document?.gates).toEqual([{ against: "parse-only", min: expect.any(Number) }]);
    expect(document?.gates[0]?.min).toBeGreaterThanOrEqual(3);
  });
});
