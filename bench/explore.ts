/**
 * Explore's speed in `npm run bench` (docs/explore.md): distinct states per second on one core,
 * each model of the registry at a configuration it explores in a few seconds (src/explore/<model>/explorer.ts), measured three ways in one process,
 * taking turns round by round —
 *
 *   steps only      the exploration with every step checked (legality, invariants) and no
 *                   journal audited: what the search itself costs
 *   both engines    as `statefold explore` runs: every distinct state's journal also audited by
 *                   the reference and by the WebAssembly engine
 *   reference fold  the floor: the reference's fold replaying every explored journal, in events
 *                   per second — one fold step is the least a transition can cost
 *
 * Back of the envelope: a dag state of three nodes has ~30 actions to try; about four succeed
 * per distinct state found, each a transition of the reference (a frozen state, a new event, a
 * key of ~60 characters). The reference folds such short journals at ~0.4 M events/s, ~2.5 µs a
 * step, so ~10 µs of folding per distinct state and a few tens of thousands of distinct states/s
 * is the ceiling of an explorer on the reference's objects; auditing every journal twice on top
 * costs a journal's length in fold steps again, per engine.
 */
import { Bench } from "tinybench";
import { explore } from "../src/explore/explore.js";
import type { BenchedExploration } from "../src/explore/facet.js";
import { EXPLORABLE_MODELS } from "../src/models/registry.js";
import { median } from "./measure.js";

export interface ExploreRow {
  readonly model: string;
  readonly configuration: string;
  readonly distinctStates: number;
  readonly transitions: number;
  /** Median seconds of one exploration with steps checked only, and with both engines auditing. */
  readonly stepsOnlySeconds: number;
  readonly bothEnginesSeconds: number;
  /** The reference fold of every explored journal: events replayed, median seconds. */
  readonly foldEvents: number;
  readonly foldSeconds: number;
}

/** `npm run bench`'s depth: a few seconds an exploration (a model may explore less deep). */
const BENCH_DEPTH = 7;

/** Every model's exploration, in the registry's order, each at the depth it takes of `depth`. */
export async function measureExplore(rounds: number, depth = BENCH_DEPTH): Promise<ExploreRow[]> {
  const rows: ExploreRow[] = [];
  for (const model of EXPLORABLE_MODELS) {
    const explorer = await model.explore.explorer();
    rows.push(await measureOne(model.name, await explorer.benchmark(depth), rounds));
  }
  return rows;
}

async function measureOne(
  model: string,
  explored: BenchedExploration<unknown>,
  rounds: number,
): Promise<ExploreRow> {
  const { depth } = explored;
  const folds: (() => void)[] = [];
  let foldEvents = 0;
  const census = explore(explored.stepsOnly, depth, {
    onDistinct: (state) => {
      const { events, fold } = explored.journal(state);
      folds.push(fold);
      foldEvents += events;
    },
  });
  const check = (distinct: number) => {
    if (distinct !== census.distinctStates) throw new Error("explore is not deterministic");
  };
  const samples = { steps: [] as number[], both: [] as number[], fold: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ iterations: 1, time: 0, warmup: false, throws: true });
    const tasks: [keyof typeof samples, () => void][] = [
      ["steps", () => check(explore(explored.stepsOnly, depth).distinctStates)],
      ["both", () => check(explore(explored.bothEngines, depth).distinctStates)],
      [
        "fold",
        () => {
          for (const fold of folds) fold();
        },
      ],
    ];
    // The order rotates, so a neighbour's load falls on each alike.
    for (let i = 0; i < tasks.length; i++) {
      const [name, run] = tasks[(i + round) % tasks.length] as (typeof tasks)[number];
      bench.add(name, run);
    }
    await bench.run();
    for (const task of bench.tasks) {
      const result = task.result;
      if (result?.state !== "completed") throw new Error(`explore ${task.name}: no result`);
      samples[task.name as keyof typeof samples].push(result.latency.mean / 1000);
    }
  }
  return {
    model,
    configuration: explored.configuration,
    distinctStates: census.distinctStates,
    transitions: census.transitions,
    stepsOnlySeconds: median(samples.steps),
    bothEnginesSeconds: median(samples.both),
    foldEvents,
    foldSeconds: median(samples.fold),
  };
}
