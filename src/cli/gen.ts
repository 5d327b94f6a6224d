import type { CampaignOptions } from "../generate/dag/campaign.js";
import { FAULT_DESCRIPTIONS, FAULT_KINDS, type FaultKind } from "../generate/dag/fault-kinds.js";
import { FaultPlacementError, type FaultRequest } from "../generate/dag/faults.js";
import { syntheticJournal } from "../generate/dag/synthetic-journal.js";
import {
  EXECUTIVE_FAULT_DESCRIPTIONS,
  EXECUTIVE_FAULT_KINDS,
  type ExecutiveFaultRequest,
  executiveJournal,
} from "../generate/executive/journal.js";
import {
  OPERATIONS_FAULT_DESCRIPTIONS,
  OPERATIONS_FAULT_KINDS,
  type OperationsFaultKind,
} from "../generate/operations/fault-kinds.js";
import {
  OPERATIONS_STRANDS_DEFAULT,
  OPERATIONS_STRANDS_MAX,
  type OperationsFaultRequest,
  operationsJournalByteChunks,
} from "../generate/operations/journal.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { openFileSink } from "./file-sink.js";
import { helpColumns } from "./help-columns.js";
import { integerFlag, probabilityFlag } from "./number-flags.js";
import { writeBatched } from "./write-batched.js";

/** The longest fault kind of any model, so that the help's lists of faults share one column. */
const FAULT_NAME_WIDTH = Math.max(
  ...[...FAULT_KINDS, ...OPERATIONS_FAULT_KINDS, ...EXECUTIVE_FAULT_KINDS].map(
    (kind) => kind.length,
  ),
);

/** A help list of faults: each name, then its description. */
function faultList<K extends string>(
  kinds: readonly K[],
  descriptions: Readonly<Record<K, string>>,
): string {
  const rows = kinds.map((kind) => [kind, descriptions[kind]] as const);
  return helpColumns(rows, "    ", FAULT_NAME_WIDTH);
}

const FAULT_LIST = faultList(FAULT_KINDS, FAULT_DESCRIPTIONS);
const OPERATIONS_FAULT_LIST = faultList(OPERATIONS_FAULT_KINDS, OPERATIONS_FAULT_DESCRIPTIONS);

const MODELS = ["dag", "operations", "executive"] as const;
type Model = (typeof MODELS)[number];

/** The flags of one model only. */
const DAG_ONLY_FLAGS = [
  "nodes",
  "max-deps",
  "parallelism",
  "pass-rate",
  "surface-paths-max",
] as const;
const OPERATIONS_ONLY_FLAGS = ["strands"] as const;
const FLAGS_OF: Readonly<Record<Model, readonly (keyof GenValues)[]>> = {
  dag: DAG_ONLY_FLAGS,
  operations: OPERATIONS_ONLY_FLAGS,
  executive: [],
};

const EXECUTIVE_FAULT_LIST = faultList(EXECUTIVE_FAULT_KINDS, EXECUTIVE_FAULT_DESCRIPTIONS);

const utf8 = new TextDecoder();

const HELP = `Usage: statefold gen [--model dag|operations|executive] [--events N] [--seed N] [--inject KIND[:COUNT]]...
                     [--out FILE]   (and, for dag: [--nodes N] ..., for operations: [--strands N])

Writes a synthetic JSONL journal. The same options give the same bytes on every machine. It is
written as it is made, in constant memory: \`statefold gen ... | statefold audit -\`.

--model dag (the default): a header with a DAG of --nodes tasks, then a campaign that works
--parallelism tasks at a time through dispatch, surface widening, landing and gate checks
(some failing into rework, some quarantined and discharged) until --events events are written
or every task is proven.

--model operations: the header, then --events records of a runtime running ops on --strands
strands at once, their records interleaved: each op accepted, worked step by step (intents
under fresh effect ids, settlements, retries on the ladder, lost answers read back, now and
then a cancel or a new lease) and finished.

--model executive: a header with a seeded spec (its plan as large as the journal needs) and
budget, then --events lines of a faithful host driving the executive machine — results,
retries, checkpoints, ticks — each with the machine's decision as the host recorded it.

Options:
  --model NAME           dag, operations or executive: the model of the journal (default dag)
  --events N             dag: events of the campaign (default 10000), injected faults on top;
                         operations, executive: lines (default 10000), injected faults included
  --seed N               the seed (default 1)
  --inject KIND[:COUNT]  inject COUNT faults of KIND (default 1) at seeded places; repeatable.
                         Each is the only thing an audit finds at its line. For dag:
${FAULT_LIST}
                         For operations:
${OPERATIONS_FAULT_LIST}
                         For executive:
${EXECUTIVE_FAULT_LIST}
  --out FILE             write to FILE instead of stdout
  -h, --help             show this help

Options of --model dag:
  --nodes N              tasks in the DAG (default 100)
  --max-deps N           dependencies of a task at most, on the tasks just before it (default 3)
  --events N             events of the campaign (default 10000); injected faults come on top
  --parallelism N        tasks in flight at once, whose events interleave (default 64)
  --seed N               the seed (default 1)
  --pass-rate P          the chance that a gate check passes (default: one that makes the
                         campaign last about --events)
  --surface-paths-max N  paths a task's surface grows to at most (default: no bound)

Options of --model operations:
  --strands N            strands running ops at once (default ${OPERATIONS_STRANDS_DEFAULT}, at most ${OPERATIONS_STRANDS_MAX})

Exit status: 0 written, 2 bad usage (such as more faults than the journal has places for)
or the file cannot be written.
`;

