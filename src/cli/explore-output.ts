/**
 * What `statefold explore` prints (docs/explore.md, "Output"): the exploration's summary, each
 * finding as its shrunk journal with the rules each record breaks, the fault matrix, the
 * mutants — as text, and as the `--format json` evidence.
 */

import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Exploration } from "../explore/explore.js";
import {
  type Counterexample,
  type ExplorationRequest,
  type Explored,
  type ExploredConfiguration,
  type MutantShown,
  slug,
} from "../explore/explored.js";
import type { Sensitivity } from "../explore/faults.js";
import { formatCount, plural } from "../text/format-units.js";
import { type CliOutput, ExitCode, UsageError } from "./command.js";
import { wantsProgress } from "./progress-bar.js";

function evidence(
  configuration: ExploredConfiguration,
  depth: number,
  result: Exploration<unknown>,
  counterexamples: readonly Counterexample[],
) {
  return {
    configuration: configuration.evidence,
    bound: { depth },
    initialStates: result.initialStates,
    states: result.states,
    distinctStates: result.distinctStates,
    transitions: result.transitions,
    depthReached: result.depthReached,
    seconds: result.seconds,
    distinctStatesPerSecond: Math.round(result.distinctStates / result.seconds),
    findings: counterexamples.map(({ rule, from, times, journal, rules }) => ({
      rule,
      from,
      times,
      journal,
      rules,
    })),
  };
}

function mutantsEvidence(mutants: readonly MutantShown[]) {
  return {
    killed: mutants.filter((mutant) => mutant.kill !== null).length,
    total: mutants.length,
    mutants: mutants.map(({ name, description, distinctStates, unexercised, kill }) => ({
      name,
      description,
      killed: kill !== null,
      distinctStates,
      ...(kill === null && unexercised !== null ? { unexercised } : {}),
      ...(kill === null
        ? {}
        : {
            madeBy: kill.madeBy,
            from: kill.from,
            differs: kill.differs,
            journal: kill.journal,
            reference: kill.reference,
            mutant: kill.mutant,
          }),
    })),
  };
}

function explorationText(
  configuration: ExploredConfiguration,
  depth: number,
  result: Exploration<unknown>,
  counterexamples: readonly Counterexample[],
): string {
  const lines = [
    `statefold explore --model ${configuration.evidence.model}: ${configuration.text}, depth ${depth}`,
    `  ${plural(result.initialStates, "initial state")}, ${plural(result.states, "state")}, ${formatCount(result.distinctStates)} distinct, ${plural(result.transitions, "transition")}, depth reached ${result.depthReached}`,
    `  ${formatCount(Math.round(result.distinctStates / result.seconds))} distinct states/s (${result.seconds.toFixed(1)} s); every distinct state's journal audited by both engines`,
  ];
  for (const { rule, from, times, journal, rules } of counterexamples) {
    lines.push(
      `✗ ${rule} from ${from}, found ${plural(times, "time")}; shrunk to ${plural(journal.length, "record")}:`,
    );
    lines.push(...journalLines(journal, (i) => brokenText(rules[i] ?? [])));
  }
  return `${lines.join("\n")}\n`;
}

/** The sensitivity matrix: per fault class, mutants made, caught (by which rules) and masked. */
function sensitivityText(sensitivity: Sensitivity): string {
  const lines = ["Faults, each injected at every place in every distinct state's journal:"];
  const width = Math.max(...Object.keys(sensitivity.faults).map((fault) => fault.length)) + 1;
  for (const [fault, tally] of Object.entries(sensitivity.faults)) {
    const rules = Object.entries(tally.byRule)
      .sort(([, a], [, b]) => b - a)
      .map(([rule, n]) => `${rule} ${formatCount(n)}`)
      .join(", ");
    lines.push(
      `  ${fault.padEnd(width)} ${formatCount(tally.made)} made, ${formatCount(tally.caught)} caught${rules === "" ? "" : ` (${rules})`}, ${formatCount(tally.masked)} masked`,
    );
    if (tally.smallestMasked !== null) {
      lines.push(`  ${" ".repeat(width)} smallest masked: ${JSON.stringify(tally.smallestMasked)}`);
    }
  }
  const { checked, differing, firstDiffering } = sensitivity.restarts;
  lines.push(
    differing === 0
      ? `  ${"restart".padEnd(width)} ${formatCount(checked)} splits by snapshot and resume, every one the whole audit's report`
      : `✗ ${"restart".padEnd(width)} ${formatCount(differing)} of ${formatCount(checked)} splits gave another report than the whole audit, first on ${JSON.stringify(firstDiffering)}`,
  );
  return `${lines.join("\n")}\n`;
}

