/**
 * The operations generator (src/generate/operations/): its journals, audited by the reference
 * model (docs/models/operations.md), are strictly conformant for any seed, size and number of
 * strands; they reach what a vacuous generator would not (retries, unknowns, both readbacks,
 * cancels, leases, hints, classes); they are deterministic per seed, and made lazily.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  OPERATIONS_HEADER,
  type OperationsJournalOptions,
  operationsJournal,
  operationsJournalChunks,
} from "../../src/generate/operations/journal.js";
import {
  audit,
  isCount,
  NO_RETRY_POLICY,
  type Policy,
  retryWait,
} from "../../src/models/operations/index.js";

const textOf = (options: OperationsJournalOptions) => [...operationsJournal(options)].join("");

function recordsOf(text: string): { records: Record<string, unknown>[]; lines: number[] } {
  const all = text.split("\n");
  expect(all[0]).toBe(OPERATIONS_HEADER);
  expect(all.at(-1)).toBe("");
  const records = all.slice(1, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { records, lines: records.map((_, i) => i + 2) };
}

/** What a well-behaved runtime's journal shows beyond the rules: its clock and its epochs. */
function expectRuntimeShape(records: readonly Record<string, unknown>[]): void {
  let clock = Number.NEGATIVE_INFINITY;
  const strandOf = new Map<string, string>();
  const epochOf = new Map<string, number>();
  for (const [index, record] of records.entries()) {
    if (record.kind === "lease") {
      epochOf.set(record.strand as string, record.epoch as number);
      continue;
    }
    if (record.kind === "accepted") strandOf.set(record.op as string, record.strand as string);
    const strand = strandOf.get(record.op as string) as string;
    expect(record.epoch, `record ${index}`).toBe(epochOf.get(strand));
    if (record.kind === "accepted") continue;
    expect(Number.isSafeInteger(record.at), `record ${index}`).toBe(true);
    expect(record.at as number, `record ${index}: the clock`).toBeGreaterThanOrEqual(clock);
    clock = record.at as number;
  }
}

describe("operationsJournal", () => {
  it("is strictly conformant, with a monotonic clock and the lease's epoch on every record of a leased strand", () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.nat(),
          events: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 31, max: 1500 })),
          strands: fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 40 })),
        }),
        (options) => {
          const { records, lines } = recordsOf(textOf(options));
          expect(records).toHaveLength(options.events);
          const report = audit(records, { lines });
          expect(report.legality).toEqual({ illegal: 0, first: [] });
          expect(report.strictlyConformant).toBe(true);
          expect(report.final.strands).toBeLessThanOrEqual(options.strands);
          expectRuntimeShape(records);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("is strictly conformant on a longer journal, ops finishing every way", () => {
    const { records, lines } = recordsOf(textOf({ events: 6000, seed: 2026, strands: 8 }));
    const report = audit(records, { lines });
    expect(report.strictlyConformant).toBe(true);
    expect(report.events).toBe(6000);
    const { operations } = report.final;
    expect(operations.completed).toBeGreaterThan(100);
    expect(operations.failed).toBeGreaterThan(10);
    expect(operations.aborted).toBeGreaterThan(10);
    // Only the ops still live at the end are running: at most one a strand.
    expect(operations.running + operations.cancelled).toBeLessThanOrEqual(8);
    expectRuntimeShape(records);
  });

  it("reaches retries, unknowns, both readbacks, cancels, leases, hints and classes (vacuity guard)", () => {
    const { records } = recordsOf(textOf({ events: 20000, seed: 7 }));
    const figures = vacuityFigures(records);
    const least: Partial<Record<keyof typeof figures, number>> = {
      retries: 500,
      retriesAfterAbsent: 50,
      laddersRecorded: 300,
      hints: 100,
      hintsDeciding: 10,
      badHints: 30,
      nonRetryable: 100,
      unknowns: 300,
      committed: 100,
      absent: 100,
      cancels: 100,
      aborted: 100,
      leases: 60,
      leasesMidOperation: 30,
      classes: 500,
      classKinds: 7,
      requests: 1000,
      outputLimits: 500,
      withoutPolicy: 100,
    };
    for (const [name, minimum] of Object.entries(least))
      expect(figures[name as keyof typeof figures], name).toBeGreaterThanOrEqual(minimum as number);
    // The figures, for the record of what the generator reaches.
    console.info(`operations generator, 20000 records, seed 7: ${JSON.stringify(figures)}`);
  });

  it("gives the same bytes for the same options, and others for another seed or strand count", () => {
    const options = { events: 2000, seed: 41, strands: 5 };
    const once = textOf(options);
    expect(textOf(options)).toBe(once);
    expect(textOf({ ...options, seed: 42 })).not.toBe(once);
    expect(textOf({ ...options, strands: 6 })).not.toBe(once);
    expect(textOf({ events: 500, seed: 41, strands: 5 })).toBe(
      `${once.split("\n").slice(0, 501).join("\n")}\n`,
    );
  });

  it("gives the same text in chunks of whole lines, faults and all", () => {
    const faults = [
      { kind: "early-retry" as const, count: 2 },
      { kind: "busy-strand" as const, count: 1 },
    ];
    const options = { events: 3000, seed: 12, faults };
    for (const chunkChars of [1, 500, 64 * 1024]) {
      const chunks = [...operationsJournalChunks(options, chunkChars)];
      expect(chunks.every((chunk) => chunk.endsWith("\n"))).toBe(true);
      if (chunkChars === 500) expect(chunks.length).toBeGreaterThan(100);
      expect(chunks.join("")).toBe(textOf(options));
    }
  });

  it("makes its lines lazily, whatever the length asked for", () => {
    const journal = operationsJournal({ events: Number.MAX_SAFE_INTEGER, seed: 1 });
    const first: string[] = [];
    for (const line of journal) {
      first.push(line);
      if (first.length === 1000) break;
    }
    expect(first[0]).toBe(`${OPERATIONS_HEADER}\n`);
    expect(
      first.every((line) => line.endsWith("\n") && line.indexOf("\n") === line.length - 1),
    ).toBe(true);
  });
});

