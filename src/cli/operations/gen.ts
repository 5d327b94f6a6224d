/**
 * `statefold gen --model operations`: a simulated runtime running ops on --strands strands
 * (src/generate/operations/), with the faults of src/generate/operations/fault-kinds.ts.
 */
import type { GenFlagValues, ModelGenerator } from "../../generate/model-generator.js";
import {
  OPERATIONS_FAULT_DESCRIPTIONS,
  OPERATIONS_FAULT_KINDS,
  type OperationsFaultKind,
} from "../../generate/operations/fault-kinds.js";
import {
  OPERATIONS_STRANDS_DEFAULT,
  OPERATIONS_STRANDS_MAX,
  type OperationsJournalOptions,
  operationsJournalByteChunks,
} from "../../generate/operations/journal.js";
import { UsageError } from "../command.js";
import { integerFlag } from "../number-flags.js";

type RuntimeOptions = Omit<OperationsJournalOptions, "faults">;

export const operationsGenerator: ModelGenerator<RuntimeOptions, OperationsFaultKind> = {
  about: `the header, then --events records of a runtime running ops on --strands
strands at once, their records interleaved: each op accepted, worked step by step (intents
under fresh effect ids, settlements, retries on the ladder, lost answers read back, now and
then a cancel or a new lease) and finished.`,
  eventsMeaning: "lines (default 10000), injected faults included",
  flags: ["strands"],
  flagsUsage: "[--strands N]",
  flagsHelp: `  --strands N            strands running ops at once (default ${OPERATIONS_STRANDS_DEFAULT}, at most ${OPERATIONS_STRANDS_MAX})`,
  faultKinds: OPERATIONS_FAULT_KINDS,
  faultDescriptions: OPERATIONS_FAULT_DESCRIPTIONS,
  options: runtimeOptions,
  // In pieces of whole lines, as bytes: no yield and join per line, and nothing to encode.
  journal: (runtime, faults) => operationsJournalByteChunks({ ...runtime, faults }),
};

function runtimeOptions(values: GenFlagValues): RuntimeOptions {
  const events = integerFlag("gen", "--events", values.events ?? "10000");
  const seed = integerFlag("gen", "--seed", values.seed ?? "1");
  const strands = integerFlag(
    "gen",
    "--strands",
    values.strands ?? String(OPERATIONS_STRANDS_DEFAULT),
    1,
  );
  if (strands > OPERATIONS_STRANDS_MAX)
    throw new UsageError(
      `--strands must be at most ${OPERATIONS_STRANDS_MAX}, found '${strands}'`,
      "gen",
    );
  return { events, seed, strands };
}
