/**
 * `statefold explore --driver CMD` for every model (docs/explore.md, "Refinement"): one way to
 * start the driver, report its failures (exit 2, never a verdict), print a run — its
 * configuration and bound, what was driven, the finding, and one verdict line last — write the
 * evidence and `--out`'s files, and give the exit code.
 */
import type { Refinement } from "../explore/dag/refine.js";
import { Driver, DriverError } from "../explore/driver.js";
import type { ExecutiveRefinement } from "../explore/executive/refine.js";
import type { EffectRefinement } from "../explore/operations/refine.js";
import { operationsJournalBytes } from "../explore/operations/subject.js";
import { formatCount } from "../text/format-units.js";
import { type CliOutput, ExitCode } from "./command.js";
import { type CounterexampleFolder, slug } from "./explore-output.js";

/** The driver to start, and how long it may take to answer one request. */
export interface DriverCommand {
  readonly command: string;
  readonly timeoutMs: number;
}

/** What a driver run prints and writes, whatever the model. */
interface DriverRun {
  readonly format: "text" | "json";
  readonly output: CliOutput;
  readonly out: CounterexampleFolder | null;
}

/** Runs `check` with the driver started, or says how the driver failed (null). */
async function withDriver<T>(
  { command, timeoutMs }: DriverCommand,
  output: CliOutput,
  check: (driver: Driver) => Promise<T>,
): Promise<T | null> {
  const driver = Driver.start(command, timeoutMs);
  try {
    return await check(driver);
  } catch (error) {
    if (!(error instanceof DriverError)) throw error;
    output.stderr(`statefold: ${error.message}\n`);
    return null;
  } finally {
    driver.close();
  }
}

/** What one driver run shows: its text, its evidence, the files `--out` gets. */
interface Shown {
  readonly title: string;
  readonly counts: string;
  /** The finding's lines, or none. */
  readonly details: readonly string[];
  readonly verdict: string;
  readonly found: boolean;
  readonly evidence: unknown;
  readonly files: readonly { readonly name: string; readonly bytes: Uint8Array }[];
}

function finish(run: DriverRun, shown: Shown): number {
  const { format, output, out } = run;
  if (format === "json") {
    output.stdout(`${JSON.stringify(shown.evidence, null, 2)}\n`);
  } else {
    output.stdout(`${[shown.title, `  ${shown.counts}`, ...shown.details].join("\n")}\n`);
  }
  if (out !== null) {
    for (const { name, bytes } of shown.files) out.write(name, bytes);
    if (format === "text" && out.written.length > 0) {
      output.stdout(`Counterexample written to ${out.folder}: ${out.written.join(", ")}\n`);
    }
  }
  if (format === "text") output.stdout(`${shown.verdict}\n`);
  return shown.found ? ExitCode.notConformant : ExitCode.conformant;
}

const encoder = new TextEncoder();

function jsonLines(values: readonly unknown[]): Uint8Array {
  return encoder.encode(values.map((value) => `${JSON.stringify(value)}\n`).join(""));
}

