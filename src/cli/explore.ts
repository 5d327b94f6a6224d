/**
 * `statefold explore` (docs/explore.md): bounded exhaustive exploration of a model. It prints
 * the exact configuration and bound, what was explored — states, distinct states, transitions,
 * the depth reached, distinct states per second — and each finding with the journal that led
 * to it; `--format json` writes the same as evidence. Exit 0 with no finding, 1 with one.
 *
 * The model comes from the registry: its own flags, its help and its explorer are its `explore`
 * facet (src/explore/facet.ts); everything here is alike for every model.
 */
import type { ExploreFlags } from "../explore/facet.js";
import { DEFAULT_MODEL, EXPLORABLE_MODELS, type ExplorableModel } from "../models/registry.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { exploreHelp } from "./explore-help.js";
import {
  CounterexampleFolder,
  type ExploreRun,
  finishExploration,
  progressLine,
} from "./explore-output.js";
import { type DriverCommand, refineThroughDriver } from "./explore-refine.js";
import { integerFlag } from "./number-flags.js";

/** How long a driver may take to answer one request. */
const DRIVER_TIMEOUT_MS = 10_000;

export const exploreCommand: Command = {
  name: "explore",
  help: exploreHelp(DRIVER_TIMEOUT_MS),
  run: runExplore,
};

/** The flags every model takes; a model's own come from its facet. */
const SHARED_OPTIONS = {
  model: { type: "string" },
  depth: { type: "string" },
  format: { type: "string" },
  faults: { type: "boolean" },
  mutants: { type: "boolean" },
  out: { type: "string" },
  driver: { type: "string" },
  "driver-timeout": { type: "string" },
} as const;

/** Every model's own flags, parsed whatever the model, so that another model's is refused by name. */
const MODEL_OPTIONS = Object.fromEntries(
  EXPLORABLE_MODELS.flatMap((model) =>
    model.explore.flags.map(({ name }) => [name, { type: "string" }]),
  ),
) as Record<string, { readonly type: "string" }>;

/** The shared flags of an exploration of the model itself, which a --driver run does not take. */
const EXPLORATION_ONLY_FLAGS = ["faults", "mutants"] as const;
/** The shared flags of a --driver run, which an exploration of the model itself does not take. */
const DRIVER_ONLY_FLAGS = ["driver-timeout"] as const;

type FlagValues = Readonly<Record<string, string | boolean | undefined>>;

async function runExplore(args: readonly string[], output: CliOutput): Promise<number> {
  const { rest, faultBound } = takeFaultBound(args);
  const parsed = parseCommand(exploreCommand, rest, output, {
    ...SHARED_OPTIONS,
    ...MODEL_OPTIONS,
  });
  if (parsed === null) return ExitCode.conformant;
  const values: FlagValues = parsed.values;
  if (parsed.positionals.length > 0) {
    const found = parsed.positionals.join(" ");
    throw new UsageError(`explore takes no journal, found ${found}`, "explore");
  }
  const name = oneOf(
    "explore",
    "--model",
    stringOf(values.model) ?? DEFAULT_MODEL,
    EXPLORABLE_MODELS.map((explorable) => explorable.name),
  );
  const model = EXPLORABLE_MODELS.find((explorable) => explorable.name === name) as ExplorableModel;
  const format = oneOf("explore", "--format", stringOf(values.format) ?? "text", [
    "text",
    "json",
  ] as const);
  refuseOtherModelsFlags(values, model);
  const depthGiven = stringOf(values.depth);
  const depthDefault =
    typeof values.driver === "string" ? model.explore.driver.depth : model.explore.depth;
  const depth =
    depthGiven === undefined ? depthDefault : integerFlag("explore", "--depth", depthGiven, 0);
  const outFolder = stringOf(values.out);
  const out = outFolder === undefined ? null : new CounterexampleFolder(outFolder);
  const driver = driverOf(values, model, faultBound);
  const flags = flagsOf(values, faultBound);
  const explorer = await model.explore.explorer();
  if (driver !== null) {
    return refineThroughDriver({ format, output, out }, driver, explorer.refinement(flags, depth));
  }
  const run: ExploreRun = {
    depth,
    format,
    output,
    out,
    faults: values.faults === true,
    mutants: values.mutants === true,
    progress: progressLine(output),
  };
  return finishExploration(run, await explorer.explore(flags, run));
}