/** How often the journal does each thing a vacuous generator would never do. */
function vacuityFigures(records: readonly Record<string, unknown>[]) {
  const figures = {
    intents: 0,
    retries: 0,
    retriesAfterAbsent: 0,
    laddersRecorded: 0,
    hints: 0,
    hintsDeciding: 0,
    badHints: 0,
    nonRetryable: 0,
    unknowns: 0,
    committed: 0,
    absent: 0,
    cancels: 0,
    aborted: 0,
    leases: 0,
    leasesMidOperation: 0,
    classes: 0,
    classKinds: 0,
    requests: 0,
    outputLimits: 0,
    withoutPolicy: 0,
  };
  const policyOf = new Map<string, Policy>();
  const strandOf = new Map<string, string>();
  const running = new Map<string, string>();
  const intentOf = new Map<string, Record<string, unknown>>();
  const absentSteps = new Set<string>();
  const classKinds = new Set<unknown>();
  for (const record of records) {
    switch (record.kind) {
      case "accepted":
        policyOf.set(record.op as string, (record.policy as Policy) ?? NO_RETRY_POLICY);
        if (record.policy === undefined) figures.withoutPolicy += 1;
        strandOf.set(record.op as string, record.strand as string);
        running.set(record.strand as string, record.op as string);
        break;
      case "intent": {
        figures.intents += 1;
        const step = `${record.op} ${record.key}`;
        if ((record.attempt as number) > 1) figures.retries += 1;
        if ((record.attempt as number) > 1 && absentSteps.delete(step))
          figures.retriesAfterAbsent += 1;
        if (record.request !== undefined) figures.requests += 1;
        if ((record.outputLimit ?? 0) !== 0) figures.outputLimits += 1;
        intentOf.set(record.effect as string, record);
        break;
      }
      case "settled": {
        if (record.outcome === "unknown") figures.unknowns += 1;
        if (record.outcome === "error" && record.retryable !== true) figures.nonRetryable += 1;
        if (record.notBefore !== undefined) figures.laddersRecorded += 1;
        if ("retryAfterMs" in record) {
          if (!isCount(record.retryAfterMs)) figures.badHints += 1;
          else {
            figures.hints += 1;
            const intent = intentOf.get(record.effect as string) as Record<string, unknown>;
            const policy = policyOf.get(record.op as string) as Policy;
            const ladder = retryWait(policy, intent.attempt as number, record.effect as string, 0);
            if ((record.retryAfterMs as number) > ladder) figures.hintsDeciding += 1;
          }
        }
        if (record.class !== undefined) {
          figures.classes += 1;
          classKinds.add(record.class);
        }
        break;
      }
      case "readback":
        if (record.found === "committed") figures.committed += 1;
        else {
          figures.absent += 1;
          const intent = intentOf.get(record.effect as string) as Record<string, unknown>;
          absentSteps.add(`${record.op} ${intent.key}`);
        }
        break;
      case "cancel-requested":
        figures.cancels += 1;
        break;
      case "finished":
        if (record.outcome === "aborted") figures.aborted += 1;
        if (running.get(strandOf.get(record.op as string) as string) === record.op)
          running.delete(strandOf.get(record.op as string) as string);
        break;
      case "lease":
        figures.leases += 1;
        if (running.has(record.strand as string)) figures.leasesMidOperation += 1;
        break;
      default:
        throw new Error(`unexpected record kind ${String(record.kind)}`);
    }
  }
  figures.classKinds = classKinds.size;
  return figures;
}
