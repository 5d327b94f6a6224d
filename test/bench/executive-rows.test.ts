/**
 * The executive rows of the benchmarks (bench/): the journals they are measured on, the engines
 * a scale of the executive model measures, the check that every figure is of a right answer,
 * and the rows and tables made of them — on small journals, in this process (the suite runs each
 * engine in a worker of its own, bench/worker.ts, through the same `prepareEngine`).
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
import { executiveJournalFile } from "../../bench/executive/journals.js";
import type { ExecutiveScale } from "../../bench/executive/scales.js";
import { benchmarksMarkdown } from "../../bench/markdown.js";
import type { Measurement } from "../../bench/measure.js";
import { journalPrefix } from "../../bench/prefix.js";
import { type Row, ratioToWasm, rowOf } from "../../bench/rows.js";
import { eventsOf, SCALES, scaleJournal } from "../../bench/scales.js";
import { expectedReport, verifyFindings } from "../../bench/verify.js";
import { EXECUTIVE_FAULT_KINDS, executiveJournal } from "../../src/generate/executive/journal.js";
import type { ModelReport } from "../../src/models/registry.js";
import { testTempDir } from "../support/temp-dirs.js";

const folder = testTempDir("statefold-bench-test-");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Two faults of each kind (a run fails once: one wrong-fail-reason) in 20 000 lines. */
const FAULTS = Object.fromEntries(
  EXECUTIVE_FAULT_KINDS.map((kind) => [kind, kind === "wrong-fail-reason" ? 1 : 2]),
);
const SMALL: ExecutiveScale = {
  name: "test-executive-2e4-lines",
  model: "executive",
  executive: { events: 20_000, seed: 7, faults: FAULTS },
  rounds: 3,
  warmupRounds: 1,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};
const INJECTED = 2 * (EXECUTIVE_FAULT_KINDS.length - 1) + 1;

async function findingOf(engine: EngineName, path: string): Promise<Finding> {
  return (await prepareEngine(engine, path))();
}

describe("the executive journals of the benchmarks", () => {
  it("are the generator's journal of the mix, written once, named by the options", async () => {
    const journal = await scaleJournal(SMALL, folder);
    expect(basename(journal.path)).toBe("executive-e20000-s7-ws2-wp2-aobo2-wfr1-aat2-sc2.jsonl");
    const faults = EXECUTIVE_FAULT_KINDS.map((kind) => ({ kind, count: FAULTS[kind] as number }));
    const generated = [...executiveJournal({ events: 20_000, seed: 7, faults })].join("");
    const text = readFileSync(journal.path, "utf8");
    expect(text).toBe(generated);
    expect(JSON.parse(text.split("\n")[0] as string)).toMatchObject({ model: "executive" });
    expect(text.split("\n")).toHaveLength(20_000 + 2); // the header, the lines, "" after the last
    expect(journal.bytes).toBe(Buffer.byteLength(text));

    const written = statSync(journal.path).mtimeMs;
    expect(await scaleJournal(SMALL, folder)).toEqual(journal);
    expect(statSync(journal.path).mtimeMs).toBe(written);
  });

  it("name only the kinds injected", async () => {
    const clean = await executiveJournalFile({ events: 300, seed: 3, faults: {} }, folder);
    expect(basename(clean.path)).toBe("executive-e300-s3.jsonl");
    expect(readFileSync(clean.path, "utf8")).toBe(
      [...executiveJournal({ events: 300, seed: 3 })].join(""),
    );
    const none = { events: 300, seed: 3, faults: { "wrong-seq": 0 } };
    expect((await executiveJournalFile(none, folder)).path).toBe(clean.path);
  });

  it("are measured at 10⁵ and 10⁶ lines with every fault kind", () => {
    const executive = SCALES.filter((scale) => scale.model === "executive");
    expect(executive.map((scale) => scale.name)).toEqual([
      "executive-1e5-lines",
      "executive-1e6-lines",
    ]);
    expect(executive.map(eventsOf)).toEqual([1e5, 1e6]);
    const [small, large] = executive;
    for (const kind of EXECUTIVE_FAULT_KINDS) {
      expect(small?.executive.faults[kind]).toBe(kind === "wrong-fail-reason" ? 1 : 10);
      expect(large?.executive.faults[kind]).toBe(kind === "wrong-fail-reason" ? 1 : 100);
    }
  });
});

