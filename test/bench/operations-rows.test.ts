/**
 * The operations rows of the benchmarks (bench/): the journals they are measured on, the engines
 * a scale of the operations model measures, the check that every figure is of a right answer,
 * and the rows and tables made of them — on small journals, in this process (the suite and
 * bench:check run each engine in a worker of its own, bench/worker.ts, through the same
 * `prepareEngine`).
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { basename } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ENGINE_NAMES,
  type EngineName,
  enginesOfModel,
  type Finding,
  prepareEngine,
} from "../../bench/engines.js";
import { benchmarksMarkdown } from "../../bench/markdown.js";
import type { Measurement } from "../../bench/measure.js";
import { operationsJournal } from "../../bench/operations/journals.js";
import { OPERATIONS_CHECK_SCALE, type OperationsScale } from "../../bench/operations/scales.js";
import { journalPrefix } from "../../bench/prefix.js";
import { type Row, ratioToWasm, rowOf } from "../../bench/rows.js";
import { SCALES, scaleJournal } from "../../bench/scales.js";
import { expectedReport, verifyFindings } from "../../bench/verify.js";
import { OPERATIONS_FAULT_KINDS } from "../../src/generate/operations/fault-kinds.js";
import {
  OPERATIONS_HEADER,
  operationsJournalChunks,
} from "../../src/generate/operations/journal.js";
import { STATUSES, type Status } from "../../src/models/dag/state.js";
import type { ModelReport } from "../../src/models/registry.js";
import { testTempDir } from "../support/temp-dirs.js";

const folder = testTempDir("statefold-bench-test-");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The check's scale, at 20 000 records with two faults of each kind. */
const SMALL: OperationsScale = {
  ...OPERATIONS_CHECK_SCALE,
  name: "test-operations-2e4-records",
  operations: { events: 20_000, seed: 7, faultsOfEachKind: 2 },
};

async function findingOf(engine: EngineName, path: string): Promise<Finding> {
  return (await prepareEngine(engine, path))();
}

describe("the operations journals of the benchmarks", () => {
  it("are the generator's journal of the mix, written once, named by the options", async () => {
    const journal = await scaleJournal(SMALL, folder);
    expect(basename(journal.path)).toBe("operations-e20000-s7-f2.jsonl");
    const faults = OPERATIONS_FAULT_KINDS.map((kind) => ({ kind, count: 2 }));
    const generated = [...operationsJournalChunks({ events: 20_000, seed: 7, faults })].join("");
    const text = readFileSync(journal.path, "utf8");
    expect(text).toBe(generated);
    expect(text.split("\n")[0]).toBe(OPERATIONS_HEADER);
    expect(text.split("\n")).toHaveLength(20_000 + 2); // the header, the records, "" after the last
    expect(journal.bytes).toBe(Buffer.byteLength(text));

    const written = statSync(journal.path).mtimeMs;
    expect(await scaleJournal(SMALL, folder)).toEqual(journal);
    expect(statSync(journal.path).mtimeMs).toBe(written);
  });

  it("name every option that is not the generator's default", async () => {
    const mix = { events: 300, seed: 3, strands: 2, faultsOfEachKind: 0 };
    const journal = await operationsJournal(mix, folder);
    expect(basename(journal.path)).toBe("operations-e300-s3-t2-f0.jsonl");
    const generated = [...operationsJournalChunks({ events: 300, seed: 3, strands: 2 })].join("");
    expect(readFileSync(journal.path, "utf8")).toBe(generated);
  });

  it("are measured at 10⁵, 10⁶ and 10⁷ records, one illegal record in a thousand", () => {
    const operations = SCALES.filter((scale) => scale.model === "operations");
    expect(operations.map((scale) => scale.operations.events)).toEqual([1e5, 1e6, 1e7]);
    for (const scale of operations) {
      const faults = scale.operations.faultsOfEachKind * OPERATIONS_FAULT_KINDS.length;
      expect(faults / scale.operations.events).toBe(0.001);
    }
  });
});

