/**
 * Fault injection into generated operations journals (src/generate/operations/): every fault is
 * exactly one finding of the reference audit (docs/models/operations.md) — its rule and reason,
 * at its line — and the journal around it stays strictly conformant, so the findings are exactly
 * the faults injected. A plan the journal cannot hold is refused before the first line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FaultPlacementError } from "../../src/generate/fault-placement-error.js";
import {
  OPERATIONS_FAULT_FINDINGS,
  OPERATIONS_FAULT_KINDS,
  type OperationsFaultKind,
} from "../../src/generate/operations/fault-kinds.js";
import {
  type InjectedOperationsFault,
  type OperationsFaultRequest,
  type OperationsJournalOptions,
  operationsJournal,
} from "../../src/generate/operations/journal.js";
import {
  audit,
  foldRecord,
  initialState,
  type OperationsReport,
  RULE_NAMES,
  readRecord,
} from "../../src/models/operations/index.js";

function generate(options: Omit<OperationsJournalOptions, "onInjected">) {
  const injected: InjectedOperationsFault[] = [];
  const onInjected = (fault: InjectedOperationsFault) => injected.push(fault);
  const text = [...operationsJournal({ ...options, onInjected })].join("");
  const all = text.split("\n");
  const records = all.slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
  const report = audit(records, { lines: records.map((_, i) => i + 2) });
  return { text, all, records, injected, report, findings: everyFinding(records) };
}

/** Every record that breaks a rule, by the reference fold: its index and reason. */
function everyFinding(records: readonly unknown[]): { index: number; reason: string }[] {
  const findings: { index: number; reason: string }[] = [];
  let state = initialState();
  for (const [index, value] of records.entries()) {
    const read = readRecord(value);
    if (!read.ok) throw new Error(`record ${index} is malformed`);
    const judged = foldRecord(state, read.record);
    state = judged.state;
    if (judged.reason !== null) findings.push({ index, reason: judged.reason });
  }
  return findings;
}

/**
 * Each fault is the one finding at its line and every other rule holds: the illegal records
 * are as many as the faults, the first ten listed are the first ten faults, and each rule's
 * first breach is its first fault.
 */
function expectExactlyTheFaults(
  report: OperationsReport,
  injected: readonly InjectedOperationsFault[],
  records: number,
): void {
  expect(report.integrity).toBeNull();
  expect(report.events).toBe(records);
  const subject = (fault: InjectedOperationsFault) => ({
    op: fault.op,
    ...(fault.effect === null ? {} : { effect: fault.effect }),
  });
  expect(report.legality).toEqual({
    illegal: injected.length,
    first: injected.slice(0, 10).map((fault) => ({
      index: fault.index,
      line: fault.line,
      kind: fault.record,
      ...subject(fault),
      reason: fault.reason,
    })),
  });
  for (const rule of RULE_NAMES) {
    const fault = injected.find((candidate) => candidate.rule === rule);
    expect(report.invariants[rule], rule).toEqual(
      fault === undefined
        ? { holds: true }
        : { holds: false, index: fault.index, line: fault.line, ...subject(fault) },
    );
  }
  expect(report.conformant).toBe(injected.length === 0);
}