function stringOf(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A flag only another model declares is an error naming that model. */
function refuseOtherModelsFlags(values: FlagValues, model: ExplorableModel): void {
  const own = new Set(model.explore.flags.map(({ name }) => name));
  for (const owner of EXPLORABLE_MODELS) {
    const foreign = owner.explore.flags.find(
      ({ name }) => !own.has(name) && values[name] !== undefined,
    );
    if (foreign !== undefined) {
      throw new UsageError(
        `--${foreign.name} is a flag of the ${owner.name} model, not of ${model.name}`,
        "explore",
      );
    }
  }
}

/** The model's own flags that go with one kind of run only. */
function ownFlagsOnly(model: ExplorableModel, goesWith: "exploration" | "driver"): string[] {
  return model.explore.flags.filter((flag) => flag.goesWith === goesWith).map(({ name }) => name);
}

/**
 * `--faults N`, the faults of a --driver run's schedules, out of the arguments: the same word
 * without a number asks an exploration of the model to inject faults into its journals.
 */
function takeFaultBound(args: readonly string[]): { rest: string[]; faultBound?: string } {
  const rest: string[] = [];
  let faultBound: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const given = /^--faults=(.*)$/.exec(arg)?.[1];
    if (given !== undefined) {
      faultBound = given;
    } else if (arg === "--faults" && /^-?\d/.test(args[i + 1] ?? "")) {
      faultBound = args[++i];
    } else {
      rest.push(arg);
    }
  }
  return faultBound === undefined ? { rest } : { rest, faultBound };
}

/** The driver a run checks, or null to explore the model itself; flags of the other kind refused. */
function driverOf(
  values: FlagValues,
  model: ExplorableModel,
  faultBound: string | undefined,
): DriverCommand | null {
  const command = values.driver;
  if (typeof command !== "string") {
    const driverOnly = [...DRIVER_ONLY_FLAGS, ...ownFlagsOnly(model, "driver")];
    const foreign = driverOnly.find((flag) => values[flag] !== undefined);
    if (foreign !== undefined) {
      throw new UsageError(`--${foreign} goes with --driver`, "explore");
    }
    if (faultBound !== undefined) {
      throw new UsageError(
        `--faults ${faultBound}: a number of faults goes with --driver; to inject faults into the explored journals, give --faults alone`,
        "explore",
      );
    }
    return null;
  }
  const explorationOnly = [...EXPLORATION_ONLY_FLAGS, ...ownFlagsOnly(model, "exploration")];
  const foreign = explorationOnly.find((flag) => values[flag] !== undefined);
  if (foreign !== undefined) {
    const faults =
      foreign === "faults" ? " (with --driver, --faults N bounds the faults of each schedule)" : "";
    throw new UsageError(
      `--${foreign} explores the model itself, not a --driver${faults}`,
      "explore",
    );
  }
  if (faultBound !== undefined && model.explore.driver.faultBound === undefined) {
    throw new UsageError(`--faults N bounds the faults of ${faultBoundOwners()}`, "explore");
  }
  const timeout = values["driver-timeout"];
  const timeoutMs =
    typeof timeout === "string"
      ? integerFlag("explore", "--driver-timeout", timeout, 1)
      : DRIVER_TIMEOUT_MS;
  return { command, timeoutMs };
}

/** The runtimes whose schedules have faults, and the models they are checked against. */
function faultBoundOwners(): string {
  return EXPLORABLE_MODELS.flatMap(({ name, explore }) =>
    explore.driver.faultBound === undefined
      ? []
      : [`${explore.driver.faultBound.runtime} (--model ${name})`],
  ).join(" or ");
}

/** The run's flags as a model's explorer reads them; `faults` is a --driver run's `--faults N`. */
function flagsOf(values: FlagValues, faultBound: string | undefined): ExploreFlags {
  const text = (name: string) => (name === "faults" ? faultBound : stringOf(values[name]));
  return {
    text,
    integer: (name, fallback, min) => {
      const value = text(name);
      return value === undefined ? fallback : integerFlag("explore", `--${name}`, value, min);
    },
    refuse: (message) => {
      throw new UsageError(message, "explore");
    },
  };
}
