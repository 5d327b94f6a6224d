/**
 * `statefold explore --model dag` (docs/explore.md, "The dag model"): the configuration read from
 * the flags, the exploration, its findings shrunk, the fault matrix and the mutants; a dag
 * runtime checked through a driver ("Refinement"); and the exploration `npm run bench` measures.
 */
import { loadEngine, type WasmEngine } from "../../../bindings/dag/engine.js";
import { readDagFile } from "../../journal/dag/files.js";
import { audit } from "../../models/dag/audit.js";
import type { Dag } from "../../models/dag/dag.js";
import { replay } from "../../models/dag/fold.js";
import { loggedEvents, type ModelState, type NodeState } from "../../models/dag/state.js";
import { formatCount, plural } from "../../text/format-units.js";
import { explore } from "../explore.js";
import {
  type Counterexample,
  divergenceDetails,
  type ExplorationRequest,
  type Explored,
  huntEach,
  jsonLines,
  type MutantShown,
  mutantShown,
} from "../explored.js";
import type { BenchedExploration, DriverCheck, ExploreFlags, Explorer } from "../facet.js";
import { emptySensitivity, type Sensitivity } from "../faults.js";
import { ENGINES_DIFFER, rulesByRecord, shrinkFailure } from "./counterexample.js";
import { dagsUpTo } from "./dags.js";
import { DAG_DEFAULTS } from "./defaults.js";
import { checkRestarts, FAULT_CLASSES, injectFaults, journalBytes } from "./faults.js";
import { DAG_MUTANTS, huntMutant, type MutantVerdict } from "./mutants.js";
import { refine } from "./refine.js";
import { type DagConfiguration, dagSubject, shapeOf } from "./subject.js";

export const dagExplorer: Explorer = {
  explore: async (flags, request) => {
    const configuration = configurationOf(flags);
    return exploreDag(request, configuration, flags.text("dag"), await loadEngine());
  },
  refinement: (flags, depth) => {
    const configuration = configurationOf(flags);
    return refinementOf(configuration, depth);
  },
  benchmark: async (depth) => benchedDag(depth, await loadEngine()),
};

/** The DAGs and surface paths the flags give: `--nodes N` or `--dag FILE`, `--paths P`. */
function configurationOf(flags: ExploreFlags): DagConfiguration {
  const dagFile = flags.text("dag");
  if (dagFile !== undefined && flags.text("nodes") !== undefined) {
    flags.refuse("--nodes and --dag each say which DAGs to explore: give one");
  }
  const nodes = flags.integer("nodes", DAG_DEFAULTS.nodes, 1);
  const paths = flags.integer("paths", DAG_DEFAULTS.paths, 0);
  if (nodes > 4) flags.refuse("--nodes must be at most 4: 5 has 302 DAGs");
  if (paths > 4) flags.refuse("--paths must be at most 4");
  const dag = dagFile === undefined ? undefined : readDagFile(dagFile);
  return { nodes, paths, dag };
}

async function exploreDag(
  request: ExplorationRequest,
  configuration: DagConfiguration,
  dagFile: string | undefined,
  wasm: WasmEngine,
): Promise<Explored> {
  const { depth, progress } = request;
  const onProgress = (distinct: number) =>
    progress(`exploring: ${formatCount(distinct)} distinct states`);
  const journals: { dag: Dag; events: readonly unknown[] }[] = [];
  const onDistinct = request.faults
    ? (state: ModelState) => journals.push({ dag: state.dag, events: loggedEvents(state) })
    : undefined;
  const { nodes, paths, dag } = configuration;
  const result = explore(dagSubject(configuration, wasm), depth, { onProgress, onDistinct });
  const counterexamples: Counterexample[] = [];
  for (const { rule, state, times } of result.findings) {
    const journal = await shrinkFailure(state.dag, loggedEvents(state), wasm);
    counterexamples.push({
      rule,
      from: `DAG ${shapeOf(state.dag)}`,
      times,
      journal,
      rules: rulesOf(state.dag, journal, rule),
      file: journalBytes(state.dag, journal),
    });
  }
  let sensitivity: Sensitivity<(typeof FAULT_CLASSES)[number]> | null = null;
  if (request.faults) {
    sensitivity = emptySensitivity(FAULT_CLASSES);
    for (const journal of journals) {
      injectFaults(sensitivity, journal.dag, journal.events);
      await checkRestarts(sensitivity, wasm, journal.dag, journal.events);
    }
  }
  const verdicts = await huntEach(request, DAG_MUTANTS, (mutant) =>
    huntMutant(configuration, depth, mutant),
  );
  progress(null);
  const dags =
    dag === undefined
      ? { nodes: `1 to ${nodes}`, count: dagsUpTo(nodes).length }
      : { file: dagFile as string, shape: shapeOf(dag) };
  const shownDags =
    dag === undefined
      ? `every DAG of 1 to ${plural(nodes, "node")} (${formatCount(dagsUpTo(nodes).length)}, up to isomorphism)`
      : `the DAG of ${dagFile}`;
  return {
    configuration: {
      evidence: { model: "dag", dags, paths },
      text: `${shownDags}, surfaces from ${plural(paths, "path")}`,
    },
    result,
    counterexamples,
    sensitivity,
    mutants: request.mutants
      ? verdicts.map((verdict) => dagMutantShown(verdict, configuration))
      : null,
  };
}

