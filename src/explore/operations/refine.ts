/**
 * The refinement check of an effect runtime (docs/explore.md, "Refinement of an effect
 * runtime"): statefold plays the world around the runtime — clients that submit and cancel,
 * providers that answer (ok, a final error, a retryable one with and without a hint, or lost
 * after executing or not), the clock, lease takeovers and crashes — and drives every schedule of
 * that world up to the bound, breadth first, each world statefold observes met once. After each
 * event the runtime's journal must be strictly conformant and the ledger must agree
 * (world.ts); from each new world the benign schedule must finish every op (conditional
 * progress). The first failure is shrunk — events removed while the same check fails the same
 * way — and returned with the schedule and the runtime's journal.
 */
import type { Policy } from "../../models/operations/records.js";
import type { Call, Driver, EnvAnswer } from "../driver.js";
import { shrink } from "../shrink.js";
import { HINT_MS } from "./subject.js";
import {
  type EffectFinding,
  EMPTY_WORLD,
  type EnvEvent,
  observe,
  type World,
  worldKey,
} from "./world.js";

export interface EffectRuntimeConfiguration {
  /** Strands `s1` …, ops `o1` … (submitted in order), steps `k1` … per op. */
  readonly strands: number;
  readonly ops: number;
  readonly keys: number;
  /** Lost answers, crashes and takeovers in one schedule, counted together. */
  readonly faults: number;
  /** The most events the benign schedule may take to finish every op. */
  readonly progressBound: number;
  readonly policy: Policy;
}

/**
 * An environment event as a schedule keeps it: a call named by what it asks (its id may differ
 * once earlier events are removed), a readback answered by the ledger when it is driven, a tick
 * to the runtime's wake.
 */
export type Move =
  | { readonly kind: "submit"; readonly op: string; readonly strand: string }
  | {
      readonly kind: "respond";
      readonly call: Call;
      readonly result: "ok" | "error" | "retryable" | "hinted" | "lost" | "truth";
      readonly executed?: boolean;
    }
  | { readonly kind: "tick" }
  | { readonly kind: "cancel"; readonly op: string }
  | { readonly kind: "crash"; readonly executed: readonly Call[] }
  | { readonly kind: "takeover"; readonly strand: string; readonly executed: readonly Call[] };

export interface EffectRefinement {
  /** Schedules driven from a reset: one per world and event there, and one per progress check. */
  readonly schedules: number;
  readonly environmentEvents: number;
  readonly distinctStates: number;
  readonly depthReached: number;
  readonly seconds: number;
  readonly finding: ShownFinding | null;
}

export interface ShownFinding extends EffectFinding {
  /** The schedule that shows it, shrunk, as the events were sent. */
  readonly schedule: readonly EnvEvent[];
  /** The runtime's journal at the failure, a line each. */
  readonly journal: readonly unknown[];
}

interface Node {
  readonly world: World;
  readonly moves: readonly Move[];
  /** The moves as they were sent: a deterministic runtime answers them alike every time. */
  readonly events: readonly EnvEvent[];
}

/** A schedule driven: the events sent, the world they led to, and the first failure. */
interface Driven {
  readonly events: readonly EnvEvent[];
  readonly world: World;
  readonly finding: EffectFinding | null;
  /** The runtime's journal as it wrote it, the failing answer's lines included. */
  readonly journal: readonly unknown[];
  /** False when an event of the schedule had nothing to act on (a call no longer out). */
  readonly valid: boolean;
}

