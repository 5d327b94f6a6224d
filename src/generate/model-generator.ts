/**
 * What `statefold gen` asks of a model (the model's `gen`): its flags and its part of the help,
 * the faults it can inject, and its journal, made as it is written. The command itself
 * (src/cli/gen.ts) is the same for every model: it parses the flags, checks that each belongs
 * to the model asked for, reads the faults and writes the journal.
 */

/** The value of each flag as given on the command line; undefined where it was not. */
export type GenFlagValues = Readonly<Record<string, string | undefined>>;

/** `--inject KIND[:COUNT]`, read: a kind of the model's and how many of it. */
export interface FaultRequest<Kind extends string = string> {
  readonly kind: Kind;
  readonly count: number;
}

export interface ModelGenerator<Options = unknown, Kind extends string = string> {
  /** What a journal of the model holds: its paragraph of the help, after "--model NAME: ". */
  readonly about: string;
  /** What --events counts, in the help's line of --events. */
  readonly eventsMeaning: string;
  /** The flags of this model only, beyond --events, --seed, --inject and --out; each takes a value. */
  readonly flags: readonly string[];
  /** Those flags in the help's usage line ("[--strands N]"); empty when there are none. */
  readonly flagsUsage: string;
  /** Those flags' lines of the help, under "Options of --model NAME:"; empty when there are none. */
  readonly flagsHelp: string;
  /** The faults --inject takes, in the help's order. */
  readonly faultKinds: readonly Kind[];
  /** One line each, for the help. */
  readonly faultDescriptions: Readonly<Record<Kind, string>>;
  /** The journal's options from --events, --seed and the model's flags: a bad value is a usage error. */
  options(values: GenFlagValues): Options;
  /**
   * The journal, in pieces of whole lines, made as they are written. A fault plan the journal
   * cannot hold throws `FaultPlacementError` (src/generate/fault-placement-error.ts) when the
   * first piece is asked for.
   */
  journal(options: Options, faults: readonly FaultRequest<Kind>[]): Generator<string | Uint8Array>;
}
