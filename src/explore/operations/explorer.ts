/**
 * `statefold explore --model operations` (docs/explore.md, "The operations model"): the
 * configuration read from the flags, the exploration of a runtime's commits, its findings
 * shrunk, and the fault matrix with the faults of a runtime that performs effects; an effect
 * runtime checked through a driver ("Refinement of an effect runtime"); and the exploration
 * `npm run bench` measures.
 */
import {
  loadOperationsEngine,
  type WasmOperationsEngine,
} from "../../../bindings/operations/engine.js";
import { JournalError } from "../../journal/errors.js";
import { parseJsonFile } from "../../journal/json-file.js";
import { readFileBytes } from "../../journal/read-file-bytes.js";
import { audit } from "../../models/operations/audit.js";
import { integrityMessage } from "../../models/operations/integrity.js";
import { readRecord } from "../../models/operations/read-record.js";
import type { Policy } from "../../models/operations/records.js";
import { replay } from "../../models/operations/replay.js";
import { formatCount } from "../../text/format-units.js";
import { explore } from "../explore.js";
import {
  type Counterexample,
  type ExplorationRequest,
  type Explored,
  huntEach,
  jsonLines,
  type MutantShown,
  mutantShown,
  numbered,
  slug,
} from "../explored.js";
import type { BenchedExploration, DriverCheck, ExploreFlags, Explorer } from "../facet.js";
import { emptySensitivity, type Sensitivity } from "../faults.js";
import { rulesByRecord, shrinkFailure } from "./counterexample.js";
import { EFFECT_RUNTIME_DEFAULTS, OPERATIONS_DEFAULTS } from "./defaults.js";
import {
  checkOperationsRestarts,
  injectOperationsFaults,
  OPERATIONS_FAULTS,
  type OperationsFault,
} from "./faults.js";
import {
  huntOperationsMutant,
  OPERATIONS_MUTANTS,
  type OperationsMutantVerdict,
} from "./mutants.js";
import { type EffectRuntimeConfiguration, refineEffectRuntime } from "./refine.js";
import {
  describeConfiguration,
  type ExploredOperations,
  type OperationsConfiguration,
  operationsJournalBytes,
  operationsSubject,
  recordsOf,
} from "./subject.js";

export const operationsExplorer: Explorer = {
  explore: async (flags, request) => {
    const configuration: OperationsConfiguration = {
      strands: flags.integer("strands", OPERATIONS_DEFAULTS.strands, 1),
      ops: flags.integer("ops", OPERATIONS_DEFAULTS.ops, 1),
      keys: flags.integer("keys", OPERATIONS_DEFAULTS.keys, 1),
      attempts: flags.integer("attempts", OPERATIONS_DEFAULTS.attempts, 1),
      leases: flags.integer("leases", OPERATIONS_DEFAULTS.leases, 0),
      policy: policyOf(flags, OPERATIONS_DEFAULTS.policy),
    };
    return exploreOperations(request, configuration, await loadOperationsEngine());
  },
  refinement: (flags, depth) => {
    const configuration: EffectRuntimeConfiguration = {
      strands: flags.integer("strands", EFFECT_RUNTIME_DEFAULTS.strands, 1),
      ops: flags.integer("ops", EFFECT_RUNTIME_DEFAULTS.ops, 1),
      keys: flags.integer("keys", EFFECT_RUNTIME_DEFAULTS.keys, 1),
      faults: flags.integer("faults", EFFECT_RUNTIME_DEFAULTS.faults, 0),
      progressBound: flags.integer("progress-bound", EFFECT_RUNTIME_DEFAULTS.progressBound, 1),
      policy: policyOf(flags, EFFECT_RUNTIME_DEFAULTS.policy),
    };
    return refinementOf(configuration, depth);
  },
  benchmark: async (depth) => benchedOperations(depth, await loadOperationsEngine()),
};

function policyOf(flags: ExploreFlags, fallback: Policy): Policy {
  const file = flags.text("policy");
  return file === undefined ? fallback : readPolicyFile(file);
}

