import type { CampaignOptions } from "../generate/campaign.js";
import { FAULT_DESCRIPTIONS, FAULT_KINDS, type FaultKind } from "../generate/fault-kinds.js";
import { FaultPlacementError, type FaultRequest } from "../generate/faults.js";
import { syntheticJournal } from "../generate/synthetic-journal.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { openFileSink } from "./file-sink.js";
import { integerFlag, probabilityFlag } from "./number-flags.js";
import { writeBatched } from "./write-batched.js";

const FAULT_LIST = FAULT_KINDS.map(
  (kind) => `    ${kind.padEnd(20)}${FAULT_DESCRIPTIONS[kind]}`,
).join("\n");

const HELP = `Usage: statefold gen [--nodes N] [--events N] [--seed N] [--inject KIND[:COUNT]]... [--out FILE]

Writes a synthetic JSONL journal: a header with a DAG of --nodes tasks, then a campaign that
works --parallelism tasks at a time through dispatch, surface widening, landing and gate
checks (some failing into rework, some quarantined and discharged) until --events events are
written or every task is proven. The same options give the same bytes on every machine.
It is written as it is made, in constant memory: \`statefold gen ... | statefold audit -\`.

Options:
  --nodes N              tasks in the DAG (default 100)
  --max-deps N           dependencies of a task at most, on the tasks just before it (default 3)
  --events N             events of the campaign (default 10000); injected faults come on top
  --parallelism N        tasks in flight at once, whose events interleave (default 64)
  --seed N               the seed (default 1)
  --pass-rate P          the chance that a gate check passes (default: one that makes the
                         campaign last about --events)
  --surface-paths-max N  paths a task's surface grows to at most (default: no bound)
  --inject KIND[:COUNT]  inject COUNT faults of KIND (default 1) at seeded places; repeatable.
                         Each is the only thing an audit finds at its line:
${FAULT_LIST}
  --out FILE             write to FILE instead of stdout
  -h, --help             show this help

Exit status: 0 written, 2 bad usage (such as more faults than the campaign has places for)
or the file cannot be written.
`;

export const genCommand: Command = {
  name: "gen",
  summary: "write a synthetic journal, with injected faults",
  help: HELP,
  run: runGen,
};

async function runGen(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(genCommand, args, output, {
    nodes: { type: "string", default: "100" },
    "max-deps": { type: "string" },
    events: { type: "string", default: "10000" },
    parallelism: { type: "string" },
    seed: { type: "string", default: "1" },
    "pass-rate": { type: "string" },
    "surface-paths-max": { type: "string" },
    inject: { type: "string", multiple: true, default: [] },
    out: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  if (positionals.length > 0)
    throw new UsageError(`gen takes no arguments, found '${positionals[0]}'`, "gen");
  const optional = <T>(value: string | undefined, parse: (value: string) => T) =>
    value === undefined ? undefined : parse(value);
  const campaign: CampaignOptions = {
    nodes: integerFlag("gen", "--nodes", values.nodes),
    events: integerFlag("gen", "--events", values.events),
    seed: integerFlag("gen", "--seed", values.seed),
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
  const faults = values.inject.map(parseFault);
  const journal = syntheticJournal({ campaign, faults });
  // The first line is made before the output is opened: a fault plan the campaign cannot hold
  // is found then, and leaves no half-written file behind.
  const first = firstPiece(journal);
  if (values.out === undefined) {
    const write = output.stdoutPaced ?? (async (text: string) => output.stdout(text));
    await writeBatched(withFirst(first, journal), write);
    return ExitCode.conformant;
  }
  const sink = await openFileSink(values.out);
  try {
    await writeBatched(withFirst(first, journal), sink.write);
  } finally {
    await sink.close();
  }
  return ExitCode.conformant;
}

function parseFault(value: string): FaultRequest {
  const [kindText = "", countText] = value.split(":", 2);
  const kind: FaultKind = oneOf("gen", "--inject", kindText, FAULT_KINDS);
  const count = countText === undefined ? 1 : integerFlag("gen", `--inject ${kind}:`, countText, 1);
  return { kind, count };
}

function firstPiece(journal: Generator<string>): IteratorResult<string> {
  try {
    return journal.next();
  } catch (error) {
    if (error instanceof FaultPlacementError) throw new UsageError(error.message, "gen");
    throw error;
  }
}

function* withFirst(first: IteratorResult<string>, rest: Generator<string>): Generator<string> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