export const genCommand: Command = {
  name: "gen",
  help: HELP,
  run: runGen,
};

async function runGen(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(genCommand, args, output, {
    model: { type: "string" },
    nodes: { type: "string" },
    "max-deps": { type: "string" },
    events: { type: "string" },
    parallelism: { type: "string" },
    seed: { type: "string", default: "1" },
    "pass-rate": { type: "string" },
    "surface-paths-max": { type: "string" },
    strands: { type: "string" },
    inject: { type: "string", multiple: true, default: [] },
    out: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  if (positionals.length > 0)
    throw new UsageError(`gen takes no arguments, found '${positionals[0]}'`, "gen");
  const model: Model = oneOf("gen", "--model", values.model ?? "dag", MODELS);
  for (const other of MODELS) {
    if (other === model) continue;
    for (const flag of FLAGS_OF[other]) {
      if (values[flag] !== undefined) {
        throw new UsageError(`--${flag} is an option of --model ${other}, not ${model}`, "gen");
      }
    }
  }
  const journal: Generator<string | Uint8Array> =
    model === "dag"
      ? dagJournal(values)
      : model === "operations"
        ? operationsJournalOf(values)
        : executiveJournalOf(values);
  // The first line is made before the output is opened: a fault plan the journal cannot hold
  // is found then, and leaves no half-written file behind.
  const first = firstPiece(journal);
  if (values.out === undefined) {
    const write =
      output.stdoutPaced ??
      (async (piece: string | Uint8Array) =>
        output.stdout(typeof piece === "string" ? piece : utf8.decode(piece)));
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

interface GenValues {
  readonly nodes?: string | undefined;
  readonly "max-deps"?: string | undefined;
  readonly events?: string | undefined;
  readonly parallelism?: string | undefined;
  readonly seed?: string | undefined;
  readonly "pass-rate"?: string | undefined;
  readonly "surface-paths-max"?: string | undefined;
  readonly strands?: string | undefined;
  readonly inject: readonly string[];
}

function dagJournal(values: GenValues): Generator<string> {
  const optional = <T>(value: string | undefined, parse: (value: string) => T) =>
    value === undefined ? undefined : parse(value);
  const campaign: CampaignOptions = {
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
  const faults = values.inject.map(parseFault);
  return syntheticJournal({ campaign, faults });
}

function operationsJournalOf(values: GenValues): Generator<Uint8Array> {
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
  const faults = values.inject.map(parseOperationsFault);
  // In pieces of whole lines, as bytes: no yield and join per line, and nothing to encode.
  return operationsJournalByteChunks({ events, seed, strands, faults });
}

function executiveJournalOf(values: GenValues): Generator<string> {
  const events = integerFlag("gen", "--events", values.events ?? "10000");
  const seed = integerFlag("gen", "--seed", values.seed ?? "1");
  const faults = values.inject.map((value): ExecutiveFaultRequest => {
    const [kindText = "", countText] = value.split(":", 2);
    const kind = oneOf("gen", "--inject", kindText, EXECUTIVE_FAULT_KINDS);
    const count =
      countText === undefined ? 1 : integerFlag("gen", `--inject ${kind}:`, countText, 1);
    return { kind, count };
  });
  return executiveJournal({ events, seed, faults });
}

function parseFault(value: string): FaultRequest {
  const [kindText = "", countText] = value.split(":", 2);
  refuseForeignKind(kindText, OPERATIONS_FAULT_KINDS, "operations", FAULT_KINDS, "dag");
  const kind: FaultKind = oneOf("gen", "--inject", kindText, FAULT_KINDS);
  const count = countText === undefined ? 1 : integerFlag("gen", `--inject ${kind}:`, countText, 1);
  return { kind, count };
}

function parseOperationsFault(value: string): OperationsFaultRequest {
  const [kindText = "", countText] = value.split(":", 2);
  refuseForeignKind(kindText, FAULT_KINDS, "dag", OPERATIONS_FAULT_KINDS, "operations");
  const kind: OperationsFaultKind = oneOf("gen", "--inject", kindText, OPERATIONS_FAULT_KINDS);
  const count = countText === undefined ? 1 : integerFlag("gen", `--inject ${kind}:`, countText, 1);
  return { kind, count };
}

/** A fault of the other model: named as such, with the kinds of this one. */
function refuseForeignKind(
  kind: string,
  foreignKinds: readonly string[],
  foreignModel: Model,
  kinds: readonly string[],
  model: Model,
): void {
  if (!foreignKinds.includes(kind) || kinds.includes(kind)) return;
  const list = kinds.map((name) => `'${name}'`).join(", ");
  throw new UsageError(
    `--inject ${kind} is a fault of --model ${foreignModel}; the faults of --model ${model} are ${list}`,
    "gen",
  );
}

function firstPiece<P>(journal: Generator<P>): IteratorResult<P> {
  try {
    return journal.next();
  } catch (error) {
    if (error instanceof FaultPlacementError) throw new UsageError(error.message, "gen");
    throw error;
  }
}

function* withFirst<P>(first: IteratorResult<P>, rest: Generator<P>): Generator<P> {
  if (first.done) return;
  yield first.value;
  yield* rest;
}
