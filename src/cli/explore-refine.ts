/**
 * `statefold explore --driver CMD` for every model (docs/explore.md, "Refinement"): one way to
 * start the driver, report its failures (exit 2, never a verdict), print a run — its
 * configuration and bound, what was driven, the finding, and one verdict line last — write the
 * evidence and `--out`'s files, and give the exit code. What is driven and how it is said is the
 * model's (src/explore/<model>/explorer.ts).
 */
import { Driver, DriverError } from "../explore/driver.js";
import type { DriverShown } from "../explore/explored.js";
import type { DriverCheck } from "../explore/facet.js";
import { type CliOutput, ExitCode } from "./command.js";
import type { CounterexampleFolder } from "./explore-output.js";

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

/** Starts the driver, runs the model's check through it, and prints what it shows. */
export async function refineThroughDriver(
  run: DriverRun,
  driver: DriverCommand,
  check: DriverCheck,
): Promise<number> {
  const shown = await withDriver(driver, run.output, (started) => check(started, driver.command));
  return shown === null ? ExitCode.badInput : finish(run, shown);
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

function finish(run: DriverRun, shown: DriverShown): number {
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
