/**
 * The Temporal histories the benchmarks read (./history.ts): one run of ~2.7 million events, a
 * gigabyte, as JSONL and as a `{"events": [...]}` document — the size the issue names, and a
 * history no export of a real run reaches (the server caps one at 51 200 events), so that the
 * kernel's per-record cost, not its start, is what is measured.
 */
import type { ScaleBase } from "../bench-model.js";
import type { HistoryMix } from "./history.js";

/** What a Temporal history of the benchmarks is made of; its file is named by these. */
export interface TemporalMix extends HistoryMix {
  readonly form: "jsonl" | "document";
}

export interface TemporalScale extends ScaleBase<"temporal"> {
  readonly temporal: TemporalMix;
}

/** Events of ~377 bytes each (./history.ts): 10⁹ bytes of JSONL. */
const GIGABYTE_EVENTS = 2_650_000;

const gigabyte = (form: TemporalMix["form"]): TemporalScale => ({
  name: `temporal-1gb-${form}`,
  model: "temporal",
  temporal: { events: GIGABYTE_EVENTS, seed: 42, form },
  rounds: 3,
  warmupRounds: 1,
  // The reference reads the whole file into memory and parses every record before it folds, as
  // the operations reference does (bench/operations/scales.ts): it runs on a prefix.
  finishSecondsMax: 60,
  prefixRunSeconds: 30,
});

export const TEMPORAL_SCALES: readonly TemporalScale[] = [gigabyte("jsonl"), gigabyte("document")];

/**
 * bench:check's Temporal history: 50 000 events of JSONL (19 MB). The kernel's run lasts ~35 ms
 * and parse-only's ~280 ms: 32 rounds in ~10 s.
 */
export const TEMPORAL_CHECK_SCALE: TemporalScale = {
  name: "check-temporal-5e4-events-jsonl",
  model: "temporal",
  temporal: { events: 50_000, seed: 42, form: "jsonl" },
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};

/** The same history as a `{"events": [...]}` document, which the kernel walks itself. */
export const TEMPORAL_DOCUMENT_CHECK_SCALE: TemporalScale = {
  ...TEMPORAL_CHECK_SCALE,
  name: "check-temporal-5e4-events-document",
  temporal: { ...TEMPORAL_CHECK_SCALE.temporal, form: "document" },
};
