/**
 * `statefold explore` (docs/explore.md): bounded exhaustive exploration of a model. It prints
 * the exact configuration and bound, what was explored — states, distinct states, transitions,
 * the depth reached, distinct states per second — and each finding with the journal that led
 * to it; `--format json` writes the same as evidence. Exit 0 with no finding, 1 with one.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadEngine } from "../../bindings/index.js";
import { ENGINES_DIFFER, rulesByRecord, shrinkFailure } from "../explore/dag/counterexample.js";
import { dagsUpTo } from "../explore/dag/dags.js";
import { checkRestarts, FAULT_CLASSES, injectFaults, journalBytes } from "../explore/dag/faults.js";
import { DAG_MUTANTS, huntMutant, type MutantVerdict } from "../explore/dag/mutants.js";
import { type Refinement, refine } from "../explore/dag/refine.js";
import {
  DAG_DEFAULTS,
  type DagConfiguration,
  dagSubject,
  shapeOf,
} from "../explore/dag/subject.js";
import { Driver, DriverError } from "../explore/driver.js";
import { explore } from "../explore/explore.js";
import { emptySensitivity, type Sensitivity } from "../explore/faults.js";
import { readDagFile } from "../journal/index.js";
import { audit } from "../models/dag/audit.js";
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
import {
  type Counterexample,
  count,
  type ExploredConfiguration,
  evidence,
  explorationText,
  mutantsEvidence,
  mutantsText,
  refinementText,
  sensitivityText,
} from "./explore-output.js";
import { integerFlag } from "./number-flags.js";
import { wantsProgress } from "./progress-bar.js";

/** How long a driver may take to answer one request. */
const DRIVER_TIMEOUT_MS = 10_000;

