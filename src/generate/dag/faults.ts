/**
 * `injectFaults`: a journal's lines in, the journal's text out, with seeded faults injected
 * (src/generate/dag/fault-kinds.ts). It transforms any stream of lines whose first is a header and
 * whose events are legal, such as a campaign's; it never buffers more than a line.
 *
 * A fault goes between two events (or after the last), at a position where it can be aimed
 * without side effects: a dispatch ahead of dependencies needs a queued node whose dependencies
 * are not all proven, for instance, and at the end of a campaign there is none. So the faults of
 * each kind are placed uniformly at random among the positions where that kind can go, which
 * takes a first pass over the lines to count them. Placing a fault can use up a candidate a later
 * one was counted on (two early dispatches of one node would be one); such a fault moves to the
 * next position where it fits. A second pass plans exactly that, so a plan that cannot be met is
 * an error before the first byte is written; the third writes. Without faults there is one pass
 * and the lines go through untouched.
 */

import { plural } from "../../text/format-units.js";
import { FaultPlacementError } from "../fault-placement-error.js";
import { Random } from "../random.js";
import { CampaignState } from "./campaign-state.js";
import { FAULT_KINDS, type FaultKind, faultCountMax } from "./fault-kinds.js";

export interface FaultRequest {
  readonly kind: FaultKind;
  readonly count: number;
}

export interface FaultPlan {
  readonly seed: number;
  readonly faults: readonly FaultRequest[];
  /** Called once per fault written, in journal order. */
  readonly onInjected?: (fault: InjectedFault) => void;
}

/** What an audit of the journal must report about one injected fault. */
export interface InjectedFault {
  readonly kind: FaultKind;
  /** The 1-based line it is on. */
  readonly line: number;
  /** The kind of the event it logs; null for a malformed line and a torn tail. */
  readonly event: string | null;
  /** The node its event names; null for a malformed line and a torn tail. */
  readonly node: string | null;
  /**
   * The reason the audit gives: a legality reason (`wrong-status`, `already-terminal`,
   * `dependencies-not-proven`, `surface-shrinks`), an integrity reason (`unknown-node`,
   * `malformed-event`), or `torn-tail`.
   */
  readonly reason: string;
  /** A torn tail's byte offset in the journal. */
  readonly offset?: number;
}

/** The journal's text, a line at a time: each line with its "\n", a torn tail without. */
export function* injectFaults(lines: () => Iterable<string>, plan: FaultPlan): Generator<string> {
  const requested = countsByKind(plan.faults);
  if (requested.size === 0) {
    for (const line of lines()) yield `${line}\n`;
    return;
  }
  const places = countPlaces(lines(), requested);
  const ordinals = chooseOrdinals(new Random(plan.seed ^ 0x0fa017), requested, places);
  for (const _ of walk(lines(), ordinals, plan)) {
    // Planning only: throws before anything is written when a fault cannot be placed.
  }
  yield* walk(lines(), ordinals, plan, plan.onInjected ?? (() => {}));
}

function countsByKind(faults: readonly FaultRequest[]): Map<FaultKind, number> {
  const counts = new Map<FaultKind, number>();
  for (const { kind, count } of faults) {
    const total = (counts.get(kind) ?? 0) + count;
    if (total > faultCountMax(kind))
      throw new FaultPlacementError(`a journal holds at most ${faultCountMax(kind)} ${kind}`);
    if (total > 0) counts.set(kind, total);
  }
  return counts;
}

/** How many positions (before each event, and at the end) can take a fault of each kind. */
function countPlaces(
  lines: Iterable<string>,
  requested: ReadonlyMap<FaultKind, number>,
): Map<FaultKind, number> {
  const places = new Map<FaultKind, number>([...requested.keys()].map((kind) => [kind, 0]));
  let state: CampaignState | null = null;
  const count = (atEnd: boolean) => {
    for (const kind of places.keys())
      if (fits(kind, state as CampaignState, atEnd)) places.set(kind, (places.get(kind) ?? 0) + 1);
  };
  for (const line of lines) {
    if (state === null) {
      state = CampaignState.fromHeader(line);
      continue;
    }
    count(false);
    state.apply(line);
  }
  if (state === null) throw new FaultPlacementError("the journal has no header line");
  count(true);
  return places;
}

