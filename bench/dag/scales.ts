/**
 * The dag journals the benchmarks read: three scales of the same realistic mix — the fields real
 * runtimes add (`seq`, `ts`, `run`, `agent`, `checker`, `ms`), about one event in a thousand an
 * illegal one (src/generate/dag/campaign.ts: re-dispatches, bogus gate results, late widens,
 * surface shrinks), surfaces of up to 16 paths — over DAGs of 10, 10³ and 10⁵ nodes. Each
 * campaign's pass rate is low enough that it is still running when the journal reaches its size
 * (a run checks that every journal has exactly its events): `nodes / events` for the 10-node DAG,
 * whose ten geometric task lengths vary a lot, `2.5 · nodes / events` for the larger ones.
 */
import type { CampaignOptions } from "../../src/generate/dag/campaign.js";
import type { ScaleBase } from "../bench-model.js";

export interface DagScale extends ScaleBase<"dag"> {
  readonly campaign: CampaignOptions;
}

const MIX = { seed: 42, surfacePathsMax: 16, illegalRate: 0.001 } as const;

export const DAG_SCALES: readonly DagScale[] = [
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
];

/**
 * bench:check's dag journal: the same mix, sized so that the WASM engine's run lasts long enough
 * (~0.1 s here) to average over a shared machine's hiccups, and the parse-only loop's short
 * enough for 30 rounds (the median of 30 per-round ratios moves little) in under a minute here.
 */
export const DAG_CHECK_SCALE: DagScale = {
  name: "check-3e5-events-1e3-nodes",
  model: "dag",
  campaign: { ...MIX, nodes: 1000, events: 300_000, passRate: (2.5 * 1000) / 300_000 },
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};