const HELP = `Usage: statefold explore [--model dag] [--nodes N | --dag FILE] [--paths P] [--depth D]
                         [--faults] [--mutants] [--driver CMD [--driver-timeout MS]]
                         [--out DIR] [--format text|json]

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

Options:
  --model NAME      the model to explore: dag (the default)
  --nodes N         DAGs of 1 to N nodes (default ${DAG_DEFAULTS.nodes})
  --dag FILE        explore this DAG only (a JSON file of nodes, as for statefold audit)
  --paths P         surface paths to widen by (default ${DAG_DEFAULTS.paths})
  --depth D         the longest action sequence explored (default ${DAG_DEFAULTS.depth})
  --faults          also inject faults into every distinct state's journal — a record twice,
                    a record lost, two swapped, the final write torn — and print what the
                    audit caught, by which rules, and what it could not tell (masked); and
                    split every journal at every line by a snapshot and a resume, which must
                    give the whole audit's report
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
  --driver-timeout MS  the longest a driver may take to answer (default ${DRIVER_TIMEOUT_MS})
  --out DIR         write each counterexample as a journal file in DIR (made if missing; a
                    file already there is never written over): finding-N-RULE.jsonl,
                    mutant-NAME.jsonl — each one \`statefold audit\` reads — and, for a driver,
                    divergence-actions.jsonl, the actions that show the divergence
  --format FORMAT   text (default) or json: the evidence — configuration, bound, counts,
                    findings with their shrunk journals, the fault matrix, the mutants
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
    mutants: { type: "boolean" },
    out: { type: "string" },
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
    return value === undefined
      ? DAG_DEFAULTS[flag]
      : integerFlag("explore", `--${flag}`, value, min);
  };
  const nodes = number("nodes", 1);
  const paths = number("paths", 0);
  const depth = number("depth", 0);
  if (nodes > 4) throw new UsageError("--nodes must be at most 4: 5 has 302 DAGs", "explore");
  if (paths > 4) throw new UsageError("--paths must be at most 4", "explore");
  const dag = values.dag === undefined ? undefined : readDagFile(values.dag);
  const out = values.out === undefined ? null : new CounterexampleFolder(values.out);
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
      out,
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
  const configuration: DagConfiguration = { nodes, paths, dag };
  const result = explore(dagSubject(configuration, wasm), depth, { onProgress, onDistinct });
  const counterexamples: Counterexample[] = [];
  for (const { rule, state, times } of result.findings) {
    const journal = await shrinkFailure(state.dag, loggedEvents(state), wasm);
    counterexamples.push({
      rule,
      dag: state.dag,
      times,
      journal,
      rules: rulesOf(state.dag, journal, rule),
    });
  }
  let sensitivity: Sensitivity<(typeof FAULT_CLASSES)[number]> | null = null;
  if (values.faults) {
    sensitivity = emptySensitivity(FAULT_CLASSES);
    for (const journal of journals) {
      injectFaults(sensitivity, journal.dag, journal.events);
      await checkRestarts(sensitivity, wasm, journal.dag, journal.events);
    }
  }
  const verdicts: MutantVerdict[] = [];
  if (values.mutants) {
    for (const mutant of DAG_MUTANTS) {
      progress?.write(`\r\u001b[Khunting mutant ${mutant.name}`);
      verdicts.push(await huntMutant(configuration, depth, mutant));
    }
  }
  progress?.write("\r\u001b[K");
  const explored: ExploredConfiguration = {
    model,
    dags:
      dag === undefined
        ? { nodes: `1 to ${nodes}`, count: dagsUpTo(nodes).length }
        : { file: values.dag as string, shape: shapeOf(dag) },
    paths,
  };
  if (format === "json") {
    const shown = {
      ...evidence(explored, depth, result, counterexamples),
      sensitivity,
      ...(values.mutants ? { mutants: mutantsEvidence(verdicts) } : {}),
    };
    output.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } else {
    output.stdout(explorationText(explored, depth, result, counterexamples));
    if (sensitivity !== null) output.stdout(sensitivityText(sensitivity));
    if (values.mutants) output.stdout(mutantsText(verdicts, depth));
  }
  if (out !== null) {
    for (const [i, { rule, dag, journal }] of counterexamples.entries()) {
      out.write(`finding-${i + 1}-${slug(rule)}.jsonl`, journalBytes(dag, journal));
    }
    for (const { mutant, kill } of verdicts) {
      if (kill !== null)
        out.write(`mutant-${mutant.name}.jsonl`, journalBytes(kill.dag, kill.journal));
    }
    if (format === "text" && out.written.length > 0) {
      output.stdout(`Counterexamples written to ${out.folder}: ${out.written.join(", ")}\n`);
    }
  }
  const restartsDiffer = (sensitivity?.restarts.differing ?? 0) > 0;
  const survivors = verdicts.some((verdict) => verdict.kill === null);
  return result.findings.length === 0 && !restartsDiffer && !survivors
    ? ExitCode.conformant
    : ExitCode.notConformant;
}

/** The rules each record of a counterexample breaks, an engine difference on its last. */
function rulesOf(dag: Dag, journal: readonly unknown[], rule: string): string[][] {
  const rules = rulesByRecord(audit(dag, journal), journal);
  if (rule === ENGINES_DIFFER) rules.at(-1)?.push(ENGINES_DIFFER);
  return rules;
}

/** A rule as a file name's part: `legality (wrong-status)` → `legality-wrong-status`. */
function slug(rule: string): string {
  return rule.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** Drives the runtime through every explored state and action; exit 1 on a divergence, 2 when the driver fails. */
async function refineThroughDriver(
  command: string,
  timeoutMs: number,
  configuration: DagConfiguration,
  depth: number,
  format: "text" | "json",
  output: CliOutput,
  out: CounterexampleFolder | null,
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
  const { divergence } = refinement;
  if (format === "json") {
    output.stdout(
      `${JSON.stringify({ driver: command, bound: { depth }, ...refinement }, null, 2)}\n`,
    );
  } else {
    output.stdout(refinementText(command, depth, refinement));
  }
  if (divergence !== null && out !== null) {
    const lines = divergence.actions.map((action) => JSON.stringify(action));
    out.write("divergence-actions.jsonl", new TextEncoder().encode(`${lines.join("\n")}\n`));
    if (format === "text") {
      output.stdout(`Counterexample written to ${out.folder}: ${out.written.join(", ")}\n`);
    }
  }
  return divergence === null ? ExitCode.conformant : ExitCode.notConformant;
}

/**
 * The folder of `--out`: made if missing; each counterexample a file of its own, never written
 * over one that is already there (what the user has is not lost).
 */
class CounterexampleFolder {
  readonly written: string[] = [];

  constructor(readonly folder: string) {
    if (existsSync(folder) && !statSync(folder).isDirectory()) {
      throw new UsageError(
        `--out ${folder} is a file: give a folder for the counterexamples`,
        "explore",
      );
    }
  }

  write(name: string, bytes: Uint8Array): void {
    mkdirSync(this.folder, { recursive: true });
    const path = join(this.folder, name);
    try {
      writeFileSync(path, bytes, { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      throw new UsageError(
        `${path} is already there: explore never writes over a file; give --out an empty folder`,
        "explore",
      );
    }
    this.written.push(name);
  }
}