describe("the engines of an executive scale", () => {
  it("are the WASM executive engine first, the parse-only floor and the reference", () => {
    expect(enginesOfModel("executive", ENGINE_NAMES)).toEqual([
      "executive-wasm-jsonl",
      "parse-only",
      "executive-reference",
    ]);
    // --engines naming only other models' engines still measures the model's WASM engine.
    expect(enginesOfModel("executive", ["wasm-jsonl", "operations-reference"])).toEqual([
      "executive-wasm-jsonl",
    ]);
    for (const model of ["dag", "operations"] as const) {
      const engines = enginesOfModel(model, ENGINE_NAMES);
      expect(engines.filter((engine) => engine.startsWith("executive-"))).toEqual([]);
    }
  });

  it("agree with the WASM executive engine, whole and on a prefix", async () => {
    const journal = await scaleJournal(SMALL, folder);
    const expected = await expectedReport("executive", journal.path);
    expect(expected.model).toBe("executive");
    expect(expected.events).toBe(20_000);
    // Every injected fault is found: the journal is no trivially conformant one.
    expect(expected.legality.illegal).toBe(INJECTED);
    expect(expected.conformant).toBe(false);

    const engines = enginesOfModel("executive", ENGINE_NAMES);
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
    const onPrefix = await expectedReport("executive", prefix.path);
    expect(onPrefix.events).toBe(5000);
    const reference = await findingOf("executive-reference", prefix.path);
    expect(() =>
      verifyFindings(SMALL.name, [
        { engine: "executive-reference", finding: reference, expected: onPrefix, events: 5000 },
      ]),
    ).not.toThrow();
  });

  it("give the WASM engine's report on every run, each on an engine of its own", async () => {
    const journal = await scaleJournal(SMALL, folder);
    const expected = await expectedReport("executive", journal.path);
    const run = await prepareEngine("executive-wasm-jsonl", journal.path);
    for (let round = 0; round < 3; round++) expect(await run()).toEqual({ report: expected });
  });

  it("are refused when they disagree", async () => {
    const journal = await scaleJournal(SMALL, folder);
    const expected = await expectedReport("executive", journal.path);
    const verify =
      (engine: EngineName, finding: Finding, events = 20_000) =>
      () =>
        verifyFindings(SMALL.name, [{ engine, finding, expected, events }]);

    const fewer = {
      ...expected,
      legality: { ...expected.legality, illegal: expected.legality.illegal - 1 },
    } as ModelReport;
    expect(verify("executive-reference", { report: fewer })).toThrow(
      /executive-reference disagrees/,
    );
    const otherFirst = {
      ...expected,
      legality: { ...expected.legality, first: expected.legality.first.slice(1) },
    } as ModelReport;
    expect(verify("executive-reference", { report: otherFirst })).toThrow(
      /executive-reference disagrees/,
    );
    expect(verify("parse-only", { parsed: 20_000 })).toThrow(/parsed 20000 lines/);
    expect(verify("executive-wasm-jsonl", { report: expected }, 19_999)).toThrow(
      /20000 events in the journal, not 19999/,
    );
  });
});

