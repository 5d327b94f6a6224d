/**
 * `statefold gen --model dag`: a campaign over a seeded DAG (src/generate/dag/), with the
 * faults of src/generate/dag/fault-kinds.ts.
 */
import type { CampaignOptions } from "../../generate/dag/campaign.js";
import { FAULT_DESCRIPTIONS, FAULT_KINDS, type FaultKind } from "../../generate/dag/fault-kinds.js";
import { syntheticJournal } from "../../generate/dag/synthetic-journal.js";
import type { GenFlagValues, ModelGenerator } from "../../generate/model-generator.js";
import { integerFlag, probabilityFlag } from "../number-flags.js";

export const dagGenerator: ModelGenerator<CampaignOptions, FaultKind> = {
  about: `a header with a DAG of --nodes tasks, then a campaign that works
--parallelism tasks at a time through dispatch, surface widening, landing and gate checks
(some failing into rework, some quarantined and discharged) until --events events are written
or every task is proven.`,
  eventsMeaning: "events of the campaign (default 10000), injected faults on top",
  flags: ["nodes", "max-deps", "parallelism", "pass-rate", "surface-paths-max"],
  flagsUsage: "[--nodes N] ...",
  flagsHelp: `  --nodes N              tasks in the DAG (default 100)
  --max-deps N           dependencies of a task at most, on the tasks just before it (default 3)
  --events N             events of the campaign (default 10000); injected faults come on top
  --parallelism N        tasks in flight at once, whose events interleave (default 64)
  --seed N               the seed (default 1)
  --pass-rate P          the chance that a gate check passes (default: one that makes the
                         campaign last about --events)
  --surface-paths-max N  paths a task's surface grows to at most (default: no bound)`,
  faultKinds: FAULT_KINDS,
  faultDescriptions: FAULT_DESCRIPTIONS,
  options: campaignOptions,
  journal: (campaign, faults) => syntheticJournal({ campaign, faults }),
};

function campaignOptions(values: GenFlagValues): CampaignOptions {
  const optional = <T>(value: string | undefined, parse: (value: string) => T) =>
    value === undefined ? undefined : parse(value);
  return {
    nodes: integerFlag("gen", "--nodes", values.nodes ?? "100"),
    events: integerFlag("gen", "--events", values.events ?? "10000"),
    seed: integerFlag("gen", "--seed", values.seed ?? "1"),
    maxDeps: optional(values["max-deps"], (value) => integerFlag("gen", "--max-deps", value)),
    parallelism: optional(values.parallelism, (value) =>
      integerFlag("gen", "--parallelism", value, 1),
    ),
    passRate: optional(values["pass-rate"], (value) =>
      probabilityFlag("gen", "--pass-rate", value),
    ),
    surfacePathsMax: optional(values["surface-paths-max"], (value) =>
      integerFlag("gen", "--surface-paths-max", value, 1),
    ),
  };
}
