/**
 * `statefold explore --model operations` (docs/explore.md, "The operations model"): the
 * exploration of a runtime's commits, its findings shrunk, and the fault matrix with the faults
 * of a runtime that performs effects.
 */
import type { WasmOperationsEngine } from "../../bindings/operations/engine.js";
import { explore } from "../explore/explore.js";
import { emptySensitivity, type Sensitivity } from "../explore/faults.js";
import { rulesByRecord, shrinkFailure } from "../explore/operations/counterexample.js";
import {
  checkOperationsRestarts,
  injectOperationsFaults,
  OPERATIONS_FAULTS,
  type OperationsFault,
} from "../explore/operations/faults.js";
import {
  huntOperationsMutant,
  OPERATIONS_MUTANTS,
  type OperationsMutantVerdict,
} from "../explore/operations/mutants.js";
import {
  describeConfiguration,
  type OperationsConfiguration,
  operationsJournalBytes,
  operationsSubject,
  recordsOf,
} from "../explore/operations/subject.js";
import { JournalError } from "../journal/errors.js";
import { parseJsonFile } from "../journal/json-file.js";
import { readFileBytes } from "../journal/read-file-bytes.js";
import { audit } from "../models/operations/audit.js";
import { integrityMessage } from "../models/operations/integrity.js";
import { readRecord } from "../models/operations/read-record.js";
import type { Policy } from "../models/operations/records.js";
import { formatCount } from "../text/format-units.js";
import {
  type Counterexample,
  type ExploreRun,
  finishExploration,
  huntEach,
  type MutantShown,
} from "./explore-output.js";

export async function exploreOperations(
  run: ExploreRun,
  configuration: OperationsConfiguration,
  wasm: WasmOperationsEngine,
): Promise<number> {
  const { depth, progress } = run;
  const journals: Record<string, unknown>[][] = [];
  const result = explore(operationsSubject(configuration, wasm), depth, {
    onProgress: (distinct) => progress(`exploring: ${formatCount(distinct)} distinct states`),
    onDistinct: run.faults ? (state) => journals.push(recordsOf(state)) : undefined,
  });
  const counterexamples: Counterexample[] = [];
  for (const { rule, from, state, times } of result.findings) {
    const journal = await shrinkFailure(recordsOf(state));
    counterexamples.push({
      rule,
      from,
      times,
      journal,
      rules: rulesByRecord(audit(journal), journal),
      file: operationsJournalBytes(journal),
    });
  }
  let sensitivity: Sensitivity<OperationsFault> | null = null;
  if (run.faults) {
    sensitivity = emptySensitivity(OPERATIONS_FAULTS);
    for (const records of journals) {
      injectOperationsFaults(sensitivity, records, configuration.keys);
      await checkOperationsRestarts(sensitivity, wasm, records);
    }
  }
  const verdicts = await huntEach(run, OPERATIONS_MUTANTS, (mutant) =>
    huntOperationsMutant(configuration, depth, mutant),
  );
  progress(null);
  return finishExploration(run, {
    configuration: {
      evidence: { model: "operations", ...configuration },
      text: describeConfiguration(configuration),
    },
    result,
    counterexamples,
    sensitivity,
    mutants: run.mutants ? verdicts.map((verdict) => shownOf(verdict, configuration)) : null,
  });
}

/** An operations mutant as explore shows it: the final summaries when they differ, else the states. */
function shownOf(
  { mutant, distinctStates, kill }: OperationsMutantVerdict,
  configuration: OperationsConfiguration,
): MutantShown {
  const { name, description } = mutant;
  const unexercised = mutant.unexercisedBy?.(configuration) ?? null;
  if (kill === null) return { name, description, distinctStates, unexercised, kill: null };
  const reference = audit(kill.journal).final;
  const mutated = audit(kill.journal, {}, mutant.semantics).final;
  const then =
    JSON.stringify(reference) !== JSON.stringify(mutated)
      ? [
          `by the reference: ${JSON.stringify(reference)}`,
          `by the mutant:    ${JSON.stringify(mutated)}`,
        ]
      : kill.reference.state === kill.mutant.state
        ? []
        : ["the final states differ (both are in --format json)"];
  return {
    name,
    description,
    distinctStates,
    unexercised,
    kill: {
      madeBy: kill.madeBy,
      from: "the initial state",
      differs: kill.differs,
      journal: kill.journal,
      reference: { rules: kill.reference.rules, final: JSON.parse(kill.reference.state) },
      mutant: { rules: kill.mutant.rules, final: JSON.parse(kill.mutant.state) },
      then,
      file: operationsJournalBytes(kill.journal),
    },
  };
}

/** A retry policy from a JSON file, checked as an `accepted` record's policy is. */
export function readPolicyFile(path: string): Policy {
  const { value } = parseJsonFile(readFileBytes(path), path, 'a policy {"maxAttempts", …}');
  const read = readRecord({ kind: "accepted", op: "", strand: "", policy: value });
  if (!read.ok) {
    const problem = integrityMessage(read.fault).replace('field "policy.', 'field "');
    throw new JournalError(
      path,
      `expected a policy {"maxAttempts", "baseDelayMs", "maxDelayMs"}: ${problem}`,
    );
  }
  return (read.record as { policy: Policy }).policy;
}