function fits(kind: FaultKind, state: CampaignState, atEnd: boolean): boolean {
  switch (kind) {
    case "illegal-transition":
      return state.repeatable.size > 0;
    case "unproven-dispatch":
      return state.blocked.size > 0;
    case "surface-shrink":
      return state.shrinkable.size > 0;
    case "unknown-node":
    case "malformed-line":
      return true;
    case "torn-tail":
      return atEnd;
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/** For each kind, which of its places get a fault: `count` of them, uniformly, in order. */
function chooseOrdinals(
  random: Random,
  requested: ReadonlyMap<FaultKind, number>,
  places: ReadonlyMap<FaultKind, number>,
): Map<FaultKind, number[]> {
  const ordinals = new Map<FaultKind, number[]>();
  for (const kind of FAULT_KINDS) {
    const count = requested.get(kind);
    if (count === undefined) continue;
    const available = places.get(kind) ?? 0;
    if (count > available) {
      throw new FaultPlacementError(
        `cannot inject ${count} ${kind}: the journal has ${plural(available, "place")} for one (${WHERE_IT_FITS[kind]}); generate more events or nodes`,
      );
    }
    ordinals.set(kind, sample(random, count, available));
  }
  return ordinals;
}

const WHERE_IT_FITS: Readonly<Record<FaultKind, string>> = {
  "illegal-transition": "a node dispatched, landed or proven",
  "unproven-dispatch": "a queued node with a dependency not yet proven",
  "surface-shrink": "a node not yet proven with a path in its surface",
  "unknown-node": "any place",
  "malformed-line": "any place",
  "torn-tail": "the end",
};

/** `count` distinct integers in [0, population), sorted (Floyd's algorithm: O(count) draws). */
function sample(random: Random, count: number, population: number): number[] {
  const chosen = new Set<number>();
  for (let upper = population - count; upper < population; upper++) {
    const draw = random.below(upper + 1);
    chosen.add(chosen.has(draw) ? upper : draw);
  }
  return [...chosen].sort((a, b) => a - b);
}

/**
 * One pass over the lines, injecting at the chosen places. Without `onInjected` it only plans:
 * it yields nothing and throws when some fault finds no place.
 */
function* walk(
  lines: Iterable<string>,
  ordinals: ReadonlyMap<FaultKind, readonly number[]>,
  plan: FaultPlan,
  onInjected?: (fault: InjectedFault) => void,
): Generator<string> {
  const writing = onInjected !== undefined;
  const injector = new Injector(new Random(plan.seed ^ 0x1afec7), ordinals);
  let lineNumber = 0;
  let offset = 0;
  let lastLine = "";
  const out = function* (line: string, fault?: Fault): Generator<string> {
    lineNumber += 1;
    if (fault !== undefined) {
      const { kind, event, node, reason } = fault;
      onInjected?.({ kind, line: lineNumber, event, node, reason });
    }
    if (writing) {
      offset += Buffer.byteLength(line) + 1;
      yield `${line}\n`;
    }
  };
  for (const line of lines) {
    if (injector.state === null) {
      injector.start(line);
      yield* out(line);
    } else {
      for (const fault of injector.faultsAt(line, false)) yield* out(fault.text, fault);
      if (!injector.absorbs(line)) yield* out(line);
    }
    lastLine = line;
  }
  for (const fault of injector.faultsAt(lastLine, true)) yield* out(fault.text, fault);
  injector.assertAllPlaced();
  if (ordinals.has("torn-tail")) {
    const torn = injector.tornCopy(lastLine);
    onInjected?.({
      kind: "torn-tail",
      line: lineNumber + 1,
      event: null,
      node: null,
      reason: "torn-tail",
      offset,
    });
    if (writing) yield torn;
  }
}

interface Fault extends Omit<InjectedFault, "line"> {
  readonly text: string;
}

/** The per-kind bookkeeping of one walk: places seen, faults still to place, and the faults. */
class Injector {
  state: CampaignState | null = null;
  private readonly placesSeen = new Map<FaultKind, number>();
  private readonly placed = new Map<FaultKind, number>();

  constructor(
    private readonly random: Random,
    private readonly ordinals: ReadonlyMap<FaultKind, readonly number[]>,
  ) {}

  start(headerLine: string): void {
    this.state = CampaignState.fromHeader(headerLine);
  }

  /** The faults due before the event `nextLine` (or at the end, after the last line). */
  *faultsAt(nextLine: string, atEnd: boolean): Generator<Fault> {
    const state = this.state as CampaignState;
    for (const kind of FAULT_KINDS) {
      if (kind === "torn-tail") continue;
      const ordinals = this.ordinals.get(kind);
      if (ordinals === undefined || !fits(kind, state, atEnd)) continue;
      const seen = this.placesSeen.get(kind) ?? 0;
      this.placesSeen.set(kind, seen + 1);
      const placed = this.placed.get(kind) ?? 0;
      const due = ordinals[placed];
      if (due === undefined || due > seen) continue;
      this.placed.set(kind, placed + 1);
      yield this.fault(kind, state, nextLine);
    }
  }

  /** Folds a line of the lines given; true when it is to be left out (see unproven-dispatch). */
  absorbs(line: string): boolean {
    return (this.state as CampaignState).apply(line);
  }

  assertAllPlaced(): void {
    for (const [kind, ordinals] of this.ordinals) {
      if (kind === "torn-tail") continue;
      const missing = ordinals.length - (this.placed.get(kind) ?? 0);
      if (missing > 0) {
        throw new FaultPlacementError(
          `cannot inject ${ordinals.length} ${kind}: earlier faults used up the places for ${missing} (${WHERE_IT_FITS[kind]}); generate more events or nodes, or change --seed`,
        );
      }
    }
  }

  tornCopy(line: string): string {
    return line.slice(0, 1 + this.random.below(line.length - 1));
  }

  private fault(
    kind: Exclude<FaultKind, "torn-tail">,
    state: CampaignState,
    nextLine: string,
  ): Fault {
    switch (kind) {
      case "illegal-transition":
        return this.repeat(state, state.repeatable.pick(this.random) as number);
      case "unproven-dispatch": {
        const node = state.blocked.pick(this.random) as number;
        state.dispatchEarly(node);
        return eventFault(kind, "dependencies-not-proven", "dispatched", state.ids[node] as string);
      }
      case "surface-shrink": {
        const node = state.shrinkable.pick(this.random) as number;
        const surface = [...state.surfaceOf(node)];
        surface.splice(this.random.below(surface.length), 1);
        state.setSurface(node, surface);
        const id = state.ids[node] as string;
        return eventFault(kind, "surface-shrinks", "surface-widened", id, { surface });
      }
      case "unknown-node": {
        let id = `ghost-${this.random.below(1_000_000)}`;
        while (state.has(id)) id = `${id}-x`;
        return eventFault(kind, "unknown-node", "dispatched", id);
      }
      case "malformed-line": {
        // A write cut short, then the next one: the prefix of an object is never valid JSON.
        const text = this.tornCopy(nextLine);
        return { kind, event: null, node: null, reason: "malformed-event", text };
      }
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
  }

  /** The node's last event again, which leaves its state as it is. */
  private repeat(state: CampaignState, node: number): Fault {
    const id = state.ids[node] as string;
    const status = state.statusOf(node);
    switch (status) {
      case "terminal": {
        const surface = state.surfaceOf(node);
        return eventFault("illegal-transition", "already-terminal", "surface-widened", id, {
          surface,
        });
      }
      case "landed":
      case "dispatched":
        return eventFault("illegal-transition", "wrong-status", status, id);
      case "queued":
      case "quarantined":
      case "rework":
        throw new Error(`statefold: node ${id} is ${status}, not repeatable`);
      default: {
        const unreachable: never = status;
        return unreachable;
      }
    }
  }
}

/** A fault that is one event line: `{"kind":event,"id":id,...fields}`. */
function eventFault(
  kind: FaultKind,
  reason: string,
  event: string,
  id: string,
  fields: object = {},
): Fault {
  return { kind, event, node: id, reason, text: JSON.stringify({ kind: event, id, ...fields }) };
}