export async function refineEffectRuntime(
  configuration: EffectRuntimeConfiguration,
  depth: number,
  driver: Driver,
): Promise<EffectRefinement> {
  const started = performance.now();
  const runner = new ScheduleRunner(configuration, driver);
  const seen = new Set([worldKey(EMPTY_WORLD)]);
  let frontier: Node[] = [{ world: EMPTY_WORLD, moves: [], events: [] }];
  let depthReached = 0;
  const done = (finding: ShownFinding | null): EffectRefinement => ({
    schedules: runner.schedules,
    environmentEvents: runner.events,
    distinctStates: seen.size,
    depthReached,
    seconds: (performance.now() - started) / 1000,
    finding,
  });
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: Node[] = [];
    for (const node of frontier) {
      for (const move of movesFrom(node.world, configuration)) {
        const moves = [...node.moves, move];
        const events = [...node.events, runner.eventOf(move, node.world) as EnvEvent];
        const driven = await runner.driveEvents(events, node.world);
        if (driven.finding !== null) return done(await runner.shrunk(moves, driven.finding));
        const key = worldKey(driven.world);
        if (seen.has(key)) continue;
        seen.add(key);
        depthReached = level + 1;
        // The runtime stands where the schedule left it: the benign schedule goes on from there.
        const progress = await runner.progress(driven.world, moves);
        if (progress.finding !== null) {
          return done(await runner.shrunk(progress.moves, progress.finding));
        }
        next.push({ world: driven.world, moves, events });
      }
    }
    frontier = next;
  }
  return done(null);
}

/** Every event the world may send next (module comment), faults while the bound allows. */
function* movesFrom(world: World, configuration: EffectRuntimeConfiguration): Generator<Move> {
  const { model } = world;
  const next = model.operations.size + 1;
  if (next <= configuration.ops) {
    for (let s = 1; s <= configuration.strands; s++) {
      yield { kind: "submit", op: `o${next}`, strand: `s${s}` };
    }
  }
  const faults = world.faults < configuration.faults;
  for (const call of world.calls) {
    const answers =
      call.type === "effect"
        ? (["ok", "error", "retryable", "hinted"] as const)
        : (["truth"] as const);
    for (const result of answers) yield { kind: "respond", call, result };
    if (!faults) continue;
    yield { kind: "respond", call, result: "lost", executed: false };
    if (call.type === "effect") yield { kind: "respond", call, result: "lost", executed: true };
  }
  if (world.wake !== null) yield { kind: "tick" };
  for (const [op, operation] of model.operations) {
    const running = operation.finished === null && operation.control === "running";
    if (running && !world.cancelled.includes(op)) yield { kind: "cancel", op };
  }
  if (!faults) return;
  const effects = world.calls.filter((call) => call.type === "effect");
  for (const executed of subsets(effects)) yield { kind: "crash", executed };
  for (let s = 1; s <= configuration.strands; s++) {
    const strand = `s${s}`;
    const held = effects.filter((call) => model.operations.get(call.op)?.strand === strand);
    for (const executed of subsets(held)) yield { kind: "takeover", strand, executed };
  }
}

function subsets<T>(items: readonly T[]): T[][] {
  const sets: T[][] = [[]];
  for (const item of items) {
    for (const set of [...sets]) sets.push([...set, item]);
  }
  return sets;
}

/** Drives schedules from a reset, counting them and the events sent. */
class ScheduleRunner {
  schedules = 0;
  events = 0;
  private readonly steps: string[];
  private readonly hint: number;

  constructor(
    private readonly configuration: EffectRuntimeConfiguration,
    private readonly driver: Driver,
  ) {
    this.steps = Array.from({ length: configuration.keys }, (_, i) => `k${i + 1}`);
    // Longer than any wait of the ladder, which is at most maxDelayMs.
    this.hint = Math.max(HINT_MS, configuration.policy.maxDelayMs + 1);
  }

