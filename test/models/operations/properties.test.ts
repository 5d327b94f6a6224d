/**
 * Properties over generated journals (test/support/operations-arbitraries.ts): a well-behaved
 * runtime's journals are strictly conformant and end in the summary its own books predict;
 * each injected fault is caught by its rule at its index as the one finding of the journal;
 * the generator really reaches retries, unknown outcomes, readbacks, cancels and leases; and
 * the audit is total and self-consistent on arbitrary JSON.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  audit,
  ILLEGAL_RECORDS_LISTED_MAX,
  type OperationsReport,
  RECORD_KINDS,
  RULE_NAMES,
  RULE_OF_REASON,
} from "../../../src/models/operations/index.js";
import {
  FAULT_KINDS,
  type FaultKind,
  faultPlanArbitrary,
  type JsonRecord,
  type RuntimeJournal,
  runtimeJournalArbitrary,
  runtimePlanArbitrary,
  simulateRuntime,
} from "../../support/operations-arbitraries.js";

const RUNS = 120;
const FAULT_RUNS = 60;

describe("a well-behaved runtime", () => {
  it("journals strictly conformant histories, ending where its own books say", () => {
    fc.assert(
      fc.property(runtimeJournalArbitrary(), (journal) => {
        const report = audit(journal.records);
        expect(report.legality.first).toEqual([]);
        expect(report.strictlyConformant).toBe(true);
        expect(report.final).toEqual(journal.expectedFinal);
        expect(report.events).toBe(journal.records.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("journals whose every prefix is strictly conformant too", () => {
    fc.assert(
      fc.property(
        runtimeJournalArbitrary(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (j, cut) => {
          const prefix = j.records.slice(0, Math.floor(cut * j.records.length));
          expect(audit(prefix).strictlyConformant).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("reaches retries, unknowns, readbacks, cancels, leases and takeovers in a good share of runs", () => {
    const journals = fc.sample(runtimeJournalArbitrary(), { numRuns: 200, seed: 7 });
    const share = (reached: (journal: RuntimeJournal) => number) =>
      journals.filter((journal) => reached(journal) > 0).length / journals.length;
    expect(share((j) => j.stats.retries)).toBeGreaterThan(0.3);
    expect(share((j) => j.stats.unknowns)).toBeGreaterThan(0.5);
    expect(share((j) => j.stats.readbacks)).toBeGreaterThan(0.5);
    expect(share((j) => j.stats.absentReadbacks)).toBeGreaterThan(0.3);
    expect(share((j) => j.stats.cancels)).toBeGreaterThan(0.5);
    expect(share((j) => j.stats.leases)).toBeGreaterThan(0.8);
    expect(share((j) => j.stats.takeoversMidOperation)).toBeGreaterThan(0.5);
    expect(share((j) => j.stats.classified)).toBeGreaterThan(0.5);
    expect(share((j) => j.stats.finished)).toBeGreaterThan(0.8);
    const steps = journals.map((journal) => journal.expectedFinal.steps);
    expect(steps.some((s) => s.retryWait > 0)).toBe(true);
    expect(steps.some((s) => s.unknown > 0)).toBe(true);
    expect(steps.some((s) => s.failed > 0)).toBe(true);
  });
});

/** Every rule but `rule` holds, and `rule` names `index`. */
function expectOnlyBreach(report: OperationsReport, rule: string, index: number): void {
  for (const name of RULE_NAMES) {
    const verdict = report.invariants[name];
    if (name === rule) expect(verdict.holds ? null : verdict.index, name).toBe(index);
    else expect(verdict.holds, name).toBe(true);
  }
}

describe.each(FAULT_KINDS)("the fault %s", (kind: FaultKind) => {
  it("is caught by its rule at its index, the journal's one finding", () => {
    let placed = 0;
    fc.assert(
      fc.property(runtimePlanArbitrary(), faultPlanArbitrary(kind), (plan, fault) => {
        const journal = simulateRuntime(plan, fault);
        const report = audit(journal.records);
        if (journal.finding === null) {
          expect(report.strictlyConformant).toBe(true);
          return;
        }
        placed += 1;
        const { index, rule, reason } = journal.finding;
        expect(RULE_OF_REASON[reason]).toBe(rule);
        expect(report.legality.illegal).toBe(1);
        expect(report.legality.first.map((f) => [f.index, f.reason])).toEqual([[index, reason]]);
        expectOnlyBreach(report, rule, index);
        expect(report.final).toEqual(journal.expectedFinal);
      }),
      { numRuns: FAULT_RUNS },
    );
    expect(placed / FAULT_RUNS).toBeGreaterThan(0.2);
  });
});

