/**
 * `statefold explore` (docs/explore.md): bounded exhaustive exploration of a model. It prints
 * the exact configuration and bound, what was explored — states, distinct states, transitions,
 * the depth reached, distinct states per second — and each finding with the journal that led
 * to it; `--format json` writes the same as evidence. Exit 0 with no finding, 1 with one.
 */
import { loadEngine } from "../../bindings/index.js";
import { refine } from "../explore/dag/refine.js";
import { DAG_DEFAULTS } from "../explore/dag/subject.js";
import { EXECUTIVE_HOST_DEPTH, refineExecutive } from "../explore/executive/refine.js";
import { EXECUTIVE_DEFAULTS, runOf } from "../explore/executive/subject.js";
import {
  EFFECT_RUNTIME_DEFAULTS,
  type EffectRuntimeConfiguration,
  refineEffectRuntime,
} from "../explore/operations/refine.js";
import { OPERATIONS_DEFAULTS } from "../explore/operations/subject.js";
import { readDagFile, readExecutiveRunFiles } from "../journal/index.js";
import { MODEL_NAMES } from "../models/registry.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { exploreDag } from "./explore-dag.js";
import { exploreExecutive } from "./explore-executive.js";
import { exploreOperations, readPolicyFile } from "./explore-operations.js";
import { CounterexampleFolder, type ExploreRun, progressLine } from "./explore-output.js";
import {
  type DriverCommand,
  refineDagRuntime,
  refineExecutiveHost,
  refineOperationsRuntime,
} from "./explore-refine.js";
import { integerFlag } from "./number-flags.js";

/** How long a driver may take to answer one request. */
const DRIVER_TIMEOUT_MS = 10_000;

