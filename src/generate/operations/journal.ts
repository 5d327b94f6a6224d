/**
 * `operationsJournal`: the text of a generated journal of the `operations` model
 * (docs/models/operations.md) — the header, then `events` records of a simulated runtime
 * (runtime.ts), with seeded faults (fault-kinds.ts) among them — a line at a time, so that a
 * journal of any length is written in constant memory. The same options give the same bytes.
 * `operationsJournalByteChunks` gives them as they are made, for a writer.
 *
 * Each fault is given a seeded record index, uniformly over the first three quarters of the
 * journal, and is written at the first record from there on where the runtime's state has a
 * place for it (an early retry needs a step waiting to be retried, for instance); the last
 * quarter leaves room for the rarer places. Whether every fault finds one is only known by
 * running the journal, so a plan with faults is first run without writing: a plan the journal
 * cannot hold is refused before the first line.
 */

import { plural } from "../../text/format-units.js";
import { FaultPlacementError } from "../fault-placement-error.js";
import { Random } from "../random.js";
import {
  OPERATIONS_FAULT_FINDINGS,
  OPERATIONS_FAULT_KINDS,
  OPERATIONS_FAULT_PLACES,
  type OperationsFaultKind,
} from "./fault-kinds.js";
import { JournalBuffer, template } from "./journal-buffer.js";
import { OperationsRuntime } from "./runtime.js";

export const OPERATIONS_HEADER = '{"statefold":"journal","version":1,"model":"operations"}';
const HEADER_LINE = template(`${OPERATIONS_HEADER}\n`);

export const OPERATIONS_STRANDS_DEFAULT = 8;

/** The runtime keeps every strand: its memory is bounded by this, whatever the journal's length. */
export const OPERATIONS_STRANDS_MAX = 1_000_000;

export interface OperationsFaultRequest {
  readonly kind: OperationsFaultKind;
  readonly count: number;
}

export interface OperationsJournalOptions {
  /** Records after the header, faults included. */
  readonly events: number;
  readonly seed: number;
  /** Strands whose ops run at once, their records interleaved (8 by default). */
  readonly strands?: number;
  readonly faults?: readonly OperationsFaultRequest[];
  /** Called once per injected fault, in journal order, with what an audit must say about it. */
  readonly onInjected?: (fault: InjectedOperationsFault) => void;
}

/** What an audit of the journal must report about one injected fault. */
export interface InjectedOperationsFault {
  readonly kind: OperationsFaultKind;
  /** The 1-based line it is on (the header is line 1), and its 0-based record index. */
  readonly line: number;
  readonly index: number;
  readonly rule: (typeof OPERATIONS_FAULT_FINDINGS)[OperationsFaultKind]["rule"];
  readonly reason: (typeof OPERATIONS_FAULT_FINDINGS)[OperationsFaultKind]["reason"];
  /** The record's kind, its op, and its effect (for an intent or a settlement). */
  readonly record: string;
  readonly op: string;
  readonly effect: string | null;
}

/** Each line with its "\n". Throws `FaultPlacementError` before the first when a fault finds no place. */
export function operationsJournal(options: OperationsJournalOptions): Generator<string> {
  return pieces(options, options.onInjected, true, 1, takeText);
}

/**
 * The same text in pieces of about `chunkChars` characters, whole lines each: for a writer, which
 * then does without a yield and a join per line.
 */
export function operationsJournalChunks(
  options: OperationsJournalOptions,
  chunkChars = 64 * 1024,
): Generator<string> {
  return pieces(options, options.onInjected, true, Math.max(1, chunkChars), takeText);
}

/**
 * The same text as its UTF-8 bytes, in pieces of about `chunkBytes`, whole lines each: the
 * fastest form, for a writer, which then encodes nothing. The pieces share one buffer, each
 * valid until the next one is requested, so a consumer that keeps one copies it: a fresh buffer
 * per piece cost a tenth of the time, in page faults and zeroing.
 */
export function operationsJournalByteChunks(
  options: OperationsJournalOptions,
  chunkBytes = 256 * 1024,
): Generator<Uint8Array> {
  return pieces(options, options.onInjected, true, Math.max(1, chunkBytes), take);
}

const take = (out: JournalBuffer) => out.take();
const takeText = (out: JournalBuffer) => out.takeText();
const clear = (out: JournalBuffer) => out.clear();

interface Target {
  readonly index: number;
  readonly kind: OperationsFaultKind;
}