describe("the engines of an operations scale", () => {
  it("are the WASM operations engine first, the parse-only floor and the reference", () => {
    expect(enginesOfModel("operations", ENGINE_NAMES)).toEqual([
      "operations-wasm-jsonl",
      "parse-only",
      "operations-reference",
    ]);
    // --engines naming only dag engines still measures the model's WASM engine (every ratio is to it).
    expect(enginesOfModel("operations", ["wasm-jsonl", "js-auditor"])).toEqual([
      "operations-wasm-jsonl",
    ]);
    const dag = enginesOfModel("dag", ENGINE_NAMES);
    expect(dag[0]).toBe("wasm-jsonl");
    expect(dag).toContain("parse-only");
    expect(dag.filter((engine) => engine.startsWith("operations-"))).toEqual([]);
  });

  it("agree with the WASM operations engine, whole and on a prefix", async () => {
    const journal = await scaleJournal(SMALL, folder);
    const expected = await expectedReport("operations", journal.path);
    expect(expected.model).toBe("operations");
    expect(expected.events).toBe(20_000);
    // Every injected fault is found: the journal is no trivially conformant one.
    expect(expected.legality.illegal).toBe(2 * OPERATIONS_FAULT_KINDS.length);

    const engines = enginesOfModel("operations", ENGINE_NAMES);
    const findings = await Promise.all(engines.map((engine) => findingOf(engine, journal.path)));
    expect(findings[0]).toEqual({ report: expected });
    expect(findings[1]).toEqual({ parsed: 20_001 });
    expect(findings[2]).toEqual({ report: expected });
    const checked = engines.map((engine, at) => ({
      engine,
      finding: findings[at] as Finding,
      expected,
      events: 20_000,
    }));
    expect(() => verifyFindings(SMALL.name, checked)).not.toThrow();

    const prefix = await journalPrefix(journal, 5000);
    const onPrefix = await expectedReport("operations", prefix.path);
    expect(onPrefix.events).toBe(5000);
    const reference = await findingOf("operations-reference", prefix.path);
    expect(() =>
      verifyFindings(SMALL.name, [
        { engine: "operations-reference", finding: reference, expected: onPrefix, events: 5000 },
      ]),
    ).not.toThrow();
  });

  it("are refused when they disagree", async () => {
    const journal = await scaleJournal(SMALL, folder);
    const expected = await expectedReport("operations", journal.path);
    const verify =
      (engine: EngineName, finding: Finding, events = 20_000) =>
      () =>
        verifyFindings(SMALL.name, [{ engine, finding, expected, events }]);

    const wrong = {
      ...expected,
      legality: { ...expected.legality, illegal: expected.legality.illegal - 1 },
    } as ModelReport;
    expect(verify("operations-reference", { report: wrong })).toThrow(
      /operations-reference disagrees/,
    );
    expect(verify("parse-only", { parsed: 20_000 })).toThrow(/parsed 20000 lines/);
    expect(verify("operations-wasm-jsonl", { report: expected }, 19_999)).toThrow(
      /20000 events in the journal, not 19999/,
    );
    const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<
      Status,
      number
    >;
    expect(verify("xstate", { counts })).toThrow(/journal is of the operations model/);
  });
});

describe("the operations rows", () => {
  const measurement = (engine: EngineName, p50Ms: number, maxRssBytes: number): Measurement => ({
    job: { engine, path: "journal.jsonl" },
    samplesMs: [p50Ms, p50Ms],
    cpuSamplesMs: [p50Ms, p50Ms],
    p50Ms,
    maxRssBytes,
    finding: { parsed: 0 },
  });
  const scale: OperationsScale = {
    ...SMALL,
    name: "operations-1e5-records-8-strands",
    operations: { events: 100_000, seed: 42, faultsOfEachKind: 10 },
  };
  const whole = { path: "journal.jsonl", bytes: 12_000_000, events: 100_000, of: 100_000 };
  const prefix = { path: "prefix.jsonl", bytes: 1_200_000, events: 10_000, of: 100_000 };
  const rows: Row[] = [
    rowOf(scale.name, measurement("operations-wasm-jsonl", 100, 80 * 2 ** 20), whole, true),
    rowOf(scale.name, measurement("parse-only", 200, 100 * 2 ** 20), whole, true),
    rowOf(scale.name, measurement("operations-reference", 1000, 300 * 2 ** 20), prefix, true),
  ];

  it("give MB/s and events/s of the span read, and ratios to the WASM operations engine", () => {
    expect(rows.map((row) => row.megabytesPerSecond)).toEqual([120, 60, 1.2]);
    expect(rows.map((row) => row.eventsPerSecond)).toEqual([1_000_000, 500_000, 10_000]);
    expect(rows.map((row) => ratioToWasm(row, rows))).toEqual([1, 0.5, 0.01]);
  });

  it("are tabled in BENCHMARKS.md under the operations model's summary and chart", () => {
    const markdown = benchmarksMarkdown({
      command: "npm run bench",
      date: "2026-12-01 00:00 UTC",
      machine: {
        cpu: "a CPU",
        cores: 2,
        memoryGiB: 24,
        node: "v20",
        os: "Linux",
        loadAtStart: 0,
      },
      loadAtEnd: 0,
      idleNodeRssBytes: 44 * 2 ** 20,
      scales: [scale],
      journalBytes: new Map([[scale.name, 12_000_000]]),
      rows,
      chartFiles: new Map([["operations", "bench/throughput-operations.svg"]]),
    });
    const lines = markdown.split("\n");
    const table = lines.slice(
      lines.indexOf(`## \`${scale.name}\`: 100 000 records, 8 strands, 100 injected faults, 12 MB`),
    );
    expect(table.slice(4, 7)).toEqual([
      "| WASM operations engine, JSONL | 100 000 | 1 000 000 | 120.0 | 100.0 ms | 2 | 80 MiB | 1.00× |",
      "| parse-only floor | 100 000 | 500 000 | 60.0 | 200.0 ms | 2 | 100 MiB | 0.50× |",
      "| operations reference model | **prefix**: first 10 000 of 100 000 (10 %) | 10 000 | 1.2 | 1.00 s | 2 | 300 MiB | 0.010× |",
    ]);
    expect(markdown).toContain(
      "![Throughput of the operations model against journal size](bench/throughput-operations.svg)",
    );
    const summary = lines.slice(lines.indexOf("## Summary: the operations model"));
    expect(summary.slice(4, 7)).toEqual([
      "| scale | parse-only floor | operations reference model |",
      "|---|--:|--:|",
      `| \`${scale.name}\` | 2.00× | 100× |`,
    ]);
    expect(markdown).not.toContain("## Summary\n");
  });
});
