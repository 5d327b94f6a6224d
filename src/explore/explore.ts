/**
 * Bounded, exhaustive exploration of a model's state space (docs/explore.md): from each initial
 * state, every sequence of the model's public actions up to `depth`, breadth first, each state
 * deduplicated by its canonical encoding, and the model's own rules checked on every step taken.
 * A model plugs in as a `Subject`: its initial states (one per configuration it explores), the
 * actions it accepts from a state, the canonical key of a state, and the check of a step.
 */
import type { StreamedAuditor } from "../../bindings/streamed-session.js";

/** A model as explore drives it. */
export interface Subject<State> {
  /** The initial states, each named (a DAG's shape, say). */
  initialStates(): Iterable<{ readonly name: string; readonly state: State }>;
  /** Every action the model accepts from `state`, with the state it leads to. */
  successors(state: State): Iterable<{ readonly action: string; readonly state: State }>;
  /** Equal for states that behave alike from here on (what the rules can still tell apart). */
  key(state: State): string;
  /** A rule the step from `before` to `after` breaks, or null. */
  checkStep(before: State, after: State): string | null;
  /** What is checked of every distinct state found (an engine difference, say), or null. */
  checkState?(state: State): string | null;
}

export interface Finding<State> {
  /** The initial state's name. */
  readonly from: string;
  readonly rule: string;
  /** The first state found to break the rule (a step's end). */
  readonly state: State;
  /** How many times the rule was found broken, this first time included. */
  readonly times: number;
}

export interface Exploration<State> {
  readonly initialStates: number;
  /** Every state reached, a state reached twice counted twice (the initial ones included). */
  readonly states: number;
  readonly distinctStates: number;
  readonly transitions: number;
  /** The longest action sequence that reached a new state. */
  readonly depthReached: number;
  /** One per rule broken, in the order first found. */
  readonly findings: readonly Finding<State>[];
  readonly seconds: number;
}

export interface ExploreOptions<State> {
  /** Told the distinct states so far after each level. */
  readonly onProgress?: (distinctStates: number) => void;
  /** Handed every distinct state, as it is found (the initial ones included). */
  readonly onDistinct?: (state: State) => void;
  /** Ends the exploration at its first finding (a search for one, not a census). */
  readonly stopAtFinding?: boolean;
}

export function explore<State>(
  subject: Subject<State>,
  depth: number,
  options: ExploreOptions<State> = {},
): Exploration<State> {
  const { onProgress, onDistinct, stopAtFinding = false } = options;
  const started = performance.now();
  let initialStates = 0;
  let states = 0;
  let distinctStates = 0;
  let transitions = 0;
  let depthReached = 0;
  const findings = new Map<string, { from: string; rule: string; state: State; times: number }>();
  const note = (from: string, rule: string | null, state: State) => {
    if (rule === null) return;
    const known = findings.get(rule);
    if (known === undefined) findings.set(rule, { from, rule, state, times: 1 });
    else known.times += 1;
  };
  const done = () => stopAtFinding && findings.size > 0;
  search: for (const { name, state } of subject.initialStates()) {
    initialStates += 1;
    states += 1;
    // Keys are per initial state: two configurations' states never meet.
    const seen = new Set<string>([subject.key(state)]);
    distinctStates += 1;
    note(name, subject.checkState?.(state) ?? null, state);
    onDistinct?.(state);
    if (done()) break;
    let frontier: State[] = [state];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: State[] = [];
      for (const before of frontier) {
        for (const { state: after } of subject.successors(before)) {
          transitions += 1;
          states += 1;
          note(name, subject.checkStep(before, after), after);
          if (done()) break search;
          const key = subject.key(after);
          if (seen.has(key)) continue;
          seen.add(key);
          distinctStates += 1;
          depthReached = Math.max(depthReached, level);
          note(name, subject.checkState?.(after) ?? null, after);
          onDistinct?.(after);
          if (done()) break search;
          next.push(after);
        }
      }
      frontier = next;
      onProgress?.(distinctStates);
    }
  }
  return {
    initialStates,
    states,
    distinctStates,
    transitions,
    depthReached,
    findings: [...findings.values()],
    seconds: (performance.now() - started) / 1000,
  };
}

/** A model's WebAssembly engine as explore needs it: a fresh streaming auditor per journal. */
export interface KernelAuditing {
  openAuditor(): StreamedAuditor<unknown>;
}

/**
 * Whether the kernel, auditing the journal's bytes, gives the reference's report of its records.
 * The reference audited the records as values, so its report has no line numbers; the kernel's
 * are left out of the comparison.
 */
export function kernelAgrees(wasm: KernelAuditing, bytes: Uint8Array, report: unknown): boolean {
  const auditor = wasm.openAuditor();
  auditor.write(bytes);
  const lineless = JSON.stringify(auditor.finish(), (key, value) =>
    key === "line" ? undefined : value,
  );
  return lineless === JSON.stringify(report);
}
