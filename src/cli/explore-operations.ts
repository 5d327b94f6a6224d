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
  describeConfiguration,
  type OperationsConfiguration,
  operationsJournalBytes,
  operationsSubject,
  recordsOf,
} from "../explore/operations/subject.js";
import { JournalError } from "../journal/errors.js";
import { readFileBytes } from "../journal/read-file-bytes.js";
import { audit } from "../models/operations/audit.js";
import { integrityMessage } from "../models/operations/integrity.js";
import { readRecord } from "../models/operations/read-record.js";
import type { Policy } from "../models/operations/records.js";
import { ExitCode } from "./command.js";
import {
  type Counterexample,
  count,
  type ExploredConfiguration,
  type ExploreRun,
  evidence,
  explorationText,
  sensitivityText,
  slug,
} from "./explore-output.js";

export async function exploreOperations(
  run: ExploreRun,
  configuration: OperationsConfiguration,
  wasm: WasmOperationsEngine,
): Promise<number> {
  const { depth, format, output, out, progress } = run;
  const journals: Record<string, unknown>[][] = [];
  const result = explore(operationsSubject(configuration, wasm), depth, {
    onProgress: (distinct) => progress(`exploring: ${count(distinct)} distinct states`),
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
  progress(null);
  const explored: ExploredConfiguration = {
    evidence: { model: "operations", ...configuration },
    text: describeConfiguration(configuration),
  };
  if (format === "json") {
    const shown = { ...evidence(explored, depth, result, counterexamples), sensitivity };
    output.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } else {
    output.stdout(explorationText(explored, depth, result, counterexamples));
    if (sensitivity !== null) output.stdout(sensitivityText(sensitivity));
  }
  if (out !== null) {
    for (const [i, { rule, journal }] of counterexamples.entries()) {
      out.write(`finding-${i + 1}-${slug(rule)}.jsonl`, operationsJournalBytes(journal));
    }
    if (format === "text" && out.written.length > 0) {
      output.stdout(`Counterexamples written to ${out.folder}: ${out.written.join(", ")}\n`);
    }
  }
  const restartsDiffer = (sensitivity?.restarts.differing ?? 0) > 0;
  return result.findings.length === 0 && !restartsDiffer
    ? ExitCode.conformant
    : ExitCode.notConformant;
}

/** A retry policy from a JSON file, checked as an `accepted` record's policy is. */
export function readPolicyFile(path: string): Policy {
  const text = new TextDecoder().decode(readFileBytes(path));
  let policy: unknown;
  try {
    policy = JSON.parse(text);
  } catch (error) {
    throw new JournalError(
      path,
      `expected a JSON policy, found text JSON cannot read (${(error as Error).message})`,
    );
  }
  const read = readRecord({ kind: "accepted", op: "", strand: "", policy });
  if (!read.ok) {
    const problem = integrityMessage(read.fault).replace('field "policy.', 'field "');
    throw new JournalError(
      path,
      `expected a policy {"maxAttempts", "baseDelayMs", "maxDelayMs"}: ${problem}`,
    );
  }
  return (read.record as { policy: Policy }).policy;
}
