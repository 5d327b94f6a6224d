/**
 * The journals the benchmarks read, of every model.
 *
 * `dag`: three scales of the same realistic mix — the fields real runtimes add (`seq`, `ts`,
 * `run`, `agent`, `checker`, `ms`), about one event in a thousand an illegal one
 * (src/generate/dag/campaign.ts: re-dispatches, bogus gate results, late widens, surface shrinks),
 * surfaces of up to 16 paths — over DAGs of 10, 10³ and 10⁵ nodes. Each campaign's pass rate is
 * low enough that it is still running when the journal reaches its size (a run checks that every
 * journal has exactly its events): `nodes / events` for the 10-node DAG, whose ten geometric task
 * lengths vary a lot, `2.5 · nodes / events` for the larger ones.
 *
 * `operations`: 10⁵, 10⁶ and 10⁷ records of the simulated runtime of `statefold gen --model
 * operations` (src/generate/operations/) on its default 8 strands, with one illegal record in a
 * thousand as in the dag's mix: every fault kind the generator knows, each once per 10 000
 * records. The runtime keeps only its live ops, so the journals differ in length, not in shape —
 * what grows with them is the effect ids the audit must remember (`freshIdentity`).
 *
 * `executive`: 10⁵ and 10⁶ lines of the faithful host of `statefold gen --model executive`
 * (src/generate/executive/journal.ts), each line an observation and the decision recorded for it:
 * a step of the machine. The header holds the spec, whose plan grows with the journal up to the
 * spec's bound of 10⁵ plan steps — megabytes of JSON every audit reads and checks before the first
 * step (2.7 MB at 10⁵ lines, 4.2 MB at 10⁶); past that bound the host ticks more often while it
 * waits, so the run still lasts as long as the journal. Every fault kind once per 10 000 lines,
 * but `wrong-fail-reason` once (a run fails once); the terminal faults end the run with a cancel
 * at three quarters of the journal, the ticks after it where `accepted-after-terminal` goes. No
 * 10⁷ scale: a plan cannot grow past its bound, so its run would be ten ticks a step, and the
 * reference holds the whole journal in memory.
 */
import type { CampaignOptions } from "../src/generate/dag/campaign.js";
import {
  EXECUTIVE_FAULT_KINDS,
  type ExecutiveFaultKind,
} from "../src/generate/executive/journal.js";
import type { BenchedModel } from "./engines.js";

interface ScaleBase {
  /** Named by workload and size, as the house names benchmarks. */
  readonly name: string;
  readonly model: BenchedModel;
  /** Timed rounds (one run of every engine each), after the warmup rounds. */
  readonly rounds: number;
  readonly warmupRounds: number;
  /**
   * An engine whose run over the whole journal would take longer than this cannot finish the
   * scale "within a few minutes": it runs on a prefix sized for runs of `prefixRunSeconds`.
   */
  readonly finishSecondsMax: number;
  readonly prefixRunSeconds: number;
}

export interface DagScale extends ScaleBase {
  readonly model: "dag";
  readonly campaign: CampaignOptions;
}

/** What an operations journal of the benchmarks is made of; its file is named by these. */
export interface OperationsMix {
  /** Records after the header, faults included. */
  readonly events: number;
  readonly seed: number;
  /** Strands running ops at once; the generator's default (8) when absent. */
  readonly strands?: number;
  /** Faults injected of every kind src/generate/operations/fault-kinds.ts knows. */
  readonly faultsOfEachKind: number;
}

export interface OperationsScale extends ScaleBase {
  readonly model: "operations";
  readonly operations: OperationsMix;
}

/** What an executive journal of the benchmarks is made of; its file is named by these. */
export interface ExecutiveMix {
  /** Lines after the header (observations and their decisions: steps), faults included. */
  readonly events: number;
  readonly seed: number;
  /** Faults injected, by kind (src/generate/executive/journal.ts); a kind absent, none. */
  readonly faults: Readonly<Partial<Record<ExecutiveFaultKind, number>>>;
}

export interface ExecutiveScale extends ScaleBase {
  readonly model: "executive";
  readonly executive: ExecutiveMix;
}

export type Scale = DagScale | OperationsScale | ExecutiveScale;

/**
 * The events (dag), records (operations) or steps (executive) of the scale's whole journal, the
 * header not counted.
 */
export function eventsOf(scale: Scale): number {
  switch (scale.model) {
    case "dag":
      return scale.campaign.events;
    case "operations":
      return scale.operations.events;
    case "executive":
      return scale.executive.events;
  }
}

const MIX = { seed: 42, surfacePathsMax: 16, illegalRate: 0.001 } as const;

