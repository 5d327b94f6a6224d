/**
 * Explore's speed in `npm run bench` (docs/explore.md): distinct states per second on one core,
 * each model (dag, operations, executive) at a configuration it explores in a few seconds, measured three ways in one process,
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
import { loadEngine } from "../bindings/index.js";
import { DAG_DEFAULTS, dagSubject } from "../src/explore/dag/subject.js";
import {
  EXECUTIVE_DEFAULTS,
  type ExploredExecutive,
  executiveSubject,
  linesOf,
  runOf,
} from "../src/explore/executive/subject.js";
import { explore, type Subject } from "../src/explore/explore.js";
import {
  describeConfiguration,
  type ExploredOperations,
  OPERATIONS_DEFAULTS,
  operationsSubject,
  recordsOf,
} from "../src/explore/operations/subject.js";
import { replay } from "../src/models/dag/fold.js";
import { loggedEvents, type ModelState } from "../src/models/dag/state.js";
import { replayObservations } from "../src/models/executive/audit.js";
import { replay as replayOperations } from "../src/models/operations/replay.js";
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

/** `npm run bench`'s dag depth: a few seconds an exploration. */
const DAG_DEPTH = 7;
/** The operations configuration and depth: two strands, so that ops interleave. */
const OPERATIONS_BENCHED = { ...OPERATIONS_DEFAULTS, strands: 2 };
const OPERATIONS_DEPTH = 7;

/** One model's exploration, three ways: steps only, both engines, the fold of every journal. */
interface Explored<State> {
  readonly model: string;
  readonly configuration: string;
  readonly stepsOnly: Subject<State>;
  readonly bothEngines: Subject<State>;
  /** The journal of an explored state: its length, and its fold by the reference. */
  readonly journal: (state: State) => { readonly events: number; readonly fold: () => void };
}

export async function measureExplore(rounds: number, depth = DAG_DEPTH): Promise<ExploreRow[]> {
  const wasm = await loadEngine();
  const operationsWasm = await loadEngine({ model: "operations" });
  const configuration = { nodes: DAG_DEFAULTS.nodes, paths: DAG_DEFAULTS.paths };
  const dag: Explored<ModelState> = {
    model: "dag",
    configuration: `every DAG of 1 to ${configuration.nodes} nodes, ${configuration.paths} path, depth ${depth}`,
    stepsOnly: { ...dagSubject(configuration), checkState: undefined },
    bothEngines: dagSubject(configuration, wasm),
    journal: (state) => {
      const events = loggedEvents(state);
      return { events: events.length, fold: () => replay(state.dag, events) };
    },
  };
  const operationsDepth = Math.min(depth, OPERATIONS_DEPTH);
  const operations: Explored<ExploredOperations> = {
    model: "operations",
    configuration: `${describeConfiguration(OPERATIONS_BENCHED)}, depth ${operationsDepth}`,
    stepsOnly: { ...operationsSubject(OPERATIONS_BENCHED), checkState: undefined },
    bothEngines: operationsSubject(OPERATIONS_BENCHED, operationsWasm),
    journal: (state) => {
      const records = recordsOf(state);
      return { events: records.length, fold: () => replayOperations(records) };
    },
  };
  const run = runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget);
  const executiveDepth = Math.min(depth, EXECUTIVE_DEFAULTS.depth);
  const executive: Explored<ExploredExecutive> = {
    model: "executive",
    configuration: `the built-in spec and budget, depth ${executiveDepth}`,
    stepsOnly: { ...executiveSubject(run), checkState: undefined },
    bothEngines: executiveSubject(run, await loadEngine({ model: "executive" })),
    journal: (state) => {
      const lines = linesOf(state);
      return { events: lines.length, fold: () => replayObservations(run, lines) };
    },
  };
  return [
    await measureOne(dag, depth, rounds),
    await measureOne(operations, operationsDepth, rounds),
    await measureOne(executive, executiveDepth, rounds),
  ];
}

async function measureOne<State>(
  explored: Explored<State>,
  depth: number,
  rounds: number,
): Promise<ExploreRow> {
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
    model: explored.model,
    configuration: explored.configuration,
    distinctStates: census.distinctStates,
    transitions: census.transitions,
    stepsOnlySeconds: median(samples.steps),
    bothEnginesSeconds: median(samples.both),
    foldEvents,
    foldSeconds: median(samples.fold),
  };
}
