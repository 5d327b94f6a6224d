/**
 * `statefold explore --model executive` (docs/explore.md, "The executive model"): the spec and
 * budget read from the flags, every observation sequence from their ready state, its findings
 * shrunk, and the fault matrix; a host of the machine checked through a driver ("Refinement of
 * an executive"); and the exploration `npm run bench` measures.
 */
import {
  loadExecutiveEngine,
  type WasmExecutiveEngine,
} from "../../../bindings/executive/engine.js";
import { readExecutiveRunFiles } from "../../journal/executive/files.js";
import {
  auditExecutive,
  type ExecutiveRun,
  replayObservations,
} from "../../models/executive/audit.js";
import { formatCount } from "../../text/format-units.js";
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
import { rulesByLine, shrinkFailure } from "./counterexample.js";
import { EXECUTIVE_DEFAULTS } from "./defaults.js";
import {
  checkExecutiveRestarts,
  EXECUTIVE_FAULTS,
  type ExecutiveFault,
  injectExecutiveFaults,
} from "./faults.js";
import { EXECUTIVE_MUTANTS, type ExecutiveMutantVerdict, huntExecutiveMutant } from "./mutants.js";
import { refineExecutive } from "./refine.js";
import {
  type ExploredExecutive,
  executiveJournalBytes,
  executiveSubject,
  linesOf,
  runOf,
} from "./subject.js";

/** The spec and budget files a run was given, each absent for the built-in one. */
interface RunFiles {
  readonly spec?: string | undefined;
  readonly budget?: string | undefined;
}

export const executiveExplorer: Explorer = {
  explore: async (flags, request) => {
    const { files, executive } = runOfFlags(flags);
    return exploreExecutive(request, executive, files, await loadExecutiveEngine());
  },
  refinement: (flags, depth) => {
    const { files, executive } = runOfFlags(flags);
    return refinementOf(executive, files, depth);
  },
  benchmark: async (depth) => benchedExecutive(depth, await loadExecutiveEngine()),
};

/** The run `--spec FILE --budget FILE` give, or the built-in one when neither is. */
function runOfFlags(flags: ExploreFlags): { files: RunFiles; executive: ExecutiveRun } {
  const spec = flags.text("spec");
  const budget = flags.text("budget");
  if ((spec === undefined) !== (budget === undefined)) {
    flags.refuse("--spec and --budget go together: give both, or neither");
  }
  const executive =
    spec === undefined || budget === undefined
      ? runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget)
      : readExecutiveRunFiles(spec, budget);
  return { files: { spec, budget }, executive };
}

async function exploreExecutive(
  request: ExplorationRequest,
  executive: ExecutiveRun,
  files: RunFiles,
  wasm: WasmExecutiveEngine,
): Promise<Explored> {
  const { depth, progress } = request;
  const journals: unknown[][] = [];
  const result = explore(executiveSubject(executive, wasm), depth, {
    onProgress: (distinct) => progress(`exploring: ${formatCount(distinct)} distinct states`),
    onDistinct: request.faults ? (state) => journals.push(linesOf(state)) : undefined,
  });
  const counterexamples: Counterexample[] = [];
  for (const { rule, from, state, times } of result.findings) {
    const journal = await shrinkFailure(executive, linesOf(state));
    const rules = rulesByLine(auditExecutive(executive, journal), journal);
    const file = executiveJournalBytes(executive, journal);
    counterexamples.push({ rule, from, times, journal, rules, file });
  }
  let sensitivity: Sensitivity<ExecutiveFault> | null = null;
  if (request.faults) {
    sensitivity = emptySensitivity(EXECUTIVE_FAULTS);
    for (const lines of journals) {
      injectExecutiveFaults(sensitivity, executive, lines);
      await checkExecutiveRestarts(sensitivity, wasm, executive, lines);
    }
  }
  const verdicts = await huntEach(request, EXECUTIVE_MUTANTS, (mutant) =>
    huntExecutiveMutant(executive, depth, mutant),
  );
  progress(null);
  return {
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
    mutants: request.mutants ? verdicts.map((verdict) => shownOf(verdict, executive)) : null,
  };
}

/** A host of the machine checked through a driver: every observation and a restart, to `depth`. */
function refinementOf(executive: ExecutiveRun, files: RunFiles, depth: number): DriverCheck {
  const text = `the spec ${files.spec ?? "built in"} under the budget ${files.budget ?? "built in"}`;
  return async (driver, command) => {
    const refinement = await refineExecutive(executive, depth, driver);
    const { sequences, actionsDriven, distinctStates, seconds, divergence } = refinement;
    return {
      title: `statefold explore --model executive --driver ${command}: ${text}, depth ${depth}`,
      counts: `${formatCount(sequences)} action sequences (every observation and a restart from ${formatCount(distinctStates)} distinct states), ${formatCount(actionsDriven)} actions driven (${seconds.toFixed(1)} s)`,
      details: divergence === null ? [] : divergenceDetails(divergence),
      verdict:
        divergence === null
          ? "✓ the host journaled the machine's decision everywhere, restarted or not, and its journal audited strictly conformant"
          : `✗ the host diverges from the machine: ${divergence.why}`,
      found: divergence !== null,
      evidence: {
        configuration: {
          model: "executive",
          driver: command,
          spec: files.spec ?? "the built-in spec",
          budget: files.budget ?? "the built-in budget",
        },
        bound: { depth },
        ...refinement,
      },
      files:
        divergence === null
          ? []
          : [{ name: "divergence-actions.jsonl", bytes: jsonLines(divergence.actions) }],
    };
  };
}

/** The bench's executive exploration: the built-in spec and budget, to their default depth at most. */
function benchedExecutive(
  depth: number,
  wasm: WasmExecutiveEngine,
): BenchedExploration<ExploredExecutive> {
  const run = runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget);
  const benchDepth = Math.min(depth, EXECUTIVE_DEFAULTS.depth);
  return {
    configuration: `the built-in spec and budget, depth ${benchDepth}`,
    depth: benchDepth,
    stepsOnly: { ...executiveSubject(run), checkState: undefined },
    bothEngines: executiveSubject(run, wasm),
    journal: (state) => {
      const lines = linesOf(state);
      return { events: lines.length, fold: () => replayObservations(run, lines) };
    },
  };
}

/** An executive mutant as explore shows it: each machine's final block when they differ. */
function shownOf(verdict: ExecutiveMutantVerdict, executive: ExecutiveRun): MutantShown {
  return mutantShown(verdict, executive, (kill) => {
    const reference = JSON.parse(kill.reference.state);
    const mutated = JSON.parse(kill.mutant.state);
    const differences =
      kill.reference.state === kill.mutant.state
        ? []
        : [
            `by the reference: ${JSON.stringify({ status: reference.status, seq: reference.seq, frames: reference.frames })}`,
            `by the mutant:    ${JSON.stringify({ status: mutated.status, seq: mutated.seq, frames: mutated.frames })}`,
          ];
    const file = executiveJournalBytes(executive, kill.journal);
    return { from: "the ready state", final: { reference, mutant: mutated }, differences, file };
  });
}