async function exploreOperations(
  request: ExplorationRequest,
  configuration: OperationsConfiguration,
  wasm: WasmOperationsEngine,
): Promise<Explored> {
  const { depth, progress } = request;
  const journals: Record<string, unknown>[][] = [];
  const result = explore(operationsSubject(configuration, wasm), depth, {
    onProgress: (distinct) => progress(`exploring: ${formatCount(distinct)} distinct states`),
    onDistinct: request.faults ? (state) => journals.push(recordsOf(state)) : undefined,
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
  if (request.faults) {
    sensitivity = emptySensitivity(OPERATIONS_FAULTS);
    for (const records of journals) {
      injectOperationsFaults(sensitivity, records, configuration.keys);
      await checkOperationsRestarts(sensitivity, wasm, records);
    }
  }
  const verdicts = await huntEach(request, OPERATIONS_MUTANTS, (mutant) =>
    huntOperationsMutant(configuration, depth, mutant),
  );
  progress(null);
  return {
    configuration: {
      evidence: { model: "operations", ...configuration },
      text: describeConfiguration(configuration),
    },
    result,
    counterexamples,
    sensitivity,
    mutants: request.mutants ? verdicts.map((verdict) => shownOf(verdict, configuration)) : null,
  };
}

/**
 * An effect runtime checked through a driver: every schedule of the world around it to `depth`
 * events, with up to the configuration's faults.
 */
function refinementOf(configuration: EffectRuntimeConfiguration, depth: number): DriverCheck {
  const { strands, ops, keys, faults, progressBound, policy } = configuration;
  const bound = { depth, faults, progressBound };
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const text = `${plural(strands, "strand")}, ${plural(ops, "op")} of ${plural(keys, "step")}, policy ${JSON.stringify(policy)}`;
  return async (driver, command) => {
    const refinement = await refineEffectRuntime(configuration, depth, driver);
    const { schedules, environmentEvents, distinctStates, depthReached, seconds, finding } =
      refinement;
    const name = finding === null ? "" : `finding-1-${slug(finding.what)}`;
    return {
      title: `statefold explore --model operations --driver ${command}: ${text}, depth ${bound.depth}, up to ${bound.faults} fault${bound.faults === 1 ? "" : "s"}, progress bound ${bound.progressBound}`,
      counts: `${formatCount(schedules)} schedules, ${formatCount(environmentEvents)} environment events driven, ${formatCount(distinctStates)} distinct states, depth reached ${depthReached} (${seconds.toFixed(1)} s)`,
      details:
        finding === null
          ? []
          : [
              `  ${finding.message}`,
              `  the schedule, shrunk to ${finding.schedule.length} event${finding.schedule.length === 1 ? "" : "s"}:`,
              ...numbered(finding.schedule, "    "),
              "  the runtime's journal:",
              ...numbered(finding.journal, "    "),
            ],
      verdict:
        finding === null
          ? "✓ nothing found: every journal strictly conformant, the ledger agreed with it, and the benign schedule finished every op from every state"
          : `✗ found ${finding.what}: the ${finding.check} check failed`,
      found: finding !== null,
      evidence: {
        configuration: { model: "operations", driver: command, strands, ops, keys, policy },
        bound,
        schedules,
        environmentEvents,
        distinctStates,
        depthReached,
        seconds,
        findings: finding === null ? [] : [finding],
      },
      files:
        finding === null
          ? []
          : [
              { name: `${name}.jsonl`, bytes: operationsJournalBytes(finding.journal) },
              { name: `${name}-schedule.jsonl`, bytes: jsonLines(finding.schedule) },
            ],
    };
  };
}

/** The operations model's bench depth: seven levels, a few seconds an exploration. */
const BENCH_DEPTH = 7;

/** The bench's operations exploration: the defaults on two strands, so that ops interleave. */
function benchedOperations(
  depth: number,
  wasm: WasmOperationsEngine,
): BenchedExploration<ExploredOperations> {
  const configuration = { ...OPERATIONS_DEFAULTS, strands: 2 };
  const benchDepth = Math.min(depth, BENCH_DEPTH);
  return {
    configuration: `${describeConfiguration(configuration)}, depth ${benchDepth}`,
    depth: benchDepth,
    stepsOnly: { ...operationsSubject(configuration), checkState: undefined },
    bothEngines: operationsSubject(configuration, wasm),
    journal: (state) => {
      const records = recordsOf(state);
      return { events: records.length, fold: () => replay(records) };
    },
  };
}

/** An operations mutant as explore shows it: the final summaries when they differ, else the states. */
function shownOf(
  verdict: OperationsMutantVerdict,
  configuration: OperationsConfiguration,
): MutantShown {
  return mutantShown(verdict, configuration, (kill) => {
    const reference = audit(kill.journal).final;
    const mutated = audit(kill.journal, {}, verdict.mutant.semantics).final;
    const differences =
      JSON.stringify(reference) !== JSON.stringify(mutated)
        ? [
            `by the reference: ${JSON.stringify(reference)}`,
            `by the mutant:    ${JSON.stringify(mutated)}`,
          ]
        : kill.reference.state === kill.mutant.state
          ? []
          : ["the final states differ (both are in --format json)"];
    return {
      from: "the initial state",
      final: { reference: JSON.parse(kill.reference.state), mutant: JSON.parse(kill.mutant.state) },
      differences,
      file: operationsJournalBytes(kill.journal),
    };
  });
}

/** A retry policy from a JSON file, checked as an `accepted` record's policy is. */
function readPolicyFile(path: string): Policy {
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
