/**
 * The audit of one journal (mirrors src/models/dag/audit.ts): every event goes through `auditEvent`,
 * which checks integrity, legality and the step invariants around the one `applyEvent`, and the
 * verdicts accumulate in the report block the bindings read.
 *
 * Report block (offsets exported by index.ts; f64 holds integers exactly up to 2^53):
 *   0    f64  events
 *   8    f64  integrity index, -1 when none
 *   16   f64  integrity line, 0 when unknown
 *   24   i32  integrity reason (Integrity), -1 when none
 *   28   i32  integrity detail: the Malformed problem, or the node of a discharge-without-deposit
 *   32   u32  integrity subject pointer (decoded id or kind, WTF-8)
 *   36   u32  integrity subject length
 *   40   f64  torn tail line, 0 when none
 *   48   f64  torn tail byte offset
 *   56   f64  illegal events
 *   64   i32  illegal events listed
 *   68   i32  limit fault (Limit), 0 when none
 *   72   step invariants, 24 bytes each: f64 index (-1 holds), f64 line, i32 node
 *   192  status counts, f64 each (Status order)
 *   256  listed illegal events, 32 bytes each: f64 index, f64 line, i32 kind, i32 node, i32 reason
 */
import { nodeCount } from "./dag";
import { Integrity, Kind, Result, SurfaceShape } from "./events";
import { applyEvent, isDischargeWithoutDeposit } from "./fold";
import {
  breaksNoPendingProven,
  breaksPhaseMonotonicity,
  breaksSchedule,
  breaksSurfaceMonotonicity,
  StepInvariant,
} from "./invariants";
import { Limit } from "../jsonl";
import { reserve, resetJournalRegion } from "../memory";
import { passLoggedAt, phaseAt, resetNodeStates, Status, statusAt } from "./state";
import { payloadKeepsSurface, resetSurfaces } from "./surface";
import { Illegality, illegality } from "./transitions";

export { Limit };

export const REPORT_EVENTS: usize = 0;
export const REPORT_INTEGRITY_INDEX: usize = 8;
export const REPORT_INTEGRITY_LINE: usize = 16;
export const REPORT_INTEGRITY_REASON: usize = 24;
export const REPORT_INTEGRITY_DETAIL: usize = 28;
export const REPORT_SUBJECT_POINTER: usize = 32;
export const REPORT_SUBJECT_LENGTH: usize = 36;
export const REPORT_TORN_TAIL_LINE: usize = 40;
export const REPORT_TORN_TAIL_OFFSET: usize = 48;
export const REPORT_ILLEGAL: usize = 56;
export const REPORT_ILLEGAL_LISTED: usize = 64;
export const REPORT_LIMIT: usize = 68;
export const REPORT_STEP_INVARIANTS: usize = 72;
export const STEP_INVARIANT_BYTES: usize = 24;
export const REPORT_STATUS_COUNTS: usize =
  REPORT_STEP_INVARIANTS + STEP_INVARIANT_BYTES * <usize>StepInvariant.COUNT;
export const REPORT_ILLEGAL_LIST: usize = REPORT_STATUS_COUNTS + 8 * <usize>Status.COUNT;
export const ILLEGAL_ENTRY_BYTES: usize = 32;
/** Mirrors ILLEGAL_EVENTS_LISTED_MAX. */
export const ILLEGAL_EVENTS_LISTED_MAX: i32 = 10;
export const REPORT_BYTES: usize =
  REPORT_ILLEGAL_LIST + ILLEGAL_ENTRY_BYTES * <usize>ILLEGAL_EVENTS_LISTED_MAX;

export const report = memory.data(<i32>REPORT_BYTES, 8);

/** Set once the fold has stopped at an integrity fault (or a limit); later events are only counted. */
export let stopped = false;

/**
 * Starts a journal over the loaded DAG: the journal region is dropped and laid out again, every
 * node starts queued with no deposit and an empty surface. False when memory is exhausted.
 */
export function beginJournal(): bool {
  resetJournalRegion();
  resetReport();
  return resetNodeStates() && resetSurfaces();
}

function resetReport(): void {
  memory.fill(report, 0, REPORT_BYTES);
  store<f64>(report + REPORT_INTEGRITY_INDEX, -1);
  store<i32>(report + REPORT_INTEGRITY_REASON, Integrity.NONE);
  for (let i = 0; i < StepInvariant.COUNT; i++) {
    store<f64>(report + REPORT_STEP_INVARIANTS + <usize>i * STEP_INVARIANT_BYTES, -1);
  }
  stopped = false;
}

export function countEvent(): f64 {
  const index = load<f64>(report + REPORT_EVENTS);
  store<f64>(report + REPORT_EVENTS, index + 1);
  return index;
}

/**
 * Records an integrity fault at `index` and stops the fold. `subject` is copied: it points into
 * the line buffer, which the next chunk overwrites.
 */
export function stopAtIntegrityFault(
  index: f64,
  line: f64,
  reason: i32,
  detail: i32,
  subject: usize,
  subjectLength: usize,
): void {
  stopped = true;
  store<f64>(report + REPORT_INTEGRITY_INDEX, index);
  store<f64>(report + REPORT_INTEGRITY_LINE, line);
  store<i32>(report + REPORT_INTEGRITY_REASON, reason);
  store<i32>(report + REPORT_INTEGRITY_DETAIL, detail);
  if (subjectLength == 0) return;
  const copy = reserve(subjectLength);
  if (copy == 0) return stopAtLimit(Limit.MEMORY);
  memory.copy(copy, subject, subjectLength);
  store<u32>(report + REPORT_SUBJECT_POINTER, <u32>copy);
  store<u32>(report + REPORT_SUBJECT_LENGTH, <u32>subjectLength);
}

