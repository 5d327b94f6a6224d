/**
 * `statefold gen`: a synthetic journal of any registered model, made by the model's generator
 * (its `gen`, src/generate/model-generator.ts). The flags, the help and the faults are the
 * models'; what this command adds is the same for all: which flags belong to which model, how
 * `--inject` is read, and writing the journal as it is made.
 */
import { FaultPlacementError } from "../generate/fault-placement-error.js";
import type { FaultRequest, GenFlagValues, ModelGenerator } from "../generate/model-generator.js";
import { DEFAULT_MODEL, GENERATING_MODELS } from "../models/registry.js";

const GENERATED_NAMES: readonly string[] = GENERATING_MODELS.map((model) => model.name);

import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { openFileSink } from "./file-sink.js";
import { helpColumns, wordList } from "./help-columns.js";
import { integerFlag } from "./number-flags.js";
import { writeBatched } from "./write-batched.js";

/** A registered model's name with its generator. */
interface Generating {
  readonly name: string;
  readonly generator: ModelGenerator;
}

/** The help's options column: where the options' descriptions start. */
const OPTION_INDENT = " ".repeat(25);

const utf8 = new TextDecoder();

/** The command, once every model's generator is loaded: the help lists all their faults. */
export async function loadGenCommand(): Promise<Command> {
  const models = await Promise.all(
    GENERATING_MODELS.map(
      async (model): Promise<Generating> => ({
        name: model.name,
        generator: await model.gen(),
      }),
    ),
  );
  const command: Command = {
    name: "gen",
    help: genHelp(models),
    run: (args, output) => runGen(command, models, args, output),
  };
  return command;
}

function genHelp(models: readonly Generating[]): string {
  const withFlags = models.filter(({ generator }) => generator.flagsUsage !== "");
  const flagsUsage = withFlags.map(({ name, generator }) => `for ${name}: ${generator.flagsUsage}`);
  return `Usage: statefold gen [--model ${GENERATED_NAMES.join("|")}] [--events N] [--seed N] [--inject KIND[:COUNT]]...
                     [--out FILE]${flagsUsage.length === 0 ? "" : `   (and, ${flagsUsage.join(", ")})`}

Writes a synthetic JSONL journal. The same options give the same bytes on every machine. It is
written as it is made, in constant memory: \`statefold gen ... | statefold audit -\`.

${models.map(aboutParagraph).join("\n\n")}

Options:
  --model NAME           ${wordList(GENERATED_NAMES, "or")}: the model of the journal (default ${DEFAULT_MODEL})
  --events N             ${eventsMeanings(models)}
  --seed N               the seed (default 1)
  --inject KIND[:COUNT]  inject COUNT faults of KIND (default 1) at seeded places; repeatable.
                         Each is the only thing an audit finds at its line. ${faultLists(models)}
  --out FILE             write to FILE instead of stdout
  -h, --help             show this help
${withFlags.map(({ name, generator }) => `\nOptions of --model ${name}:\n${generator.flagsHelp}\n`).join("")}
Exit status: 0 written, 2 bad usage (such as more faults than the journal has places for)
or the file cannot be written.
`;
}

function aboutParagraph({ name, generator }: Generating): string {
  const isDefault = name === DEFAULT_MODEL ? " (the default)" : "";
  return `--model ${name}${isDefault}: ${generator.about}`;
}

/** What --events counts, models that count alike named together: "dag: events ...; operations, executive: lines ...". */
function eventsMeanings(models: readonly Generating[]): string {
  const namesByMeaning = new Map<string, string[]>();
  for (const { name, generator } of models) {
    const names = namesByMeaning.get(generator.eventsMeaning) ?? [];
    namesByMeaning.set(generator.eventsMeaning, [...names, name]);
  }
  return [...namesByMeaning]
    .map(([meaning, names]) => `${names.join(", ")}: ${meaning}`)
    .join(`;\n${OPTION_INDENT}`);
}

/** Each model's faults, each name then its description, the descriptions in one column. */
function faultLists(models: readonly Generating[]): string {
  const nameWidth = Math.max(
    ...models.flatMap(({ generator }) => generator.faultKinds.map((kind) => kind.length)),
  );
  return models
    .map(
      ({ name, generator }) =>
        `For ${name}:\n${helpColumns(faultRows(generator), "    ", nameWidth)}`,
    )
    .join(`\n${OPTION_INDENT}`);
}

function faultRows<Kind extends string>(
  generator: ModelGenerator<unknown, Kind>,
): (readonly [Kind, string])[] {
  return generator.faultKinds.map((kind) => [kind, generator.faultDescriptions[kind]] as const);
}

async function runGen(
  command: Command,
  models: readonly Generating[],
  args: readonly string[],
  output: CliOutput,
): Promise<number> {
  const modelFlags = Object.fromEntries(
    models.flatMap(({ generator }) => generator.flags.map((flag) => [flag, { type: "string" }])),
  ) as Record<string, { type: "string" }>;
  const parsed = parseCommand(command, args, output, {
    ...modelFlags,
    model: { type: "string" },
    events: { type: "string" },
    seed: { type: "string", default: "1" },
    inject: { type: "string", multiple: true, default: [] },
    out: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  if (positionals.length > 0)
    throw new UsageError(`gen takes no arguments, found '${positionals[0]}'`, "gen");
  const name = oneOf("gen", "--model", values.model ?? DEFAULT_MODEL, GENERATED_NAMES);
  const chosen = models.find((model) => model.name === name) as Generating;
  const flagValues = stringValues(values);
  refuseForeignFlags(chosen, models, flagValues);
  const options = chosen.generator.options(flagValues);
  const faults = values.inject.map((value) => faultRequest(value, chosen, models));
  const journal = chosen.generator.journal(options, faults);
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

/** The flags that take one value, each with its value. */
function stringValues(values: Readonly<Record<string, unknown>>): GenFlagValues {
  return Object.fromEntries(
    Object.entries(values).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** A flag of another model's only, given: named as such. */
function refuseForeignFlags(
  chosen: Generating,
  models: readonly Generating[],
  values: GenFlagValues,
): void {
  for (const other of models) {
    for (const flag of other.generator.flags) {
      if (values[flag] !== undefined && !chosen.generator.flags.includes(flag)) {
        throw new UsageError(
          `--${flag} is an option of --model ${other.name}, not ${chosen.name}`,
          "gen",
        );
      }
    }
  }
}

/** `--inject KIND[:COUNT]`, read against the model's kinds. */
function faultRequest(
  value: string,
  chosen: Generating,
  models: readonly Generating[],
): FaultRequest {
  const [kindText = "", countText] = value.split(":", 2);
  refuseForeignKind(kindText, chosen, models);
  const kind = oneOf("gen", "--inject", kindText, chosen.generator.faultKinds);
  const count = countText === undefined ? 1 : integerFlag("gen", `--inject ${kind}:`, countText, 1);
  return { kind, count };
}

/** A fault of another model: named as such, with the kinds of this one. */
function refuseForeignKind(kind: string, chosen: Generating, models: readonly Generating[]): void {
  const kinds = chosen.generator.faultKinds;
  if (kinds.includes(kind)) return;
  const foreign = models.find(({ generator }) => generator.faultKinds.includes(kind));
  if (foreign === undefined) return;
  const list = kinds.map((name) => `'${name}'`).join(", ");
  throw new UsageError(
    `--inject ${kind} is a fault of --model ${foreign.name}; the faults of --model ${chosen.name} are ${list}`,
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