const HELP = `Usage: statefold explore [--model dag] [--nodes N | --dag FILE] [--paths P] [--depth D]
                         [--faults] [--mutants] [--driver CMD [--driver-timeout MS]]
                         [--out DIR] [--format text|json]
       statefold explore --model operations [--strands S] [--ops O] [--keys K] [--attempts A]
                         [--leases E] [--policy FILE] [--depth D] [--faults] [--mutants]
                         [--out DIR] [--format text|json]
       statefold explore --model executive [--spec FILE --budget FILE] [--depth D] [--faults]
                         [--mutants] [--out DIR] [--format text|json]
       statefold explore --model operations --driver CMD [--strands S] [--ops O] [--keys K]
                         [--faults N] [--depth D] [--progress-bound B] [--policy FILE]
                         [--driver-timeout MS] [--out DIR] [--format text|json]
       statefold explore --model executive --driver CMD [--spec FILE --budget FILE] [--depth D]
                         [--driver-timeout MS] [--out DIR] [--format text|json]

Explores the model exhaustively up to a bound: from every initial state, every sequence of the
model's public actions up to --depth, breadth first, each state met once (states are told apart
by all the rules can still see of them). Every step must log a legal event and keep every
invariant, and the journal of every distinct state must be strictly conformant and get the
same report from the WebAssembly engine as from the reference. Each rule found broken is
shown by the first journal that broke it, shrunk: records removed while the same rule still
fails first at the same kind of record. A bound is not a proof: what lies past it is not
explored.

The dag model: every DAG of 1 to --nodes nodes, up to isomorphism (or the one DAG of --dag),
all nodes queued; the eight transitions with every argument — gate results pass, fail and
timeout, discharge results pass and fail, every set of the --paths surface paths p0, p1, … to
widen by.

The operations model: a runtime's commits on S strands, O ops (accepted in order) of K steps —
accept, an intent for each step (a retry just before its notBefore and at it), each settlement
(ok, an error final or retryable with and without the provider's hint, unknown), each readback
of an unknown effect, cancel, each finish, a lease — written as a faithful runtime writes them;
a record the rules refuse is no step. Time moves only when a retry waits for its notBefore.

The executive model: from the ready state of a spec and budget (a small built-in one that
reaches a sub-plan, retries, checkpoints and every way to fail), every observation — start; a
result of the outstanding execute (ok with no output, ok with one byte more than the budget
has left, a retryable error, a final error) and one of a consumed decision; checkpointed;
tick; cancel — at the clock, 1 ms before it and at the frame's deadline. Each line is the
observation and the machine's decision, a reject included.

Options:
  --model NAME      the model to explore: dag (the default), operations or executive
  --nodes N         DAGs of 1 to N nodes (default ${DAG_DEFAULTS.nodes})
  --dag FILE        explore this DAG only (a JSON file of nodes, as for statefold audit)
  --paths P         surface paths to widen by (default ${DAG_DEFAULTS.paths})
  --depth D         the longest action sequence explored (default ${DAG_DEFAULTS.depth}; ${OPERATIONS_DEFAULTS.depth} for operations,
                    ${EXECUTIVE_DEFAULTS.depth} for executive)
  --strands S, --ops O, --keys K   (operations) strands, ops and steps per op (defaults
                    ${OPERATIONS_DEFAULTS.strands}, ${OPERATIONS_DEFAULTS.ops}, ${OPERATIONS_DEFAULTS.keys})
  --attempts A      (operations) the highest attempt an intent is made with (default ${OPERATIONS_DEFAULTS.attempts})
  --leases E        (operations) leases taken at most, over all strands (default ${OPERATIONS_DEFAULTS.leases})
  --policy FILE     (operations) every op's retry policy, a JSON file {"maxAttempts",
                    "baseDelayMs", "maxDelayMs"} (default ${JSON.stringify(OPERATIONS_DEFAULTS.policy)})
  --spec FILE, --budget FILE   (executive) the spec and budget to explore, as JSON files
  --faults          also inject faults into every distinct state's journal — a record twice,
                    a record lost, two swapped, the final write torn — and print what the
                    audit caught, by which rules, and what it could not tell (masked); and
                    split every journal at every line by a snapshot and a resume, which must
                    give the whole audit's report; for operations also a lost response
                    (with and without its readback), a stale owner after a lease, and a
                    conflicting retry
  --mutants         also explore, to the same bound, each of the model's deliberate mutants —
                    a one-line change of the reference's meaning (a gate timeout counted as a
                    pass, a dispatch that does not check dependencies, …) — beside the
                    reference, until a journal gets another report or final state from it; each
                    killed mutant is shown with that journal, shrunk; a survivor is a finding
                    (the bound or the rules are too weak to see it)
  --driver CMD      check a real runtime against the model instead: start CMD once, and for
                    every explored state and every action there (rejected ones included)
                    reset it, drive it there and through the action, over JSON lines on its
                    stdin and stdout (docs/explore.md, "Refinement"); it must journal the event
                    the model logs, or refuse where the model rejects, with the same reason. The
                    first divergence is shrunk and printed (exit 1); a driver that crashes,
                    hangs or prints garbage is an error (exit 2). Try it on
                    "node examples/drivers/driver.mjs" and its planted defect, "… --with-defect"
  --driver CMD      (operations) check an effect runtime: statefold plays the world around it —
                    clients that submit and cancel, providers that answer ok, a final error, a
                    retryable one with and without a hint, or lose the answer (executed or not),
                    the clock, lease takeovers and crashes — on every schedule up to --depth
                    events (default ${EFFECT_RUNTIME_DEFAULTS.depth}), and checks in order: its journal strictly conformant,
                    the providers' ledger (commit before act, no step executed twice, settlements
                    and readbacks that tell the truth), and progress (docs/explore.md,
                    "Refinement of an effect runtime"). Try
                    "node examples/drivers/effect-driver.mjs" and its planted defects,
                    "… --defect NAME"
  --driver CMD      (executive) check a host of the machine: every observation explore makes and
                    a restart (snapshot, drop, restore), to --depth (default ${EXECUTIVE_HOST_DEPTH}); its decisions
                    must be the machine's. Try "node examples/drivers/executive-driver.mjs"
  --faults N        (operations --driver) lost answers, crashes and takeovers in one schedule,
                    counted together (default ${EFFECT_RUNTIME_DEFAULTS.faults})
  --progress-bound B  (operations --driver) the most events the benign schedule may take to
                    finish every op (default ${EFFECT_RUNTIME_DEFAULTS.progressBound})
  --driver-timeout MS  the longest a driver may take to answer (default ${DRIVER_TIMEOUT_MS})
  --out DIR         write each counterexample as a journal file in DIR (made if missing; a
                    file already there is never written over): finding-N-RULE.jsonl,
                    mutant-NAME.jsonl — each one \`statefold audit\` reads — and, for a driver,
                    divergence-actions.jsonl, the actions that show the divergence; for an
                    effect runtime, finding-1-WHAT.jsonl, its journal, and
                    finding-1-WHAT-schedule.jsonl, the events that show the finding
  --format FORMAT   text (default) or json: the evidence — configuration, bound, counts,
                    findings with their shrunk journals, the fault matrix, the mutants
  -h, --help        show this help

Exit status: 0 nothing found, 1 a finding, 2 bad usage, unreadable input or a driver's failure.
`;