export function stopAtLimit(limit: i32): void {
  stopped = true;
  store<i32>(report + REPORT_LIMIT, limit);
}

/**
 * After the host wrote a snapshot's report block back: the fold is stopped again if the snapshot
 * had stopped, and the integrity subject gets a home of its own (the pointer in the block was the
 * old kernel's). Returns where the host writes the subject's bytes; 0 when memory is exhausted.
 */
export function adoptRestoredReport(subjectLength: usize): usize {
  stopped = load<f64>(report + REPORT_INTEGRITY_INDEX) >= 0 || load<i32>(report + REPORT_LIMIT) != Limit.NONE;
  store<u32>(report + REPORT_SUBJECT_LENGTH, <u32>subjectLength);
  const subject: usize = subjectLength == 0 ? 0 : reserve(subjectLength);
  store<u32>(report + REPORT_SUBJECT_POINTER, <u32>subject);
  return subject;
}

export function limitReached(): i32 {
  return load<i32>(report + REPORT_LIMIT);
}

export function noteTornTail(line: f64, offset: f64): void {
  store<f64>(report + REPORT_TORN_TAIL_LINE, line);
  store<f64>(report + REPORT_TORN_TAIL_OFFSET, offset);
}

/**
 * Audits one well-formed event on a known node of a known kind. A surface event's payload has
 * been collected (surface.ts). The fold stops (`stopped`) at a discharge without deposit or when
 * memory for the surface is exhausted.
 */
export function auditEvent(
  index: f64,
  line: f64,
  node: i32,
  kind: u8,
  result: u8,
  surfaceShape: u8,
): void {
  if (isDischargeWithoutDeposit(node, kind)) {
    return stopAtIntegrityFault(index, line, Integrity.DISCHARGE_WITHOUT_DEPOSIT, node, 0, 0);
  }
  // Legality and surfaceMonotonic both ask whether the payload keeps the surface, on the state
  // before the event; neither reads it for a surface that is no array (shape OTHER).
  const payloadKeeps =
    kind == Kind.SURFACE_WIDENED && surfaceShape != SurfaceShape.OTHER && payloadKeepsSurface(node);
  const reason = illegality(node, kind, result, surfaceShape, payloadKeeps);
  if (reason != Illegality.NONE) noteIllegal(index, line, node, kind, reason);
  if (breaksSchedule(node, kind)) noteViolation(StepInvariant.SCHEDULE_CORRECT, index, line, node);
  if (breaksSurfaceMonotonicity(kind, surfaceShape, payloadKeeps)) {
    noteViolation(StepInvariant.SURFACE_MONOTONIC, index, line, node);
  }
  const phaseBefore = load<u32>(phaseAt(node));
  if (!applyEvent(node, kind, result, surfaceShape)) return stopAtLimit(Limit.MEMORY);
  if (breaksPhaseMonotonicity(phaseBefore, load<u32>(phaseAt(node)))) {
    noteViolation(StepInvariant.PHASE_MONOTONIC, index, line, node);
  }
  if (breaksNoPendingProven(node))
    noteViolation(StepInvariant.NO_PENDING_PROVEN, index, line, node);
  if ((kind == Kind.GATE_CHECKED || kind == Kind.DISCHARGED) && result == Result.PASS) {
    store<u8>(passLoggedAt(node), 1);
  }
}

function noteViolation(invariant: i32, index: f64, line: f64, node: i32): void {
  const at = report + REPORT_STEP_INVARIANTS + <usize>invariant * STEP_INVARIANT_BYTES;
  if (load<f64>(at) >= 0) return;
  store<f64>(at, index);
  store<f64>(at, line, 8);
  store<i32>(at, node, 16);
}

function noteIllegal(index: f64, line: f64, node: i32, kind: u8, reason: i32): void {
  store<f64>(report + REPORT_ILLEGAL, load<f64>(report + REPORT_ILLEGAL) + 1);
  const listed = load<i32>(report + REPORT_ILLEGAL_LISTED);
  if (listed == ILLEGAL_EVENTS_LISTED_MAX) return;
  const at = report + REPORT_ILLEGAL_LIST + <usize>listed * ILLEGAL_ENTRY_BYTES;
  store<f64>(at, index);
  store<f64>(at, line, 8);
  store<i32>(at, kind, 16);
  store<i32>(at, node, 20);
  store<i32>(at, reason, 24);
  store<i32>(report + REPORT_ILLEGAL_LISTED, listed + 1);
}

/** Fills the status counts from the last state the fold reached. */
export function countStatuses(): void {
  for (let node = 0; node < nodeCount; node++) {
    const at = report + REPORT_STATUS_COUNTS + 8 * <usize>load<u8>(statusAt(node));
    store<f64>(at, load<f64>(at) + 1);
  }
}

/** tamperEvident: proven in the final state with no logged pass. */
function isTampered(node: i32): bool {
  return (
    load<u8>(statusAt(node)) == Status.PROVEN &&
    load<u8>(passLoggedAt(node)) == 0
  );
}

/**
 * The first tampered node from `node` on, or -1: the host lists them with a call per tampered
 * node, not a call per node (10⁵ of them for a report that usually lists none).
 */
export function nextTampered(node: i32): i32 {
  for (; node < nodeCount; node++) if (isTampered(node)) return node;
  return -1;
}