/** Each value a numbered line, as explore prints a journal. */
function numbered(values: readonly unknown[], indent: string): string[] {
  const width = String(values.length).length;
  return values.map(
    (value, i) =>
      `${indent}${String(i + 1).padStart(width)}  ${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
}

/** A dag runtime or an executive host: the actions that show the divergence, and what each side did. */
function divergenceDetails(divergence: {
  readonly actions: readonly unknown[];
  readonly expected: unknown;
  readonly got: unknown;
}): string[] {
  return [
    "  the shortest actions that show it:",
    ...divergence.actions.map((action) => `    ${JSON.stringify(action)}`),
    `  the model: ${JSON.stringify(divergence.expected)}`,
    `  the runtime: ${JSON.stringify(divergence.got)}`,
  ];
}

export async function refineDagRuntime(
  run: DriverRun,
  driver: DriverCommand,
  depth: number,
  refine: (driver: Driver) => Promise<Refinement>,
): Promise<number> {
  const refinement = await withDriver(driver, run.output, refine);
  if (refinement === null) return ExitCode.badInput;
  const { sequences, actionsDriven, divergence } = refinement;
  return finish(run, {
    title: `statefold explore --driver ${driver.command}: depth ${depth}`,
    counts: `${formatCount(sequences)} action sequences, ${formatCount(actionsDriven)} actions driven`,
    details: divergence === null ? [] : divergenceDetails(divergence),
    verdict:
      divergence === null
        ? "✓ the runtime journaled what the model logs and refused what it rejects, everywhere"
        : `✗ the runtime diverges from the model (DAG ${divergence.dag}): ${divergence.why}`,
    found: divergence !== null,
    evidence: { driver: driver.command, bound: { depth }, ...refinement },
    files:
      divergence === null
        ? []
        : [{ name: "divergence-actions.jsonl", bytes: jsonLines(divergence.actions) }],
  });
}

export async function refineExecutiveHost(
  run: DriverRun,
  driver: DriverCommand,
  configuration: { readonly text: string; readonly evidence: Readonly<Record<string, unknown>> },
  depth: number,
  refine: (driver: Driver) => Promise<ExecutiveRefinement>,
): Promise<number> {
  const refinement = await withDriver(driver, run.output, refine);
  if (refinement === null) return ExitCode.badInput;
  const { sequences, actionsDriven, distinctStates, seconds, divergence } = refinement;
  return finish(run, {
    title: `statefold explore --model executive --driver ${driver.command}: ${configuration.text}, depth ${depth}`,
    counts: `${formatCount(sequences)} action sequences (every observation and a restart from ${formatCount(distinctStates)} distinct states), ${formatCount(actionsDriven)} actions driven (${seconds.toFixed(1)} s)`,
    details: divergence === null ? [] : divergenceDetails(divergence),
    verdict:
      divergence === null
        ? "✓ the host journaled the machine's decision everywhere, restarted or not, and its journal audited strictly conformant"
        : `✗ the host diverges from the machine: ${divergence.why}`,
    found: divergence !== null,
    evidence: {
      configuration: { model: "executive", driver: driver.command, ...configuration.evidence },
      bound: { depth },
      ...refinement,
    },
    files:
      divergence === null
        ? []
        : [{ name: "divergence-actions.jsonl", bytes: jsonLines(divergence.actions) }],
  });
}

export async function refineOperationsRuntime(
  run: DriverRun,
  driver: DriverCommand,
  configuration: { readonly text: string; readonly evidence: Readonly<Record<string, unknown>> },
  bound: { readonly depth: number; readonly faults: number; readonly progressBound: number },
  refine: (driver: Driver) => Promise<EffectRefinement>,
): Promise<number> {
  const refinement = await withDriver(driver, run.output, refine);
  if (refinement === null) return ExitCode.badInput;
  const { schedules, environmentEvents, distinctStates, depthReached, seconds, finding } =
    refinement;
  const name = finding === null ? "" : `finding-1-${slug(finding.what)}`;
  return finish(run, {
    title: `statefold explore --model operations --driver ${driver.command}: ${configuration.text}, depth ${bound.depth}, up to ${bound.faults} fault${bound.faults === 1 ? "" : "s"}, progress bound ${bound.progressBound}`,
    counts: `${formatCount(schedules)} schedules, ${formatCount(environmentEvents)} environment events driven, ${formatCount(distinctStates)} distinct states, depth reached ${depthReached} (${seconds.toFixed(1)} s)`,
    details:
      finding === null
        ? []
        : [
            `  ${finding.message}`,
            `  the schedule, shrunk to ${finding.schedule.length} event${finding.schedule.length === 1 ? "" : "s"}:`,
            ...numbered(finding.schedule, "    "),
            "  the runtime's journal:",
            ...numbered(finding.journal, "    "),
          ],
    verdict:
      finding === null
        ? "✓ nothing found: every journal strictly conformant, the ledger agreed with it, and the benign schedule finished every op from every state"
        : `✗ found ${finding.what}: the ${finding.check} check failed`,
    found: finding !== null,
    evidence: {
      configuration: { model: "operations", driver: driver.command, ...configuration.evidence },
      bound,
      schedules,
      environmentEvents,
      distinctStates,
      depthReached,
      seconds,
      findings: finding === null ? [] : [finding],
    },
    files:
      finding === null
        ? []
        : [
            { name: `${name}.jsonl`, bytes: operationsJournalBytes(finding.journal) },
            { name: `${name}-schedule.jsonl`, bytes: jsonLines(finding.schedule) },
          ],
  });
}
