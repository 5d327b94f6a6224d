/**
 * `statefold explore` (docs/explore.md): bounded exhaustive exploration of a model. It prints
 * the exact configuration and bound, what was explored — states, distinct states, transitions,
 * the depth reached, distinct states per second — and each finding with the journal that led
 * to it; `--format json` writes the same as evidence. Exit 0 with no finding, 1 with one.
 */
import { loadEngine } from "../../bindings/index.js";
import { dagsUpTo } from "../explore/dag/dags.js";
import {
  checkRestarts,
  emptySensitivity,
  FAULT_CLASSES,
  injectFaults,
  type Sensitivity,
} from "../explore/dag/faults.js";
import { type Refinement, refine } from "../explore/dag/refine.js";
import { type DagConfiguration, dagSubject, shapeOf } from "../explore/dag/subject.js";
import { Driver, DriverError } from "../explore/driver.js";
import { type Exploration, explore } from "../explore/explore.js";
import { readDagFile } from "../journal/index.js";
import type { Dag } from "../models/dag/dag.js";
import { loggedEvents, type ModelState } from "../models/dag/state.js";
import { MODEL_NAMES } from "../models/registry.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { integerFlag } from "./number-flags.js";
import { wantsProgress } from "./progress-bar.js";

const DEFAULTS = { nodes: 3, depth: 6, paths: 1 } as const;
/** How long a driver may take to answer one request. */
const DRIVER_TIMEOUT_MS = 10_000;

const HELP = `Usage: statefold explore [--model dag] [--nodes N | --dag FILE] [--paths P] [--depth D]
                         [--faults] [--driver CMD [--driver-timeout MS]] [--format text|json]

Explores the model exhaustively up to a bound: from every initial state, every sequence of the
model's public actions up to --depth, breadth first, each state met once (states are told apart
by all the rules can still see of them). Every step must log a legal event and keep every
invariant, and the journal of every distinct state must be strictly conformant and get the
same report from the WebAssembly engine as from the reference. A bound is not a proof: what
lies past it is not explored.

The dag model: every DAG of 1 to --nodes nodes, up to isomorphism (or the one DAG of --dag),
all nodes queued; the eight transitions with every argument — gate results pass, fail and
timeout, discharge results pass and fail, every set of the --paths surface paths p0, p1, … to
widen by.

Options:
  --model NAME      the model to explore: dag (the default)
  --nodes N         DAGs of 1 to N nodes (default ${DEFAULTS.nodes})
  --dag FILE        explore this DAG only (a JSON file of nodes, as for statefold audit)
  --paths P         surface paths to widen by (default ${DEFAULTS.paths})
  --depth D         the longest action sequence explored (default ${DEFAULTS.depth})
  --faults          also inject faults into every distinct state's journal — a record twice,
                    a record lost, two swapped, the final write torn — and print what the
                    audit caught, by which rules, and what it could not tell (masked); and
                    split every journal at every line by a snapshot and a resume, which must
                    give the whole audit's report
  --driver CMD      check a real runtime against the model instead: start CMD once, and for
                    every explored state and every action there (rejected ones included)
                    reset it, drive it there and through the action, over JSON lines on its
                    stdin and stdout (docs/explore.md, "Refinement"); it must journal the event
                    the model logs, or refuse where the model rejects, with the same reason. The
                    first divergence is shrunk and printed (exit 1); a driver that crashes,
                    hangs or prints garbage is an error (exit 2). Try it on
                    "node examples/drivers/driver.mjs" and its planted defect, "… --with-defect"
  --driver-timeout MS  the longest a driver may take to answer (default ${DRIVER_TIMEOUT_MS})
  --format FORMAT   text (default) or json: the evidence — configuration, bound, counts,
                    findings with their journals, the fault matrix
  -h, --help        show this help

Exit status: 0 nothing found, 1 a finding, 2 bad usage or unreadable input.
`;

export const exploreCommand: Command = {
  name: "explore",
  summary: "explore a model exhaustively up to a bound: every step legal, every invariant kept",
  help: HELP,
  run: runExplore,
};

