/**
 * What a model's exploration or refinement hands `statefold explore` to print (docs/explore.md,
 * "Output"), whatever the model: the configuration, the counts, each finding shrunk to its
 * journal, the fault matrix, the mutants; for a --driver run, its lines and its evidence. The
 * command prints them all alike (src/cli/explore-output.ts, src/cli/explore-refine.ts).
 */
import type { Exploration } from "./explore.js";
import type { Sensitivity } from "./faults.js";

/** The configuration as the evidence records it, and as the summary's first line says it. */
export interface ExploredConfiguration {
  readonly evidence: { readonly model: string } & Readonly<Record<string, unknown>>;
  readonly text: string;
}

/** A finding shrunk to its counterexample: a journal, and the rules each record breaks. */
export interface Counterexample {
  readonly rule: string;
  /** The initial state it was found from: a DAG's shape, a configuration. */
  readonly from: string;
  /** How many times exploration found the rule broken. */
  readonly times: number;
  readonly journal: readonly unknown[];
  readonly rules: readonly (readonly string[])[];
  /** The journal as the JSONL file `--out` writes, its header included. */
  readonly file: Uint8Array;
}

/** A mutant as explore shows it, whatever its model. */
export interface MutantShown {
  readonly name: string;
  readonly description: string;
  /** Pairs of states explored until it was killed, or all of them. */
  readonly distinctStates: number;
  /** What the configuration lacks for the change to ever matter, or null when it has it. */
  readonly unexercised: string | null;
  readonly kill: {
    readonly madeBy: "reference" | "mutant";
    /** The initial state its journal starts from: a DAG's shape, a configuration. */
    readonly from: string;
    readonly differs: string;
    readonly journal: readonly unknown[];
    /** What each machine says of the journal: the rules of each record, and its final state. */
    readonly reference: { readonly rules: readonly (readonly string[])[]; readonly final: unknown };
    readonly mutant: { readonly rules: readonly (readonly string[])[]; readonly final: unknown };
    /** How the final states differ, a line each. */
    readonly then: readonly string[];
    /** The journal as the JSONL file `--out` writes, its header included. */
    readonly file: Uint8Array;
  } | null;
}

/** A mutant's hunt, as every model's gives it: the kill, when found, in the model's own terms. */
interface HuntedMutant<Configuration, Kill> {
  readonly mutant: {
    readonly name: string;
    readonly description: string;
    unexercisedBy?(configuration: Configuration): string | null;
  };
  readonly distinctStates: number;
  readonly kill: Kill | null;
}

/** What every model's kill holds: who made the journal, how the machines differ, their rules. */
interface AnyKill {
  readonly madeBy: "reference" | "mutant";
  readonly differs: string;
  readonly journal: readonly unknown[];
  readonly reference: { readonly rules: readonly (readonly string[])[] };
  readonly mutant: { readonly rules: readonly (readonly string[])[] };
}

/** What only the model can say of a kill: where it starts, each final state, how they differ. */
export interface KillInModelTerms {
  readonly from: string;
  readonly final: { readonly reference: unknown; readonly mutant: unknown };
  /** How the final states differ, a line each (the shown kill's `then`). */
  readonly differences: readonly string[];
  readonly file: Uint8Array;
}

/** A mutant as explore shows it: the frame every model shares around the model's own terms. */
export function mutantShown<Configuration, Kill extends AnyKill>(
  { mutant, distinctStates, kill }: HuntedMutant<Configuration, Kill>,
  configuration: Configuration,
  inModelTerms: (kill: Kill) => KillInModelTerms,
): MutantShown {
  const { name, description } = mutant;
  const unexercised = mutant.unexercisedBy?.(configuration) ?? null;
  if (kill === null) return { name, description, distinctStates, unexercised, kill: null };
  const { from, final, differences: then, file } = inModelTerms(kill);
  return {
    name,
    description,
    distinctStates,
    unexercised,
    kill: {
      madeBy: kill.madeBy,
      from,
      differs: kill.differs,
      journal: kill.journal,
      reference: { rules: kill.reference.rules, final: final.reference },
      mutant: { rules: kill.mutant.rules, final: final.mutant },
      then,
      file,
    },
  };
}

/** What a model's exploration found, for the command to print, write and judge. */
export interface Explored {
  readonly configuration: ExploredConfiguration;
  readonly result: Exploration<unknown>;
  readonly counterexamples: readonly Counterexample[];
  readonly sensitivity: Sensitivity | null;
  /** Null when `--mutants` was not given. */
  readonly mutants: readonly MutantShown[] | null;
}

/** What every model's exploration is asked for: the bound, the extra checks, the progress line. */
export interface ExplorationRequest {
  readonly depth: number;
  readonly faults: boolean;
  readonly mutants: boolean;
  /** Redraws the progress line (a person at a terminal only); null clears it. */
  readonly progress: (line: string | null) => void;
}

/** With `--mutants`, each mutant hunted in turn, the progress line naming it; else none. */
export async function huntEach<Mutant extends { readonly name: string }, Verdict>(
  request: ExplorationRequest,
  mutants: readonly Mutant[],
  huntOne: (mutant: Mutant) => Promise<Verdict>,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  if (!request.mutants) return verdicts;
  for (const mutant of mutants) {
    request.progress(`hunting mutant ${mutant.name}`);
    verdicts.push(await huntOne(mutant));
  }
  return verdicts;
}

/** What one driver run shows: its text, its evidence, the files `--out` gets. */
export interface DriverShown {
  readonly title: string;
  readonly counts: string;
  /** The finding's lines, or none. */
  readonly details: readonly string[];
  readonly verdict: string;
  readonly found: boolean;
  readonly evidence: unknown;
  readonly files: readonly { readonly name: string; readonly bytes: Uint8Array }[];
}

/** A rule as a file name's part: `legality (wrong-status)` → `legality-wrong-status`. */
export function slug(rule: string): string {
  return rule.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

const encoder = new TextEncoder();

/** Values as a JSONL file's bytes, one line each. */
export function jsonLines(values: readonly unknown[]): Uint8Array {
  return encoder.encode(values.map((value) => `${JSON.stringify(value)}\n`).join(""));
}

/** Each value a numbered line, as explore prints a journal. */
export function numbered(values: readonly unknown[], indent: string): string[] {
  const width = String(values.length).length;
  return values.map(
    (value, i) =>
      `${indent}${String(i + 1).padStart(width)}  ${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
}

/** A runtime's divergence from a step model: the actions that show it, and what each side did. */
export function divergenceDetails(divergence: {
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