// ---------------------------------------------------------------------------------------------
// Totality on arbitrary input

/** Fields of every kind, to give random records a chance of passing some checks. */
const FIELD_NAMES = [
  "op",
  "strand",
  "policy",
  "key",
  "effect",
  "attempt",
  "at",
  "request",
  "outputLimit",
  "outcome",
  "retryable",
  "retryAfterMs",
  "notBefore",
  "response",
  "class",
  "found",
  "epoch",
  "owner",
];

const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom("run-1", "e-1", "k", "chat-A", "ok", "error", "unknown", "aborted", "absent"),
  fc.integer({ min: -3, max: 3 }),
  fc.constant({ maxAttempts: null, baseDelayMs: 1, maxDelayMs: 5 }),
  fc.constant({ stop: "deferred", handle: { id: "h", provider: "p", model: "m", api: "a" } }),
);

const kindedRecord: fc.Arbitrary<JsonRecord> = fc
  .tuple(
    fc.constantFrom(...RECORD_KINDS),
    fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 8 }),
  )
  .map(([kind, fields]) => ({ ...fields, kind }));

/** A good journal with one field of one record replaced by an arbitrary value. */
const mutatedJournal: fc.Arbitrary<unknown[]> = fc
  .tuple(
    runtimeJournalArbitrary({ maxSteps: 30 }),
    fc.nat(),
    fc.constantFrom(...FIELD_NAMES),
    fieldValue,
  )
  .map(([journal, at, field, value]) => {
    const records: unknown[] = [...journal.records];
    if (records.length === 0) return records;
    const index = at % records.length;
    records[index] = { ...(records[index] as JsonRecord), [field]: value };
    return records;
  });

/** What holds of every report, whatever the input. */
function expectConsistent(records: readonly unknown[], report: OperationsReport): void {
  expect(report.model).toBe("operations");
  expect(report.events).toBe(records.length);
  expect(report.strictlyConformant).toBe(report.conformant);
  expect(report.conformant).toBe(report.integrity === null && report.legality.illegal === 0);
  expect(report.legality.first.length).toBe(
    Math.min(report.legality.illegal, ILLEGAL_RECORDS_LISTED_MAX),
  );
  for (const rule of RULE_NAMES) {
    const verdict = report.invariants[rule];
    const first = report.legality.first.find((finding) => RULE_OF_REASON[finding.reason] === rule);
    if (first !== undefined) expect(verdict.holds ? null : verdict.index).toBe(first.index);
    if (!verdict.holds && report.integrity !== null) {
      expect(verdict.index).toBeLessThan(report.integrity.index);
    }
  }
  const ops = Object.values(report.final.operations).reduce((sum, n) => sum + n, 0);
  expect(ops).toBeLessThanOrEqual(records.length);
  expect(report.final.effects).toBeLessThanOrEqual(records.length);
  expect(JSON.parse(JSON.stringify(report))).toEqual(report);
}

describe("audit is total", () => {
  it("never throws on arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 12 }), (records) => {
        expectConsistent(records, audit(records));
      }),
      { numRuns: RUNS },
    );
  });

  it("never throws on records of the right kinds with arbitrary fields", () => {
    fc.assert(
      fc.property(fc.array(kindedRecord, { maxLength: 25 }), (records) => {
        expectConsistent(records, audit(records));
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on a good journal with one field replaced, and reads it deterministically", () => {
    fc.assert(
      fc.property(mutatedJournal, (records) => {
        const report = audit(records);
        expectConsistent(records, report);
        expect(audit(JSON.parse(JSON.stringify(records)) as unknown[])).toEqual(report);
      }),
      { numRuns: RUNS },
    );
  });
});