/** Ten fault kinds, each once per 10 000 records: one illegal record in a thousand. */
function operationsMix(events: number): OperationsMix {
  return { events, seed: 42, faultsOfEachKind: events / 10_000 };
}

/** Every fault kind once per 10 000 lines, but `wrong-fail-reason` once: 51 faults in 10⁵ lines. */
function executiveMix(events: number): ExecutiveMix {
  const each = events / 10_000;
  const faults = Object.fromEntries(
    EXECUTIVE_FAULT_KINDS.map((kind) => [kind, kind === "wrong-fail-reason" ? 1 : each]),
  );
  return { events, seed: 42, faults };
}

export const SCALES: readonly Scale[] = [
  {
    name: "audit-1e5-events-10-nodes",
    model: "dag",
    campaign: { ...MIX, nodes: 10, events: 100_000, passRate: 10 / 100_000 },
    rounds: 9,
    warmupRounds: 1,
    finishSecondsMax: 60,
    prefixRunSeconds: 10,
  },
  {
    name: "audit-1e6-events-1e3-nodes",
    model: "dag",
    campaign: { ...MIX, nodes: 1000, events: 1_000_000, passRate: (2.5 * 1000) / 1_000_000 },
    rounds: 5,
    warmupRounds: 1,
    finishSecondsMax: 120,
    prefixRunSeconds: 20,
  },
  {
    name: "audit-1e7-events-1e5-nodes",
    model: "dag",
    campaign: {
      ...MIX,
      nodes: 100_000,
      events: 10_000_000,
      passRate: (2.5 * 100_000) / 10_000_000,
    },
    rounds: 3,
    warmupRounds: 1,
    finishSecondsMax: 180,
    prefixRunSeconds: 30,
  },
  {
    name: "operations-1e5-records-8-strands",
    model: "operations",
    operations: operationsMix(100_000),
    rounds: 9,
    warmupRounds: 1,
    finishSecondsMax: 60,
    prefixRunSeconds: 10,
  },
  {
    name: "operations-1e6-records-8-strands",
    model: "operations",
    operations: operationsMix(1_000_000),
    rounds: 5,
    warmupRounds: 1,
    finishSecondsMax: 120,
    prefixRunSeconds: 20,
  },
  {
    name: "operations-1e7-records-8-strands",
    model: "operations",
    operations: operationsMix(10_000_000),
    rounds: 3,
    warmupRounds: 1,
    // Lower than the dag's 180 s: the reference reads the whole journal into memory and parses
    // every record before it folds, so its memory grows with the journal (530 MiB of peak RSS at
    // 10⁶ records on 2026-12-01) and a run over all 10⁷ — ~170–180 s by the probes' projection,
    // four runs — would take 12 minutes and ~5 GB, near Node's default heap (4 GiB here). With
    // 60 s it runs on a prefix (10⁶ records on that day).
    finishSecondsMax: 60,
    prefixRunSeconds: 30,
  },
  {
    name: "executive-1e5-lines",
    model: "executive",
    executive: executiveMix(100_000),
    rounds: 9,
    warmupRounds: 1,
    finishSecondsMax: 60,
    prefixRunSeconds: 10,
  },
  {
    name: "executive-1e6-lines",
    model: "executive",
    executive: executiveMix(1_000_000),
    rounds: 5,
    warmupRounds: 1,
    finishSecondsMax: 120,
    prefixRunSeconds: 20,
  },
];

/**
 * bench:check's dag journal: the same mix, sized so that the WASM engine's run lasts long enough
 * (~0.1 s here) to average over a shared machine's hiccups, and the parse-only loop's short
 * enough for 30 rounds (the median of 30 per-round ratios moves little) in under a minute here.
 */
export const CHECK_SCALE: DagScale = {
  name: "check-3e5-events-1e3-nodes",
  model: "dag",
  campaign: { ...MIX, nodes: 1000, events: 300_000, passRate: (2.5 * 1000) / 300_000 },
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};

/**
 * bench:check's operations journal: the operations mix at 10⁵ records (12 MB, the same file as
 * the suite's smallest operations scale). The operations kernel reads ~60–130 MB/s, so its run
 * lasts 0.1–0.2 s, and parse-only's about as long: 30 rounds in ~15 s here.
 */
export const OPERATIONS_CHECK_SCALE: OperationsScale = {
  name: "check-operations-1e5-records-8-strands",
  model: "operations",
  operations: operationsMix(100_000),
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};

/**
 * bench:check's executive journal: the executive mix at 10⁵ lines (the suite's smallest executive
 * scale), 30 rounds as the others.
 */
export const EXECUTIVE_CHECK_SCALE: ExecutiveScale = {
  name: "check-executive-1e5-lines",
  model: "executive",
  executive: executiveMix(100_000),
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};