/** A dag runtime checked through a driver: every action from every explored state, to `depth`. */
function refinementOf(configuration: DagConfiguration, depth: number): DriverCheck {
  return async (driver, command) => {
    const refinement = await refine(configuration, depth, driver);
    const { sequences, actionsDriven, divergence } = refinement;
    return {
      title: `statefold explore --driver ${command}: depth ${depth}`,
      counts: `${formatCount(sequences)} action sequences, ${formatCount(actionsDriven)} actions driven`,
      details: divergence === null ? [] : divergenceDetails(divergence),
      verdict:
        divergence === null
          ? "✓ the runtime journaled what the model logs and refused what it rejects, everywhere"
          : `✗ the runtime diverges from the model (DAG ${divergence.dag}): ${divergence.why}`,
      found: divergence !== null,
      evidence: { driver: command, bound: { depth }, ...refinement },
      files:
        divergence === null
          ? []
          : [{ name: "divergence-actions.jsonl", bytes: jsonLines(divergence.actions) }],
    };
  };
}

/** The bench's dag exploration: every DAG of up to the default nodes, the default paths. */
function benchedDag(depth: number, wasm: WasmEngine): BenchedExploration<ModelState> {
  const configuration = { nodes: DAG_DEFAULTS.nodes, paths: DAG_DEFAULTS.paths };
  return {
    configuration: `every DAG of 1 to ${configuration.nodes} nodes, ${configuration.paths} path, depth ${depth}`,
    depth,
    stepsOnly: { ...dagSubject(configuration), checkState: undefined },
    bothEngines: dagSubject(configuration, wasm),
    journal: (state) => {
      const events = loggedEvents(state);
      return { events: events.length, fold: () => replay(state.dag, events) };
    },
  };
}

/** A dag mutant as explore shows it: the final node states of each machine, and how they differ. */
function dagMutantShown(verdict: MutantVerdict, configuration: DagConfiguration): MutantShown {
  return mutantShown(verdict, configuration, (kill) => ({
    from: `DAG ${shapeOf(kill.dag)}`,
    final: { reference: kill.reference.nodes, mutant: kill.mutant.nodes },
    differences: kill.dag.nodes.flatMap((node, i) => {
      const reference = nodeText(kill.reference.nodes[i]);
      const mutated = nodeText(kill.mutant.nodes[i]);
      return reference === mutated
        ? []
        : [`${node.id} is, by the reference: ${reference}; by the mutant: ${mutated}`];
    }),
    file: journalBytes(kill.dag, kill.journal),
  }));
}

function nodeText(node: NodeState | undefined): string {
  if (node === undefined) return "—";
  const { status, phase, deposit } = node;
  const held =
    deposit === null
      ? "no deposit"
      : `deposit ${deposit.validation} (${deposit.mode}, phase ${deposit.phase})`;
  return `${status}, phase ${phase}, ${held}, surface ${JSON.stringify(node.surface)}`;
}

/** The rules each record of a counterexample breaks, an engine difference on its last. */
function rulesOf(dag: Dag, journal: readonly unknown[], rule: string): string[][] {
  const rules = rulesByRecord(audit(dag, journal), journal);
  if (rule === ENGINES_DIFFER) rules.at(-1)?.push(ENGINES_DIFFER);
  return rules;
}
