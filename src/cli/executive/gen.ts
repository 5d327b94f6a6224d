/**
 * `statefold gen --model executive`: a faithful host driving the executive machine on a seeded
 * spec (src/generate/executive/journal.ts), with the faults that journal can hold.
 */
import {
  EXECUTIVE_FAULT_DESCRIPTIONS,
  EXECUTIVE_FAULT_KINDS,
  type ExecutiveFaultKind,
  type ExecutiveJournalOptions,
  executiveJournal,
} from "../../generate/executive/journal.js";
import type { GenFlagValues, ModelGenerator } from "../../generate/model-generator.js";
import { integerFlag } from "../number-flags.js";

type RunOptions = Omit<ExecutiveJournalOptions, "faults">;

export const executiveGenerator: ModelGenerator<RunOptions, ExecutiveFaultKind> = {
  about: `a header with a seeded spec (its plan as large as the journal needs) and
budget, then --events lines of a faithful host driving the executive machine — results,
retries, checkpoints, ticks — each with the machine's decision as the host recorded it.`,
  eventsMeaning: "lines (default 10000), injected faults included",
  flags: [],
  flagsUsage: "",
  flagsHelp: "",
  faultKinds: EXECUTIVE_FAULT_KINDS,
  faultDescriptions: EXECUTIVE_FAULT_DESCRIPTIONS,
  options: runOptions,
  journal: (run, faults) => executiveJournal({ ...run, faults }),
};

function runOptions(values: GenFlagValues): RunOptions {
  const events = integerFlag("gen", "--events", values.events ?? "10000");
  const seed = integerFlag("gen", "--seed", values.seed ?? "1");
  return { events, seed };
}
