/**
 * A model's part in `statefold explore` (docs/explore.md): its flags and pieces of the help,
 * light enough for the registry to hold, and its explorer — how it reads its configuration from
 * its flags, explores itself, checks a runtime through a driver and is benchmarked — loaded only
 * when a run asks for it. The command (src/cli/explore.ts) does the rest alike for every model.
 */
import type { Driver } from "./driver.js";
import type { Subject } from "./explore.js";
import type { DriverShown, ExplorationRequest, Explored } from "./explored.js";

export interface ExploreFacet {
  /** Its own flags, beside the shared ones: a flag of another model is refused by name. */
  readonly flags: readonly ExploreFlag[];
  /** The `--depth` an exploration of the model takes when none is given. */
  readonly depth: number;
  readonly driver: {
    /** The `--depth` a --driver run takes when none is given. */
    readonly depth: number;
    /**
     * Where a runtime's schedules have faults, `--faults N` bounds them: what such a runtime is
     * ("an effect runtime"), for the refusal a model without one gives.
     */
    readonly faultBound?: { readonly runtime: string };
  };
  readonly help: ExploreHelp;
  /** Its explorer: the heavy part, imported when first asked for. */
  explorer(): Promise<Explorer>;
}

/** A flag of a model's own, and the runs it goes with; every one takes a value. */
export interface ExploreFlag {
  /** Its name without the dashes. */
  readonly name: string;
  /** An exploration of the model itself, a --driver run, or both. */
  readonly goesWith: "exploration" | "driver" | "both";
}

/**
 * A model's pieces of `statefold explore --help`, each written and wrapped by the model; the
 * command sets them in its frame (the default model's options first, unlabelled).
 */
export interface ExploreHelp {
  /**
   * Its usage lines after `statefold explore --model NAME`: an exploration's, and a --driver
   * run's (after `--driver CMD`) where it has a usage line of its own.
   */
  readonly usage: { readonly exploration: readonly string[]; readonly driver?: readonly string[] };
  /** Its paragraph: what an exploration of it explores. */
  readonly description: string;
  /** Its options' lines, as the options table sets them. */
  readonly options: string;
  /** The faults it injects beyond the shared ones, as `--faults`' line goes on to name them. */
  readonly faults?: string;
  /** `--driver CMD`'s lines for it. */
  readonly driver: string;
  /** The lines of the options only its --driver runs take. */
  readonly driverOptions?: string;
}

/** The flags of a run, as a model's explorer reads its own: the command owns the usage errors. */
export interface ExploreFlags {
  /** The flag's value as given, or undefined when it is not (`faults`: a --driver run's bound). */
  text(name: string): string | undefined;
  /** The flag's whole number, at least `min`, or `fallback` when it is not given. */
  integer(name: string, fallback: number, min: number): number;
  /** Refuses the run as bad usage (exit 2) with the message. */
  refuse(message: string): never;
}

/** A model's explorer: its exploration, its refinement through a driver, its benchmark. */
export interface Explorer {
  /** Explores the model at the configuration its flags give. */
  explore(flags: ExploreFlags, request: ExplorationRequest): Promise<Explored>;
  /**
   * Reads a --driver run's configuration from its flags, before any driver is started, and
   * gives the check that drives the started driver (run as `command`) to `depth`.
   */
  refinement(flags: ExploreFlags, depth: number): DriverCheck;
  /** Its exploration as `npm run bench` measures it, at a depth of at most `depth`. */
  benchmark(depth: number): Promise<BenchedExploration<unknown>>;
}

export type DriverCheck = (driver: Driver, command: string) => Promise<DriverShown>;

/** One model's exploration as the bench measures it: steps only, both engines, the fold of its journals. */
export interface BenchedExploration<State> {
  /** The configuration and depth, as the bench's table says them. */
  readonly configuration: string;
  readonly depth: number;
  readonly stepsOnly: Subject<State>;
  readonly bothEngines: Subject<State>;
  /** The journal of an explored state: its length, and its fold by the reference. */
  journal(state: State): { readonly events: number; readonly fold: () => void };
}
