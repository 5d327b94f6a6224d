/**
 * The executive journals the benchmarks read: 10⁵ and 10⁶ lines of the faithful host of
 * `statefold gen --model executive` (src/generate/executive/journal.ts), each line an observation
 * and the decision recorded for it: a step of the machine. The header holds the spec, whose plan
 * grows with the journal up to the spec's bound of 10⁵ plan steps — megabytes of JSON every audit
 * reads and checks before the first step (2.7 MB at 10⁵ lines, 4.2 MB at 10⁶); past that bound
 * the host ticks more often while it waits, so the run still lasts as long as the journal. Every
 * fault kind once per 10 000 lines, but `wrong-fail-reason` once (a run fails once); the terminal
 * faults end the run with a cancel at three quarters of the journal, the ticks after it where
 * `accepted-after-terminal` goes. No 10⁷ scale: a plan cannot grow past its bound, so its run
 * would be ten ticks a step, and the reference holds the whole journal in memory.
 */
import {
  EXECUTIVE_FAULT_KINDS,
  type ExecutiveFaultKind,
} from "../../src/generate/executive/journal.js";
import type { ScaleBase } from "../bench-model.js";

/** What an executive journal of the benchmarks is made of; its file is named by these. */
export interface ExecutiveMix {
  /** Lines after the header (observations and their decisions: steps), faults included. */
  readonly events: number;
  readonly seed: number;
  /** Faults injected, by kind (src/generate/executive/journal.ts); a kind absent, none. */
  readonly faults: Readonly<Partial<Record<ExecutiveFaultKind, number>>>;
}

export interface ExecutiveScale extends ScaleBase<"executive"> {
  readonly executive: ExecutiveMix;
}

/** Every fault kind once per 10 000 lines, but `wrong-fail-reason` once: 51 faults in 10⁵ lines. */
function executiveMix(events: number): ExecutiveMix {
  const each = events / 10_000;
  const faults = Object.fromEntries(
    EXECUTIVE_FAULT_KINDS.map((kind) => [kind, kind === "wrong-fail-reason" ? 1 : each]),
  );
  return { events, seed: 42, faults };
}

export const EXECUTIVE_SCALES: readonly ExecutiveScale[] = [
  {
    name: "executive-1e5-lines",
    model: "executive",
    executive: executiveMix(100_000),
    rounds: 9,
    warmupRounds: 1,
    finishSecondsMax: 60,
    prefixRunSeconds: 10,
  },
  {
    name: "executive-1e6-lines",
    model: "executive",
    executive: executiveMix(1_000_000),
    rounds: 5,
    warmupRounds: 1,
    finishSecondsMax: 120,
    prefixRunSeconds: 20,
  },
];

/**
 * bench:check's executive journal: the executive mix at 10⁵ lines (the suite's smallest executive
 * scale), 30 rounds as the others.
 */
export const EXECUTIVE_CHECK_SCALE: ExecutiveScale = {
  name: "check-executive-1e5-lines",
  model: "executive",
  executive: executiveMix(100_000),
  rounds: 30,
  warmupRounds: 2,
  finishSecondsMax: 60,
  prefixRunSeconds: 10,
};