  /**
   * Drives events from a reset, written at once: they were made for this very runtime. Given
   * `reached`, the world the events but the last led to before, a runtime that answers them
   * otherwise now is not deterministic: a driver failure.
   */
  async driveEvents(events: readonly EnvEvent[], reached?: World): Promise<Driven> {
    const answers = await this.driver.replayEvents(this.resetOf(), events);
    this.schedules += 1;
    this.events += events.length;
    let world = EMPTY_WORLD;
    const last = events.length - 1;
    const answeredOtherwise = () =>
      this.driver.failure(
        "answered the same events otherwise the second time: a runtime must be deterministic given the same events",
      );
    for (const [i, event] of events.entries()) {
      if (i === last && reached !== undefined && worldKey(world) !== worldKey(reached)) {
        throw answeredOtherwise();
      }
      const answer = answers[i] as EnvAnswer;
      const observed = observe(world, event, answer);
      if ("check" in observed) {
        if (i < last && reached !== undefined) throw answeredOtherwise();
        return failed(events.slice(0, i + 1), world, observed, answer);
      }
      world = observed;
    }
    return { events, world, finding: null, journal: world.journal, valid: true };
  }

  /** Drives moves from a reset, each made an event in the world the ones before it left. */
  async drive(moves: readonly Move[]): Promise<Driven> {
    await this.driver.reset(this.resetOf());
    this.schedules += 1;
    let world = EMPTY_WORLD;
    const events: EnvEvent[] = [];
    for (const move of moves) {
      const event = this.eventOf(move, world);
      if (event === null) {
        return { events, world, finding: null, journal: world.journal, valid: false };
      }
      const { answer, observed } = await this.send(world, event);
      events.push(event);
      if ("check" in observed) return failed(events, world, observed, answer);
      world = observed;
    }
    return { events, world, finding: null, journal: world.journal, valid: true };
  }

  private resetOf() {
    const { strands, policy } = this.configuration;
    return { strands: Array.from({ length: strands }, (_, i) => `s${i + 1}`), policy };
  }

  private async send(world: World, event: EnvEvent) {
    this.events += 1;
    const answer = await this.driver.env(event);
    return { answer, observed: observe(world, event, answer) };
  }

  /**
   * Conditional progress, from `world`, where the runtime stands after `moves`: the benign
   * schedule — every call answered ok (a readback by the ledger), the clock ticked to every
   * wake, no fault — finishes every op within the bound, and a cancelled one aborted. The moves
   * that show a failure, with it.
   */
  async progress(
    from: World,
    moves: readonly Move[],
  ): Promise<{ moves: readonly Move[]; finding: EffectFinding | null }> {
    const all = [...moves];
    let world = from;
    for (let events = 0; ; events++) {
      const unfinished = unfinishedOps(world);
      if (unfinished === null) return { moves, finding: null };
      const call = world.calls[0];
      const move: Move | null =
        call !== undefined
          ? { kind: "respond", call, result: call.type === "effect" ? "ok" : "truth" }
          : world.wake !== null
            ? { kind: "tick" }
            : null;
      if (move === null || events === this.configuration.progressBound) {
        const why =
          move === null
            ? `after ${events} benign event${events === 1 ? "" : "s"} it has no call out and no wake`
            : `${events} benign events did not finish it`;
        return { moves, finding: noProgress(unfinished, why, this.configuration.progressBound) };
      }
      const { observed } = await this.send(world, this.eventOf(move, world) as EnvEvent);
      all.push(move);
      if ("check" in observed) return { moves: all, finding: observed };
      world = observed;
    }
  }

  /** The failure shrunk: events removed while the same check still fails the same way. */
  async shrunk(moves: readonly Move[], finding: EffectFinding): Promise<ShownFinding> {
    const failureOf = async (candidate: readonly Move[]): Promise<Driven | null> => {
      const driven = await this.drive(candidate);
      if (!driven.valid) return null;
      if (driven.finding !== null || finding.check !== "progress") return driven;
      return { ...driven, finding: (await this.progress(driven.world, candidate)).finding };
    };
    const fewest = await shrink(
      moves,
      async (candidate) => (await failureOf(candidate))?.finding?.what === finding.what,
    );
    const shown = (await failureOf(fewest)) as Driven;
    return { ...(shown.finding ?? finding), schedule: shown.events, journal: shown.journal };
  }

