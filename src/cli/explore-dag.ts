/**
 * `statefold explore --model dag` (docs/explore.md, "The dag model"): the exploration, its
 * findings shrunk, the fault matrix and the mutants.
 */
import type { WasmEngine } from "../../bindings/dag/engine.js";
import { ENGINES_DIFFER, rulesByRecord, shrinkFailure } from "../explore/dag/counterexample.js";
import { dagsUpTo } from "../explore/dag/dags.js";
import { checkRestarts, FAULT_CLASSES, injectFaults, journalBytes } from "../explore/dag/faults.js";
import { DAG_MUTANTS, huntMutant, type MutantVerdict } from "../explore/dag/mutants.js";
import { type DagConfiguration, dagSubject, shapeOf } from "../explore/dag/subject.js";
import { explore } from "../explore/explore.js";
import { emptySensitivity, type Sensitivity } from "../explore/faults.js";
import { audit } from "../models/dag/audit.js";
import type { Dag } from "../models/dag/dag.js";
import { loggedEvents, type ModelState, type NodeState } from "../models/dag/state.js";
import { formatCount, plural } from "../text/format-units.js";
import {
  type Counterexample,
  type ExploreRun,
  finishExploration,
  huntEach,
  type MutantShown,
} from "./explore-output.js";

export async function exploreDag(
  run: ExploreRun,
  configuration: DagConfiguration,
  dagFile: string | undefined,
  wasm: WasmEngine,
): Promise<number> {
  const { depth, progress } = run;
  const onProgress = (distinct: number) =>
    progress(`exploring: ${formatCount(distinct)} distinct states`);
  const journals: { dag: Dag; events: readonly unknown[] }[] = [];
  const onDistinct = run.faults
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
  if (run.faults) {
    sensitivity = emptySensitivity(FAULT_CLASSES);
    for (const journal of journals) {
      injectFaults(sensitivity, journal.dag, journal.events);
      await checkRestarts(sensitivity, wasm, journal.dag, journal.events);
    }
  }
  const verdicts = await huntEach(run, DAG_MUTANTS, (mutant) =>
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
  return finishExploration(run, {
    configuration: {
      evidence: { model: "dag", dags, paths },
      text: `${shownDags}, surfaces from ${plural(paths, "path")}`,
    },
    result,
    counterexamples,
    sensitivity,
    mutants: run.mutants ? verdicts.map((verdict) => dagMutantShown(verdict, configuration)) : null,
  });
}

/** A dag mutant as explore shows it: the final node states of each machine, and how they differ. */
function dagMutantShown(
  { mutant, distinctStates, kill }: MutantVerdict,
  configuration: DagConfiguration,
): MutantShown {
  const { name, description } = mutant;
  const unexercised = mutant.unexercisedBy?.(configuration) ?? null;
  if (kill === null) return { name, description, distinctStates, unexercised, kill: null };
  const then = kill.dag.nodes.flatMap((node, i) => {
    const reference = nodeText(kill.reference.nodes[i]);
    const mutated = nodeText(kill.mutant.nodes[i]);
    return reference === mutated
      ? []
      : [`${node.id} is, by the reference: ${reference}; by the mutant: ${mutated}`];
  });
  return {
    name,
    description,
    distinctStates,
    unexercised,
    kill: {
      madeBy: kill.madeBy,
      from: `DAG ${shapeOf(kill.dag)}`,
      differs: kill.differs,
      journal: kill.journal,
      reference: { rules: kill.reference.rules, final: kill.reference.nodes },
      mutant: { rules: kill.mutant.rules, final: kill.mutant.nodes },
      then,
      file: journalBytes(kill.dag, kill.journal),
    },
  };
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