export const exploreCommand: Command = {
  name: "explore",
  help: HELP,
  run: runExplore,
};

async function runExplore(args: readonly string[], output: CliOutput): Promise<number> {
  const { rest, faultBound } = takeFaultBound(args);
  const parsed = parseCommand(exploreCommand, rest, output, {
    model: { type: "string" },
    nodes: { type: "string" },
    dag: { type: "string" },
    paths: { type: "string" },
    depth: { type: "string" },
    format: { type: "string" },
    faults: { type: "boolean" },
    mutants: { type: "boolean" },
    out: { type: "string" },
    driver: { type: "string" },
    "driver-timeout": { type: "string" },
    "progress-bound": { type: "string" },
    strands: { type: "string" },
    ops: { type: "string" },
    keys: { type: "string" },
    attempts: { type: "string" },
    leases: { type: "string" },
    policy: { type: "string" },
    spec: { type: "string" },
    budget: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  if (positionals.length > 0) {
    throw new UsageError(`explore takes no journal, found ${positionals.join(" ")}`, "explore");
  }
  const model = oneOf("explore", "--model", values.model ?? "dag", MODEL_NAMES);
  const format = oneOf("explore", "--format", values.format ?? "text", ["text", "json"] as const);
  for (const [owner, flags] of Object.entries(MODEL_FLAGS)) {
    const foreign = owner === model ? undefined : flags.find((flag) => values[flag] !== undefined);
    if (foreign !== undefined) {
      throw new UsageError(
        `--${foreign} is a flag of the ${owner} model, not of ${model}`,
        "explore",
      );
    }
  }
  const defaults = {
    dag: DAG_DEFAULTS,
    operations: OPERATIONS_DEFAULTS,
    executive: EXECUTIVE_DEFAULTS,
  }[model];
  const depth =
    values.depth === undefined
      ? defaults.depth
      : integerFlag("explore", "--depth", values.depth, 0);
  const out = values.out === undefined ? null : new CounterexampleFolder(values.out);
  const run: ExploreRun = {
    depth,
    format,
    output,
    out,
    faults: values.faults === true,
    mutants: values.mutants === true,
    progress: progressLine(output),
  };
  const driver = driverOf(values, model, faultBound);
  if (model === "executive") {
    if ((values.spec === undefined) !== (values.budget === undefined)) {
      throw new UsageError("--spec and --budget go together: give both, or neither", "explore");
    }
    const files = { spec: values.spec, budget: values.budget };
    const executive =
      values.spec === undefined || values.budget === undefined
        ? runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget)
        : readExecutiveRunFiles(values.spec, values.budget);
    if (driver !== null) {
      const configuration = {
        text: `the spec ${files.spec ?? "built in"} under the budget ${files.budget ?? "built in"}`,
        evidence: {
          spec: files.spec ?? "the built-in spec",
          budget: files.budget ?? "the built-in budget",
        },
      };
      const hostDepth =
        values.depth === undefined
          ? EXECUTIVE_HOST_DEPTH
          : integerFlag("explore", "--depth", values.depth, 0);
      return refineExecutiveHost(run, driver, configuration, hostDepth, (started) =>
        refineExecutive(executive, hostDepth, started),
      );
    }
    return exploreExecutive(run, executive, files, await loadEngine({ model: "executive" }));
  }
  if (model === "operations") {
    const number = (flag: "strands" | "ops" | "keys" | "attempts" | "leases", min: number) => {
      const value = values[flag];
      return value === undefined
        ? OPERATIONS_DEFAULTS[flag]
        : integerFlag("explore", `--${flag}`, value, min);
    };
    if (driver !== null) {
      const configuration: EffectRuntimeConfiguration = {
        strands: number("strands", 1),
        ops: number("ops", 1),
        keys: number("keys", 1),
        faults:
          faultBound === undefined
            ? EFFECT_RUNTIME_DEFAULTS.faults
            : integerFlag("explore", "--faults", faultBound, 0),
        progressBound:
          values["progress-bound"] === undefined
            ? EFFECT_RUNTIME_DEFAULTS.progressBound
            : integerFlag("explore", "--progress-bound", values["progress-bound"], 1),
        policy:
          values.policy === undefined
            ? EFFECT_RUNTIME_DEFAULTS.policy
            : readPolicyFile(values.policy),
      };
      const driverDepth =
        values.depth === undefined
          ? EFFECT_RUNTIME_DEFAULTS.depth
          : integerFlag("explore", "--depth", values.depth, 0);
      const { faults, progressBound } = configuration;
      return refineOperationsRuntime(
        run,
        driver,
        effectRuntimeConfiguration(configuration),
        { depth: driverDepth, faults, progressBound },
        (started) => refineEffectRuntime(configuration, driverDepth, started),
      );
    }
    const configuration = {
      strands: number("strands", 1),
      ops: number("ops", 1),
      keys: number("keys", 1),
      attempts: number("attempts", 1),
      leases: number("leases", 0),
      policy:
        values.policy === undefined ? OPERATIONS_DEFAULTS.policy : readPolicyFile(values.policy),
    };
    return exploreOperations(run, configuration, await loadEngine({ model: "operations" }));
  }
  if (values.dag !== undefined && values.nodes !== undefined) {
    throw new UsageError("--nodes and --dag each say which DAGs to explore: give one", "explore");
  }
  const number = (flag: "nodes" | "paths", min: number) => {
    const value = values[flag];
    return value === undefined
      ? DAG_DEFAULTS[flag]
      : integerFlag("explore", `--${flag}`, value, min);
  };
  const nodes = number("nodes", 1);
  const paths = number("paths", 0);
  if (nodes > 4) throw new UsageError("--nodes must be at most 4: 5 has 302 DAGs", "explore");
  if (paths > 4) throw new UsageError("--paths must be at most 4", "explore");
  const dag = values.dag === undefined ? undefined : readDagFile(values.dag);
  if (driver !== null) {
    return refineDagRuntime(run, driver, depth, (started) =>
      refine({ nodes, paths, dag }, depth, started),
    );
  }
  return exploreDag(run, { nodes, paths, dag }, values.dag, await loadEngine());
}

/** Each model's own flags: one model's given with another is an error naming it. */
const MODEL_FLAGS = {
  dag: ["nodes", "dag", "paths"],
  operations: ["strands", "ops", "keys", "attempts", "leases", "policy", "progress-bound"],
  executive: ["spec", "budget"],
} as const;

/** The flags of an exploration of the model itself, which a --driver run does not take. */
const MODEL_ONLY_FLAGS = ["faults", "mutants", "attempts", "leases"] as const;
/** The flags of a --driver run, which an exploration of the model itself does not take. */
const DRIVER_ONLY_FLAGS = ["driver-timeout", "progress-bound"] as const;

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
  values: Readonly<Record<string, string | boolean | undefined>>,
  model: (typeof MODEL_NAMES)[number],
  faultBound: string | undefined,
): DriverCommand | null {
  const command = values.driver;
  if (typeof command !== "string") {
    const foreign = DRIVER_ONLY_FLAGS.find((flag) => values[flag] !== undefined);
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
  const foreign = MODEL_ONLY_FLAGS.find((flag) => values[flag] !== undefined);
  if (foreign !== undefined) {
    const faults =
      foreign === "faults" ? " (with --driver, --faults N bounds the faults of each schedule)" : "";
    throw new UsageError(
      `--${foreign} explores the model itself, not a --driver${faults}`,
      "explore",
    );
  }
  if (faultBound !== undefined && model !== "operations") {
    throw new UsageError(
      "--faults N bounds the faults of an effect runtime (--model operations)",
      "explore",
    );
  }
  const timeout = values["driver-timeout"];
  const timeoutMs =
    typeof timeout === "string"
      ? integerFlag("explore", "--driver-timeout", timeout, 1)
      : DRIVER_TIMEOUT_MS;
  return { command, timeoutMs };
}

/** An effect runtime's configuration as the evidence records it and the summary says it. */
function effectRuntimeConfiguration(configuration: EffectRuntimeConfiguration) {
  const { strands, ops, keys, policy } = configuration;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return {
    text: `${plural(strands, "strand")}, ${plural(ops, "op")} of ${plural(keys, "step")}, policy ${JSON.stringify(policy)}`,
    evidence: { strands, ops, keys, policy },
  };
}