/** Each fault's seeded record index, from which on it is written at the first place it fits. */
function faultTargets(options: OperationsJournalOptions): Target[] {
  const counts = new Map<OperationsFaultKind, number>();
  for (const { kind, count } of options.faults ?? [])
    counts.set(kind, (counts.get(kind) ?? 0) + count);
  let total = 0;
  for (const count of counts.values()) total += count;
  if (total > options.events) {
    throw new FaultPlacementError(
      `cannot inject ${plural(total, "fault")} into ${plural(options.events, "record")}; generate more events`,
    );
  }
  const random = new Random(options.seed ^ 0x7a76e7);
  const span = Math.max(1, Math.floor((options.events * 3) / 4));
  const targets: Target[] = [];
  for (const kind of OPERATIONS_FAULT_KINDS) {
    for (let i = 0; i < (counts.get(kind) ?? 0); i++)
      targets.push({ index: random.below(span), kind });
  }
  // A stable sort: equal indices keep the kinds' order.
  return targets.sort((a, b) => a.index - b.index);
}

/** Runs the journal without keeping it, and refuses the plan if some fault found no place. */
function checkPlacement(options: OperationsJournalOptions, targets: readonly Target[]): void {
  const placed = new Map<OperationsFaultKind, number>();
  let placedTotal = 0;
  const onPlaced = (fault: InjectedOperationsFault) => {
    placed.set(fault.kind, (placed.get(fault.kind) ?? 0) + 1);
    placedTotal += 1;
  };
  for (const _ of pieces(options, onPlaced, false, 64 * 1024, clear)) {
    if (placedTotal === targets.length) return;
  }
  for (const kind of OPERATIONS_FAULT_KINDS) {
    const asked = targets.filter((target) => target.kind === kind).length;
    const got = placed.get(kind) ?? 0;
    if (got < asked) {
      throw new FaultPlacementError(
        `cannot inject ${asked} ${kind}: ${got === 0 ? "none" : `only ${got}`} found a place (${OPERATIONS_FAULT_PLACES[kind]}) in ${plural(options.events, "record")}; generate more events, or change --seed`,
      );
    }
  }
}

/**
 * The records, each with its "\n", faults written where they fall due and fit; for `writing`,
 * the plan checked first and the header before them. In pieces of whole lines at least
 * `pieceBytes` long (1: a line each), each made by `leave`, which empties the buffer. One
 * generator, not a chain: a yield per line is a good part of the cost of a line.
 */
function* pieces<T>(
  options: OperationsJournalOptions,
  onInjected: ((fault: InjectedOperationsFault) => void) | undefined,
  writing: boolean,
  pieceBytes: number,
  leave: (out: JournalBuffer) => T,
): Generator<T> {
  const strands = options.strands ?? OPERATIONS_STRANDS_DEFAULT;
  if (!Number.isSafeInteger(strands) || strands < 1 || strands > OPERATIONS_STRANDS_MAX)
    throw new RangeError(`strands must be a whole number from 1 to ${OPERATIONS_STRANDS_MAX}`);
  const targets = faultTargets(options);
  const out = new JournalBuffer(pieceBytes);
  if (writing) {
    if (targets.length > 0) checkPlacement(options, targets);
    HEADER_LINE(out);
    if (out.full) yield leave(out);
  }
  const keepsSettlements = targets.some((target) => target.kind === "duplicate-settlement");
  const runtime = new OperationsRuntime(options.seed, strands, out, keepsSettlements);
  const due = new Map<OperationsFaultKind, number>();
  let dueTotal = 0;
  let next = 0;
  for (let index = 0; index < options.events; index++) {
    for (let target = targets[next]; target !== undefined && target.index <= index; ) {
      due.set(target.kind, (due.get(target.kind) ?? 0) + 1);
      dueTotal += 1;
      next += 1;
      target = targets[next];
    }
    out.reserve();
    if (dueTotal > 0 && placeOne(runtime, out, due, index, onInjected)) dueTotal -= 1;
    else runtime.next();
    if (out.full) yield leave(out);
  }
  if (out.length > 0) yield leave(out);
}

/** Writes the first fault due, in the kinds' order, that the runtime has a place for now. */
function placeOne(
  runtime: OperationsRuntime,
  out: JournalBuffer,
  due: Map<OperationsFaultKind, number>,
  index: number,
  onInjected: ((fault: InjectedOperationsFault) => void) | undefined,
): boolean {
  for (const [kind, count] of due) {
    const start = out.length;
    const fault = runtime.fault(kind);
    if (fault === null) continue;
    if (count === 1) due.delete(kind);
    else due.set(kind, count - 1);
    onInjected?.({
      kind,
      line: index + 2,
      index,
      ...OPERATIONS_FAULT_FINDINGS[kind],
      record: (JSON.parse(out.textFrom(start)) as { kind: string }).kind,
      op: fault.op,
      effect: fault.effect,
    });
    return true;
  }
  return false;
}