function mutantsText(mutants: readonly MutantShown[], depth: number): string {
  const killed = mutants.filter((mutant) => mutant.kill !== null).length;
  const lines = [
    `Mutants of the reference, each explored to depth ${depth} beside it: ${killed} of ${mutants.length} killed`,
  ];
  for (const { name, description, distinctStates, unexercised, kill } of mutants) {
    if (kill === null && unexercised !== null) {
      lines.push(
        `  – not exercised ${name}: ${description}`,
        `    ${unexercised}, so nothing it changes is ever reached: explore a configuration that has it`,
      );
      continue;
    }
    if (kill === null) {
      lines.push(
        `✗ survived ${name}: ${description}`,
        `    not told apart from the reference in ${formatCount(distinctStates)} pairs of states: the bound, or the rules, are too weak to see it`,
      );
      continue;
    }
    lines.push(
      `  ✓ killed ${name}: ${description}`,
      `    told apart by ${kill.differs}, on a journal of the ${kill.madeBy}'s actions from ${kill.from} (${plural(kill.journal.length, "record")}):`,
    );
    lines.push(
      ...journalLines(kill.journal, (i) => {
        const reference = kill.reference.rules[i] ?? [];
        const mutated = kill.mutant.rules[i] ?? [];
        if (reference.join() === mutated.join()) return "";
        return `the reference: ${reference.join(" · ") || "—"}; the mutant: ${mutated.join(" · ") || "—"}`;
      }),
    );
    for (const line of kill.then) lines.push(`      then ${line}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A journal, one numbered line per record, each followed by what `note` says of it. */
function journalLines(journal: readonly unknown[], note: (index: number) => string): string[] {
  const width = String(journal.length).length;
  return journal.map((record, i) => {
    const said = note(i);
    const line = `      ${String(i + 1).padStart(width)}  ${JSON.stringify(record)}`;
    return said === "" ? line : `${line}   ${said}`;
  });
}

function brokenText(rules: readonly string[]): string {
  return rules.length === 0 ? "" : `✗ ${rules.join(" · ")}`;
}

/** Prints the exploration (text or the JSON evidence), writes `--out`'s files, and gives the exit code. */
export function finishExploration(run: ExploreRun, explored: Explored): number {
  const { depth, format, output, out } = run;
  const { configuration, result, counterexamples, sensitivity, mutants } = explored;
  const restartsDiffering = sensitivity?.restarts.differing ?? 0;
  const survivors = (mutants ?? []).filter(
    (mutant) => mutant.kill === null && mutant.unexercised === null,
  );
  if (format === "json") {
    const shown = {
      ...evidence(configuration, depth, result, counterexamples),
      sensitivity,
      ...(mutants === null ? {} : { mutants: mutantsEvidence(mutants) }),
    };
    output.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } else {
    output.stdout(explorationText(configuration, depth, result, counterexamples));
    if (sensitivity !== null) output.stdout(sensitivityText(sensitivity));
    if (mutants !== null) output.stdout(mutantsText(mutants, depth));
  }
  if (out !== null) {
    for (const [i, { rule, file }] of counterexamples.entries())
      out.write(findingFile(i, rule), file);
    for (const { name, kill } of mutants ?? [])
      if (kill !== null) out.write(mutantFile(name), kill.file);
    if (format === "text" && out.written.length > 0) {
      output.stdout(`Counterexamples written to ${out.folder}: ${out.written.join(", ")}\n`);
    }
  }
  if (format === "text") {
    output.stdout(`${verdictLine(counterexamples, restartsDiffering, mutants, survivors)}\n`);
  }
  return result.findings.length === 0 && restartsDiffering === 0 && survivors.length === 0
    ? ExitCode.conformant
    : ExitCode.notConformant;
}

/**
 * The one line every run ends with: what was found — rules broken, restarts that changed a
 * report, mutants that survived — or that nothing was, and the mutants this configuration could
 * not exercise.
 */
function verdictLine(
  counterexamples: readonly Counterexample[],
  restartsDiffering: number,
  mutants: readonly MutantShown[] | null,
  survivors: readonly MutantShown[],
): string {
  const found: string[] = [];
  if (counterexamples.length > 0) {
    const rules = counterexamples.map(({ rule }) => rule).join(", ");
    found.push(
      `${counterexamples.length} rule${counterexamples.length === 1 ? "" : "s"} broken (${rules})`,
    );
  }
  if (restartsDiffering > 0) {
    found.push(`${plural(restartsDiffering, "restart")} that changed the report`);
  }
  if (survivors.length > 0) {
    const names = survivors.map(({ name }) => name).join(", ");
    found.push(`${survivors.length} of ${(mutants ?? []).length} mutants survived (${names})`);
  }
  const unexercised = (mutants ?? []).filter((m) => m.kill === null && m.unexercised !== null);
  const notExercised =
    unexercised.length === 0
      ? ""
      : `; not exercised by this configuration: ${unexercised.map(({ name }) => name).join(", ")}`;
  if (found.length > 0) return `✗ found ${found.join("; ")}${notExercised}`;
  const killed =
    mutants === null
      ? ""
      : `, ${mutants.length - unexercised.length} of ${mutants.length} mutants killed`;
  return `✓ nothing found: every step legal, every invariant kept, every journal strictly conformant, both engines agreed${killed}${notExercised}`;
}

/** `--out`'s file names: `finding-N-RULE.jsonl` for each counterexample, `mutant-NAME.jsonl` for each kill. */
function findingFile(index: number, rule: string): string {
  return `finding-${index + 1}-${slug(rule)}.jsonl`;
}

function mutantFile(name: string): string {
  return `mutant-${name}.jsonl`;
}

/** What every model's exploration is run with: the request, where it prints and writes. */
export interface ExploreRun extends ExplorationRequest {
  readonly format: "text" | "json";
  readonly output: CliOutput;
  readonly out: CounterexampleFolder | null;
}

/** A progress line as audit draws its bar: a person at a terminal only (never in CI, with NO_COLOR). */
export function progressLine(output: CliOutput): (line: string | null) => void {
  const terminal = wantsProgress(output.stderrTerminal !== undefined, process.env, false)
    ? output.stderrTerminal
    : undefined;
  let drawn = 0;
  return (line) => {
    if (terminal === undefined) return;
    const now = performance.now();
    if (line !== null && now - drawn < 100) return;
    drawn = now;
    terminal.write(line === null ? "\r\u001b[K" : `\r\u001b[K${line}`);
  };
}

/**
 * The folder of `--out`: made if missing; each counterexample a file of its own, never written
 * over one that is already there (what the user has is not lost).
 */
export class CounterexampleFolder {
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