  /** The event a move is in this world, or null when what it acts on is not there. */
  eventOf(move: Move, world: World): EnvEvent | null {
    switch (move.kind) {
      case "submit":
        return { submit: { op: move.op, strand: move.strand, steps: this.steps } };
      case "respond": {
        const call = outstanding(world, move.call);
        if (call === null) return null;
        const respond = { call: call.id };
        if (move.result === "truth") {
          const found = world.executed.includes(call.effect) ? "committed" : "absent";
          return { respond: { ...respond, result: found } };
        }
        if (move.result === "hinted") {
          return { respond: { ...respond, result: "retryable", retryAfterMs: this.hint } };
        }
        if (move.result !== "lost") return { respond: { ...respond, result: move.result } };
        const executed = call.type === "effect" ? { executed: move.executed === true } : {};
        return { respond: { ...respond, result: "lost", ...executed } };
      }
      case "tick":
        return world.wake === null ? null : { tick: Math.max(world.wake, world.clock) };
      case "cancel":
        return { cancel: { op: move.op } };
      case "crash": {
        const executed = idsOf(world, move.executed);
        return executed === null ? null : { crash: { executed } };
      }
      case "takeover": {
        const executed = idsOf(world, move.executed);
        return executed === null ? null : { takeover: { strand: move.strand, executed } };
      }
    }
  }
}

/** A schedule that failed at its last event: the journal with that answer's lines. */
function failed(
  events: readonly EnvEvent[],
  world: World,
  finding: EffectFinding,
  answer: EnvAnswer,
): Driven {
  const journal = [...world.journal, ...answer.journal.map(parsedOrText)];
  return { events, world, finding, journal, valid: true };
}

/** The outstanding call that is `call`: the same id, or else the same request. */
function outstanding(world: World, call: Call): Call | null {
  return (
    world.calls.find((out) => out.id === call.id) ??
    world.calls.find(
      (out) => out.type === call.type && out.op === call.op && out.effect === call.effect,
    ) ??
    null
  );
}

function idsOf(world: World, calls: readonly Call[]): string[] | null {
  const ids = calls.map((call) => outstanding(world, call)?.id);
  return ids.every((id) => id !== undefined) ? (ids as string[]) : null;
}

/** The ops not yet finished as they must be — a cancelled one aborted — or null when none. */
function unfinishedOps(world: World): string[] | null {
  const unfinished = [...world.model.operations]
    .filter(([op, operation]) =>
      world.cancelled.includes(op) ? operation.finished !== "aborted" : operation.finished === null,
    )
    .map(([op, operation]) =>
      operation.finished === null ? op : `${op} (finished ${operation.finished}, not aborted)`,
    );
  return unfinished.length === 0 ? null : unfinished;
}

function noProgress(unfinished: readonly string[], why: string, bound: number): EffectFinding {
  return {
    check: "progress",
    what: "progress (no-progress)",
    message: `under the benign schedule (every call answered ok, the clock ticked to every wake, no fault) ${unfinished.join(", ")} did not finish as it must within ${bound} events: ${why}`,
  };
}

function parsedOrText(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return line;
  }
}

/**
 * The first failure a schedule shows, driven from a reset as it is written: the journal and the
 * ledger checked after each event, and with `progress` conditional progress at its end — as
 * shrinking judges a schedule — or null. How a counterexample is replayed.
 */
export async function failureOfSchedule(
  configuration: EffectRuntimeConfiguration,
  driver: Driver,
  events: readonly EnvEvent[],
  progress: boolean,
): Promise<EffectFinding | null> {
  const runner = new ScheduleRunner(configuration, driver);
  const driven = await runner.driveEvents(events);
  if (driven.finding !== null || !progress) return driven.finding;
  return (await runner.progress(driven.world, [])).finding;
}
