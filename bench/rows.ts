/** One measured engine at one scale, with the figures BENCHMARKS.md and bench:check report. */
import { type EngineName, WASM_JSONL_ENGINES } from "./engines.js";
import type { Measurement } from "./measure.js";
import type { JournalSpan } from "./prefix.js";

export interface Row {
  readonly scale: string;
  readonly engine: EngineName;
  /** The events and bytes one run read: the whole journal, or a prefix of it. */
  readonly span: JournalSpan;
  readonly p50Ms: number;
  readonly runs: number;
  readonly eventsPerSecond: number;
  /** Decimal megabytes (10⁶ bytes) of JSONL per second; null for an engine that reads no bytes. */
  readonly megabytesPerSecond: number | null;
  readonly maxRssBytes: number;
}

export function rowOf(
  scale: string,
  measurement: Measurement,
  span: JournalSpan,
  readsBytes: boolean,
): Row {
  const seconds = measurement.p50Ms / 1000;
  return {
    scale,
    engine: measurement.job.engine,
    span,
    p50Ms: measurement.p50Ms,
    runs: measurement.samplesMs.length,
    eventsPerSecond: span.events / seconds,
    megabytesPerSecond: readsBytes ? span.bytes / 1e6 / seconds : null,
    maxRssBytes: measurement.maxRssBytes,
  };
}

/** The WASM engines on JSONL, one per model; a scale measures one of them. */
const WASM_JSONL: ReadonlySet<EngineName> = new Set(Object.values(WASM_JSONL_ENGINES));

/** The row's throughput over that of the WASM engine on JSONL (of its model) at the same scale. */
export function ratioToWasm(row: Row, rows: readonly Row[]): number {
  const wasm = rows.find((other) => other.scale === row.scale && WASM_JSONL.has(other.engine));
  return wasm === undefined ? Number.NaN : row.eventsPerSecond / wasm.eventsPerSecond;
}