describe("the executive rows", () => {
  const measurement = (engine: EngineName, p50Ms: number, maxRssBytes: number): Measurement => ({
    job: { engine, path: "journal.jsonl" },
    samplesMs: [p50Ms, p50Ms],
    cpuSamplesMs: [p50Ms, p50Ms],
    p50Ms,
    maxRssBytes,
    finding: { parsed: 0 },
  });
  const scale = SCALES.find((s) => s.name === "executive-1e5-lines") as ExecutiveScale;
  const whole = { path: "journal.jsonl", bytes: 16_000_000, events: 100_000, of: 100_000 };
  const rows: Row[] = [
    rowOf(scale.name, measurement("executive-wasm-jsonl", 400, 90 * 2 ** 20), whole, true),
    rowOf(scale.name, measurement("parse-only", 200, 100 * 2 ** 20), whole, true),
    rowOf(scale.name, measurement("executive-reference", 4000, 700 * 2 ** 20), whole, true),
  ];

  it("give MB/s and steps/s, and ratios to the WASM executive engine", () => {
    expect(rows.map((row) => row.megabytesPerSecond)).toEqual([40, 80, 4]);
    expect(rows.map((row) => row.eventsPerSecond)).toEqual([250_000, 500_000, 25_000]);
    expect(rows.map((row) => ratioToWasm(row, rows))).toEqual([1, 2, 0.1]);
  });

  it("are tabled in BENCHMARKS.md as steps, under the executive model's summary and chart", () => {
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
      journalBytes: new Map([[scale.name, 16_000_000]]),
      rows,
      chartFiles: new Map([["executive", "bench/throughput-executive.svg"]]),
    });
    const lines = markdown.split("\n");
    const table = lines.slice(
      lines.indexOf(`## \`${scale.name}\`: 100 000 steps, 51 injected faults of every kind, 16 MB`),
    );
    expect(table.slice(2, 7)).toEqual([
      "| engine | steps per run | steps/s | MB/s | p50 run | runs | peak RSS | × WASM JSONL |",
      "|---|---|--:|--:|--:|--:|--:|--:|",
      "| WASM executive engine, JSONL | 100 000 | 250 000 | 40.0 | 400.0 ms | 2 | 90 MiB | 1.00× |",
      "| parse-only floor | 100 000 | 500 000 | 80.0 | 200.0 ms | 2 | 100 MiB | 2.00× |",
      "| executive reference model | 100 000 | 25 000 | 4.0 | 4.00 s | 2 | 700 MiB | 0.10× |",
    ]);
    expect(markdown).toContain(
      "![Throughput of the executive model against journal size](bench/throughput-executive.svg)",
    );
    const summary = lines.slice(lines.indexOf("## Summary: the executive model"));
    expect(summary[2]).toContain("steps/s is observations per second");
    expect(summary.slice(4, 7)).toEqual([
      "| scale | parse-only floor | executive reference model |",
      "|---|--:|--:|",
      `| \`${scale.name}\` | 0.50× | 10× |`,
    ]);
    expect(markdown).not.toContain("## Summary\n");
    expect(markdown).not.toContain("## Summary: the operations model");
  });

  it("name the only kinds injected when not every kind is", () => {
    const large: ExecutiveScale = {
      ...SMALL,
      name: "executive-1e6-lines",
      executive: { events: 1e6, seed: 42, faults: { "accepted-after-terminal": 100 } },
    };
    const markdown = benchmarksMarkdown({
      command: "npm run bench",
      date: "2026-12-01 00:00 UTC",
      machine: { cpu: "a CPU", cores: 2, memoryGiB: 24, node: "v20", os: "Linux", loadAtStart: 0 },
      loadAtEnd: 0,
      idleNodeRssBytes: 44 * 2 ** 20,
      scales: [large],
      journalBytes: new Map([[large.name, 110_000_000]]),
      rows: [
        rowOf(large.name, measurement("executive-wasm-jsonl", 2000, 200 * 2 ** 20), whole, true),
      ],
      chartFiles: new Map(),
    });
    expect(markdown).toContain(
      "## `executive-1e6-lines`: 1 000 000 steps, 100 injected faults (`accepted-after-terminal`), 110 MB",
    );
  });
});