async function runExplore(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(exploreCommand, args, output, {
    model: { type: "string" },
    nodes: { type: "string" },
    dag: { type: "string" },
    paths: { type: "string" },
    depth: { type: "string" },
    format: { type: "string" },
    faults: { type: "boolean" },
    driver: { type: "string" },
    "driver-timeout": { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  if (positionals.length > 0) {
    throw new UsageError(`explore takes no journal, found ${positionals.join(" ")}`, "explore");
  }
  const model = oneOf("explore", "--model", values.model ?? "dag", MODEL_NAMES);
  if (model !== "dag") {
    throw new UsageError(`explore runs the dag model so far, not ${model}`, "explore");
  }
  const format = oneOf("explore", "--format", values.format ?? "text", ["text", "json"] as const);
  if (values.dag !== undefined && values.nodes !== undefined) {
    throw new UsageError("--nodes and --dag each say which DAGs to explore: give one", "explore");
  }
  const number = (flag: "nodes" | "paths" | "depth", min: number) => {
    const value = values[flag];
    return value === undefined ? DEFAULTS[flag] : integerFlag("explore", `--${flag}`, value, min);
  };
  const nodes = number("nodes", 1);
  const paths = number("paths", 0);
  const depth = number("depth", 0);
  if (nodes > 4) throw new UsageError("--nodes must be at most 4: 5 has 302 DAGs", "explore");
  if (paths > 4) throw new UsageError("--paths must be at most 4", "explore");
  const dag = values.dag === undefined ? undefined : readDagFile(values.dag);
  if (values.driver !== undefined) {
    const timeoutMs =
      values["driver-timeout"] === undefined
        ? DRIVER_TIMEOUT_MS
        : integerFlag("explore", "--driver-timeout", values["driver-timeout"], 1);
    return refineThroughDriver(
      values.driver,
      timeoutMs,
      { nodes, paths, dag },
      depth,
      format,
      output,
    );
  }
  const wasm = await loadEngine();
  // A progress line as audit draws its bar: a person at a terminal only (never in CI, with NO_COLOR).
  const progress = wantsProgress(output.stderrTerminal !== undefined, process.env, false)
    ? output.stderrTerminal
    : undefined;
  let drawn = 0;
  const onProgress = (distinct: number) => {
    const now = performance.now();
    if (progress === undefined || now - drawn < 100) return;
    drawn = now;
    progress.write(`\r\u001b[Kexploring: ${count(distinct)} distinct states`);
  };
  const journals: { dag: Dag; events: readonly unknown[] }[] = [];
  const onDistinct = values.faults
    ? (state: ModelState) => journals.push({ dag: state.dag, events: loggedEvents(state) })
    : undefined;
  const result = explore(dagSubject({ nodes, paths, dag }, wasm), depth, {
    onProgress,
    onDistinct,
  });
  let sensitivity: Sensitivity | null = null;
  if (values.faults) {
    sensitivity = emptySensitivity();
    for (const journal of journals) {
      injectFaults(sensitivity, journal.dag, journal.events);
      await checkRestarts(sensitivity, wasm, journal.dag, journal.events);
    }
  }
  progress?.write("\r\u001b[K");
  const configuration = {
    model,
    dags:
      dag === undefined
        ? { nodes: `1 to ${nodes}`, count: dagsUpTo(nodes).length }
        : { file: values.dag, shape: shapeOf(dag) },
    paths,
  };
  if (format === "json") {
    const shown = { ...evidence(configuration, depth, result), sensitivity };
    output.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } else {
    output.stdout(text(configuration, depth, result));
    if (sensitivity !== null) output.stdout(sensitivityText(sensitivity));
  }
  const restartsDiffer = (sensitivity?.restarts.differing ?? 0) > 0;
  return result.findings.length === 0 && !restartsDiffer
    ? ExitCode.conformant
    : ExitCode.notConformant;
}

function evidence(configuration: object, depth: number, result: Exploration<ModelState>) {
  return {
    configuration,
    bound: { depth },
    initialStates: result.initialStates,
    states: result.states,
    distinctStates: result.distinctStates,
    transitions: result.transitions,
    depthReached: result.depthReached,
    seconds: result.seconds,
    distinctStatesPerSecond: Math.round(result.distinctStates / result.seconds),
    findings: result.findings.map((finding) => ({
      dag: finding.from,
      rule: finding.rule,
      journal: loggedEvents(finding.state),
    })),
  };
}

function text(
  configuration: { dags: object; paths: number },
  depth: number,
  result: Exploration<ModelState>,
): string {
  const dags =
    "file" in configuration.dags
      ? `the DAG of ${(configuration.dags as { file: string }).file}`
      : `every DAG of ${(configuration.dags as { nodes: string }).nodes} nodes (${(configuration.dags as { count: number }).count}, up to isomorphism)`;
  const lines = [
    `statefold explore --model dag: ${dags}, surfaces from ${configuration.paths} path${configuration.paths === 1 ? "" : "s"}, depth ${depth}`,
    `  ${count(result.initialStates)} initial states, ${count(result.states)} states, ${count(result.distinctStates)} distinct, ${count(result.transitions)} transitions, depth reached ${result.depthReached}`,
    `  ${count(Math.round(result.distinctStates / result.seconds))} distinct states/s (${result.seconds.toFixed(1)} s); every distinct state's journal audited by both engines`,
  ];
  if (result.findings.length === 0) {
    lines.push(
      "✓ nothing found: every step legal, every invariant kept, every journal strictly conformant, both engines agreed",
    );
  }
  for (const finding of result.findings) {
    lines.push(`✗ ${finding.rule} (DAG ${finding.from}), after:`);
    for (const event of loggedEvents(finding.state)) lines.push(`    ${JSON.stringify(event)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Drives the runtime through every explored state and action; exit 1 on a divergence, 2 when the driver fails. */
async function refineThroughDriver(
  command: string,
  timeoutMs: number,
  configuration: DagConfiguration,
  depth: number,
  format: "text" | "json",
  output: CliOutput,
): Promise<number> {
  const driver = Driver.start(command, timeoutMs);
  let refinement: Refinement;
  try {
    refinement = await refine(configuration, depth, driver);
  } catch (error) {
    if (!(error instanceof DriverError)) throw error;
    output.stderr(`statefold: ${error.message}\n`);
    return ExitCode.badInput;
  } finally {
    driver.close();
  }
  const { sequences, actionsDriven, divergence } = refinement;
  if (format === "json") {
    output.stdout(
      `${JSON.stringify({ driver: command, bound: { depth }, ...refinement }, null, 2)}\n`,
    );
  } else {
    const lines = [
      `statefold explore --driver ${command}: depth ${depth}, ${count(sequences)} action sequences, ${count(actionsDriven)} actions driven`,
    ];
    if (divergence === null) {
      lines.push(
        "✓ the runtime journaled what the model logs and refused what it rejects, everywhere",
      );
    } else {
      lines.push(
        `✗ the runtime diverges from the model (DAG ${divergence.dag}): ${divergence.why}`,
      );
      lines.push("  the shortest actions that show it:");
      for (const action of divergence.actions) lines.push(`    ${JSON.stringify(action)}`);
      lines.push(`  the model: ${JSON.stringify(divergence.expected)}`);
      lines.push(`  the runtime: ${JSON.stringify(divergence.got)}`);
    }
    output.stdout(`${lines.join("\n")}\n`);
  }
  return divergence === null ? ExitCode.conformant : ExitCode.notConformant;
}

/** The sensitivity matrix: per fault class, mutants made, caught (by which rules) and masked. */
function sensitivityText(sensitivity: Sensitivity): string {
  const lines = ["Faults, each injected at every place in every distinct state's journal:"];
  for (const fault of FAULT_CLASSES) {
    const tally = sensitivity.faults[fault];
    const rules = Object.entries(tally.byRule)
      .sort(([, a], [, b]) => b - a)
      .map(([rule, n]) => `${rule} ${count(n)}`)
      .join(", ");
    lines.push(
      `  ${fault.padEnd(11)} ${count(tally.made)} made, ${count(tally.caught)} caught${rules === "" ? "" : ` (${rules})`}, ${count(tally.masked)} masked`,
    );
    if (tally.smallestMasked !== null) {
      lines.push(`              smallest masked: ${JSON.stringify(tally.smallestMasked)}`);
    }
  }
  const { checked, differing, firstDiffering } = sensitivity.restarts;
  lines.push(
    differing === 0
      ? `  restart     ${count(checked)} splits by snapshot and resume, every one the whole audit's report`
      : `✗ restart     ${count(differing)} of ${count(checked)} splits gave another report than the whole audit, first on ${JSON.stringify(firstDiffering)}`,
  );
  return `${lines.join("\n")}\n`;
}

/** A whole number with its thousands grouped: 44,857. */
function count(value: number): string {
  return value.toLocaleString("en-US");
}
