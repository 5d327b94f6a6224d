/**
 * `statefold explore --model executive` (docs/explore.md, "The executive model"): every
 * observation sequence from a spec and budget's ready state, its findings shrunk, and the fault
 * matrix.
 */
import type { WasmExecutiveEngine } from "../../bindings/executive/engine.js";
import { rulesByLine, shrinkFailure } from "../explore/executive/counterexample.js";
import {
  checkExecutiveRestarts,
  EXECUTIVE_FAULTS,
  type ExecutiveFault,
  injectExecutiveFaults,
} from "../explore/executive/faults.js";
import {
  EXECUTIVE_MUTANTS,
  type ExecutiveMutantVerdict,
  huntExecutiveMutant,
} from "../explore/executive/mutants.js";
import { executiveJournalBytes, executiveSubject, linesOf } from "../explore/executive/subject.js";
import { explore } from "../explore/explore.js";
import { emptySensitivity, type Sensitivity } from "../explore/faults.js";
import { auditExecutive, type ExecutiveRun } from "../models/executive/audit.js";
import { formatCount } from "../text/format-units.js";
import {
  type Counterexample,
  type ExploreRun,
  finishExploration,
  huntEach,
  type MutantShown,
} from "./explore-output.js";

export async function exploreExecutive(
  run: ExploreRun,
  executive: ExecutiveRun,
  files: { readonly spec?: string; readonly budget?: string },
  wasm: WasmExecutiveEngine,
): Promise<number> {
  const { depth, progress } = run;
  const journals: unknown[][] = [];
  const result = explore(executiveSubject(executive, wasm), depth, {
    onProgress: (distinct) => progress(`exploring: ${formatCount(distinct)} distinct states`),
    onDistinct: run.faults ? (state) => journals.push(linesOf(state)) : undefined,
  });
  const counterexamples: Counterexample[] = [];
  for (const { rule, from, state, times } of result.findings) {
    const journal = await shrinkFailure(executive, linesOf(state));
    const rules = rulesByLine(auditExecutive(executive, journal), journal);
    const file = executiveJournalBytes(executive, journal);
    counterexamples.push({ rule, from, times, journal, rules, file });
  }
  let sensitivity: Sensitivity<ExecutiveFault> | null = null;
  if (run.faults) {
    sensitivity = emptySensitivity(EXECUTIVE_FAULTS);
    for (const lines of journals) {
      injectExecutiveFaults(sensitivity, executive, lines);
      await checkExecutiveRestarts(sensitivity, wasm, executive, lines);
    }
  }
  const verdicts = await huntEach(run, EXECUTIVE_MUTANTS, (mutant) =>
    huntExecutiveMutant(executive, depth, mutant),
  );
  progress(null);
  return finishExploration(run, {
    configuration: {
      evidence: {
        model: "executive",
        spec: files.spec ?? "the built-in spec",
        budget: files.budget ?? "the built-in budget",
      },
      text: `the spec ${files.spec ?? "built in"} under the budget ${files.budget ?? "built in"} (${JSON.stringify(executive.budget)})`,
    },
    result,
    counterexamples,
    sensitivity,
    mutants: run.mutants ? verdicts.map((verdict) => shownOf(verdict, executive)) : null,
  });
}

/** An executive mutant as explore shows it: each machine's final block when they differ. */
function shownOf(
  { mutant, distinctStates, kill }: ExecutiveMutantVerdict,
  executive: ExecutiveRun,
): MutantShown {
  const { name, description } = mutant;
  const unexercised = mutant.unexercisedBy?.(executive) ?? null;
  if (kill === null) return { name, description, distinctStates, unexercised, kill: null };
  const reference = JSON.parse(kill.reference.state);
  const mutated = JSON.parse(kill.mutant.state);
  const then =
    kill.reference.state === kill.mutant.state
      ? []
      : [
          `by the reference: ${JSON.stringify({ status: reference.status, seq: reference.seq, frames: reference.frames })}`,
          `by the mutant:    ${JSON.stringify({ status: mutated.status, seq: mutated.seq, frames: mutated.frames })}`,
        ];
  return {
    name,
    description,
    distinctStates,
    unexercised,
    kill: {
      madeBy: kill.madeBy,
      from: "the ready state",
      differs: kill.differs,
      journal: kill.journal,
      reference: { rules: kill.reference.rules, final: reference },
      mutant: { rules: kill.mutant.rules, final: mutated },
      then,
      file: executiveJournalBytes(executive, kill.journal),
    },
  };
}