describe("operationsJournal --inject", () => {
  it.each(OPERATIONS_FAULT_KINDS)("%s: each one is exactly its finding, at its line", (kind) => {
    for (const seed of [1, 2, 3]) {
      const events = 2500;
      const { all, records, injected, report } = generate({
        events,
        seed,
        faults: [{ kind, count: 4 }],
      });
      expect(records).toHaveLength(events);
      expect(injected.map((fault) => fault.kind)).toEqual(Array(4).fill(kind));
      for (const fault of injected) {
        expect(fault).toMatchObject(OPERATIONS_FAULT_FINDINGS[kind]);
        const record = JSON.parse(all[fault.line - 1] as string) as Record<string, unknown>;
        expect(record).toMatchObject({ kind: fault.record, op: fault.op });
        if (fault.effect !== null) expect(record.effect).toBe(fault.effect);
      }
      expectExactlyTheFaults(report, injected, events);
    }
  });

  it("places faults of several kinds together, the findings exactly the injected ones", () => {
    let placedRuns = 0;
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.nat(),
          events: fc.integer({ min: 200, max: 2500 }),
          strands: fc.integer({ min: 1, max: 12 }),
        }),
        fc.array(
          fc.record({
            kind: fc.constantFrom(...OPERATIONS_FAULT_KINDS),
            count: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 2, maxLength: 4 },
        ),
        (options, faults) => {
          let generated: ReturnType<typeof generate>;
          try {
            generated = generate({ ...options, faults });
          } catch (error) {
            // Refused only for want of places, naming the kind.
            expect(error).toBeInstanceOf(FaultPlacementError);
            expect((error as Error).message).toMatch(
              /^cannot inject \d+ [a-z-]+: (none|only \d+) found a place \(/,
            );
            return;
          }
          const { injected, report, findings } = generated;
          expect(findings).toEqual(injected.map(({ index, reason }) => ({ index, reason })));
          const asked = new Map<OperationsFaultKind, number>();
          for (const { kind, count } of faults) asked.set(kind, (asked.get(kind) ?? 0) + count);
          for (const kind of OPERATIONS_FAULT_KINDS) {
            const placed = injected.filter((fault) => fault.kind === kind).length;
            expect(placed, kind).toBe(asked.get(kind) ?? 0);
          }
          expectExactlyTheFaults(report, injected, options.events);
          placedRuns += 1;
        },
      ),
      { numRuns: 40 },
    );
    // Not vacuous: most plans find their places.
    expect(placedRuns).toBeGreaterThanOrEqual(30);
  });

  it("holds every kind at once, on one strand as on many", () => {
    for (const strands of [1, 8, 30]) {
      const faults: OperationsFaultRequest[] = OPERATIONS_FAULT_KINDS.map((kind) => ({
        kind,
        count: 1,
      }));
      const { injected, report } = generate({ events: 4000, seed: 99, strands, faults });
      expect(new Set(injected.map((fault) => fault.kind))).toEqual(new Set(OPERATIONS_FAULT_KINDS));
      expectExactlyTheFaults(report, injected, 4000);
    }
  });

  it("holds many faults of every kind, each exactly one finding, and nothing else", () => {
    const faults = OPERATIONS_FAULT_KINDS.map((kind) => ({ kind, count: 12 }));
    const { injected, report, findings } = generate({ events: 12000, seed: 2024, faults });
    expect(injected).toHaveLength(120);
    expect(findings).toEqual(injected.map(({ index, reason }) => ({ index, reason })));
    expectExactlyTheFaults(report, injected, 12000);
  });

  it("gives the same bytes for the same plan, and others for another seed", () => {
    const faults = OPERATIONS_FAULT_KINDS.map((kind) => ({ kind, count: 1 }));
    const once = generate({ events: 3000, seed: 5, faults });
    const again = generate({ events: 3000, seed: 5, faults });
    expect(again.text).toBe(once.text);
    expect(again.injected).toEqual(once.injected);
    expect(generate({ events: 3000, seed: 6, faults }).text).not.toBe(once.text);
  });

  it("refuses a plan the journal cannot hold before the first line", () => {
    const tooMany = operationsJournal({
      events: 30,
      seed: 1,
      faults: [{ kind: "early-retry", count: 25 }],
    });
    expect(() => tooMany.next()).toThrow(
      /^cannot inject 25 early-retry: (none|only \d+) found a place \(a step waiting to be retried\) in 30 records; generate more events, or change --seed$/,
    );
    const noRoom = operationsJournal({
      events: 3,
      seed: 1,
      faults: [
        { kind: "busy-strand", count: 2 },
        { kind: "reused-effect", count: 2 },
      ],
    });
    expect(() => noRoom.next()).toThrow(
      "cannot inject 4 faults into 3 records; generate more events",
    );
    expect(() =>
      operationsJournal({ events: 0, seed: 1, faults: [{ kind: "stale-epoch", count: 1 }] }).next(),
    ).toThrow(FaultPlacementError);
  });
});
