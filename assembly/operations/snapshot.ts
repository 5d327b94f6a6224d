/**
 * The operations kernel's state as bytes, for the boot gate's incremental audits
 * (docs/models/operations.md, "Incremental gates"): `snapshotState` writes every strand, op,
 * live step and effect id with the report block; `restoreState` lays them into a freshly begun
 * journal through the same functions the fold uses, so the tables, lists and counts are rebuilt
 * by construction (hashed under this instance's key). A snapshot is input: every count, length,
 * code and reference is checked before it is used, and one that does not hold is refused.
 *
 * Records name each other by the address they had when written (a strand's current op, a step's
 * op, an effect's step); restoring maps old addresses to new entries.
 *
 *   u32 strands, ops, steps, effects
 *   strand: u32 address, id, u32 current op (0: none), u32 has an epoch, i64 epoch
 *   op:     u32 address, id, u32 strand, u32 control, u32 finished, i64 maxAttempts, base, maxDelay
 *   step:   u32 address, u32 op, key, i64 attempt, u32 current effect (0: none), u32 status, i64 notBefore
 *   effect: u32 address, id, u32 live (0/1), and when live: u32 op, u32 step, u32 status,
 *           i64 attempt, intent's at, settlement's at, outputLimit, u32 has a request, request
 *   the report block, then each finding's subject and effect, and the unknown kind's text
 *   u32 stopped
 * An id, a key, a request or a text: u32 length, then its bytes, padded to 4.
 */

import { hashBytes } from "../hash";
import { reserve } from "../memory";
import { isWtf8 } from "../utf8";
import { keep } from "./alloc";
import {
  adoptStopped,
  FINDING_BYTES,
  FindingFlag,
  ILLEGAL_RECORDS_LISTED_MAX,
  report,
  REPORT_BYTES,
  REPORT_ILLEGAL_LIST,
  REPORT_ILLEGAL_LISTED,
  REPORT_INTEGRITY_COMPANION,
  REPORT_INTEGRITY_EXPECTED,
  REPORT_INTEGRITY_FIELD,
  REPORT_INTEGRITY_INDEX,
  REPORT_INTEGRITY_KIND_LENGTH,
  REPORT_INTEGRITY_KIND_POINTER,
  REPORT_INTEGRITY_PROBLEM,
  REPORT_INTEGRITY_REASON,
  REPORT_LIMIT,
  REPORT_RULES,
  stopped,
} from "./audit";
import { ENTRY_ID, ENTRY_ID_LENGTH, entryCount, forEachEntry, idHash } from "./ids";
import { Integrity, Problem } from "./integrity";
import { FieldType, FinishedOutcome, Kind, Path } from "./records";
import { Reason, Rule } from "./report";
import {
  cancel,
  Control,
  EFFECT_LIVE,
  EffectStatus,
  effectsTable,
  findEffect,
  findOp,
  findStep,
  findStrand,
  finishOp,
  LIVE_ATTEMPT,
  LIVE_HAS_REQUEST,
  LIVE_INTENT_AT,
  LIVE_OP,
  LIVE_OUTPUT_LIMIT,
  LIVE_REQUEST,
  LIVE_REQUEST_BYTES,
  LIVE_SETTLED_AT,
  LIVE_STATUS,
  LIVE_STEP,
  newOp,
  OP_BASE_DELAY,
  OP_CONTROL,
  OP_FINISHED,
  OP_MAX_ATTEMPTS,
  OP_MAX_DELAY,
  OP_STRAND,
  opsTable,
  outOfMemory,
  reserveEffect,
  reserveFinishedEffect,
  setEffectStatus,
  setStepStatus,
  setStrandEpoch,
  STEP_ATTEMPT,
  STEP_EFFECT,
  STEP_NOT_BEFORE,
  STEP_OP,
  STEP_STATUS,
  stepNamed,
  StepStatus,
  stepsTable,
  STRAND_CURRENT,
  STRAND_EPOCH,
  STRAND_HAS_EPOCH,
  strandNamed,
  strandsTable,
} from "./state";

export namespace Restored {
  export const OK: i32 = 0;
  /** The bytes are not a state this kernel wrote. */
  export const INVALID: i32 = 1;
  export const MEMORY: i32 = 2;
}

// ---------------------------------------------------------------------------------------------
// Writing: a measuring pass, then the same pass storing.

let cursor: usize = 0;
let storing = false;

function put32(value: u32): void {
  if (storing) store<u32>(cursor, value);
  cursor += 4;
}
function put64(value: i64): void {
  if (storing) store<i64>(cursor, value);
  cursor += 8;
}
function putBytes(pointer: usize, length: usize): void {
  put32(<u32>length);
  if (storing) memory.copy(cursor, pointer, length);
  cursor += (length + 3) & ~3;
}
function putId(entry: usize): void {
  putBytes(<usize>load<u32>(entry, ENTRY_ID), <usize>load<u32>(entry, ENTRY_ID_LENGTH));
}

let written: usize = 0;

/** The length of the state `snapshotState` wrote last. */
export function snapshotLength(): usize {
  return written;
}

/** Writes the state; its pointer, 0 when memory is exhausted (the length: `snapshotLength`). */
export function snapshotState(): usize {
  storing = false;
  cursor = 0;
  writeState();
  const bytes = cursor;
  const block = reserve(bytes);
  if (block == 0) return 0;
  storing = true;
  cursor = block;
  writeState();
  written = bytes;
  return block;
}

function writeState(): void {
  put32(entryCount(strandsTable));
  put32(entryCount(opsTable));
  put32(entryCount(stepsTable));
  put32(entryCount(effectsTable));
  forEachEntry(strandsTable, writeStrand);
  forEachEntry(opsTable, writeOp);
  forEachEntry(stepsTable, writeStep);
  forEachEntry(effectsTable, writeEffect);
  if (storing) memory.copy(cursor, report, REPORT_BYTES);
  cursor += REPORT_BYTES;
  forEachFinding(writeFindingTexts);
  if (load<i32>(report + REPORT_INTEGRITY_REASON) == Integrity.UNKNOWN_KIND) {
    putBytes(
      <usize>load<u32>(report + REPORT_INTEGRITY_KIND_POINTER),
      <usize>load<u32>(report + REPORT_INTEGRITY_KIND_LENGTH),
    );
  }
  put32(stopped ? 1 : 0);
}

function writeStrand(strand: usize): void {
  put32(<u32>strand);
  putId(strand);
  put32(load<u32>(strand, STRAND_CURRENT));
  put32(load<u32>(strand, STRAND_HAS_EPOCH));
  put64(load<i64>(strand, STRAND_EPOCH));
}

function writeOp(op: usize): void {
  put32(<u32>op);
  putId(op);
  put32(load<u32>(op, OP_STRAND));
  put32(load<u8>(op, OP_CONTROL));
  put32(load<u8>(op, OP_FINISHED));
  put64(load<i64>(op, OP_MAX_ATTEMPTS));
  put64(load<i64>(op, OP_BASE_DELAY));
  put64(load<i64>(op, OP_MAX_DELAY));
}

function writeStep(step: usize): void {
  put32(<u32>step);
  put32(load<u32>(step, STEP_OP));
  putId(step);
  put64(load<i64>(step, STEP_ATTEMPT));
  put32(load<u32>(step, STEP_EFFECT));
  put32(load<u8>(step, STEP_STATUS));
  put64(load<i64>(step, STEP_NOT_BEFORE));
}

function writeEffect(effect: usize): void {
  put32(<u32>effect);
  putId(effect);
  const live = <usize>load<u32>(effect, EFFECT_LIVE);
  put32(live != 0 ? 1 : 0);
  if (live == 0) return;
  put32(load<u32>(live, LIVE_OP));
  put32(load<u32>(live, LIVE_STEP));
  put32(load<u8>(live, LIVE_STATUS));
  put64(load<i64>(live, LIVE_ATTEMPT));
  put64(load<i64>(live, LIVE_INTENT_AT));
  put64(load<i64>(live, LIVE_SETTLED_AT));
  put64(load<i64>(live, LIVE_OUTPUT_LIMIT));
  const hasRequest = load<u8>(live, LIVE_HAS_REQUEST) != 0;
  put32(hasRequest ? 1 : 0);
  if (hasRequest) putBytes(<usize>load<u32>(live, LIVE_REQUEST), <usize>load<u32>(live, LIVE_REQUEST_BYTES));
}

/** Each finding the report holds: its rules' first breaches, then the listed illegal records. */
function forEachFinding(visit: (finding: usize) => bool): bool {
  for (let rule = 0; rule < Rule.COUNT; rule++) {
    const finding = report + REPORT_RULES + <usize>rule * FINDING_BYTES;
    if (load<f64>(finding) >= 0 && !visit(finding)) return false;
  }
  const listed = load<i32>(report + REPORT_ILLEGAL_LISTED);
  for (let i = 0; i < listed; i++) {
    if (!visit(report + REPORT_ILLEGAL_LIST + <usize>i * FINDING_BYTES)) return false;
  }
  return true;
}

function writeFindingTexts(finding: usize): bool {
  putBytes(<usize>load<u32>(finding, 24), <usize>load<u32>(finding, 28));
  putBytes(<usize>load<u32>(finding, 32), <usize>load<u32>(finding, 36));
  return true;
}

// ---------------------------------------------------------------------------------------------
// Reading, every step checked: a failed read leaves `readFailed` set and answers 0.

let readAt: usize = 0;
let readEnd: usize = 0;
let readFailed = false;
let bytesAt: usize = 0;
let bytesLength: usize = 0;

function get32(): u32 {
  if (readEnd - readAt < 4) {
    readFailed = true;
    return 0;
  }
  const value = load<u32>(readAt);
  readAt += 4;
  return value;
}
function get64(): i64 {
  if (readEnd - readAt < 8) {
    readFailed = true;
    return 0;
  }
  const value = load<i64>(readAt);
  readAt += 8;
  return value;
}
/** Reads a length and its bytes into `bytesAt` / `bytesLength`. */
function getBytes(): bool {
  const length = <usize>get32();
  const padded = (length + 3) & ~3;
  if (readFailed || padded < length || readEnd - readAt < padded) {
    readFailed = true;
    return false;
  }
  bytesAt = readAt;
  bytesLength = length;
  readAt += padded;
  return true;
}

/**
 * Old addresses to new entries: open addressing over u32 pairs, keyed SipHash of the address.
 * An entry is 8-aligned, so its low bits hold what it is: an address of one kind never stands
 * for an entry of another.
 */
namespace Entry {
  export const STRAND: u32 = 0;
  export const OP: u32 = 1;
  export const STEP: u32 = 2;
  export const EFFECT: u32 = 3;
}
let mapSlots: usize = 0;
let mapMask: u32 = 0;
const addressScratch = memory.data(8, 8);

function addressHash(address: u32): u32 {
  store<u32>(addressScratch, address);
  return <u32>hashBytes(addressScratch, 4);
}

function createMap(entries: u64): bool {
  let capacity: u64 = 16;
  while (capacity < entries * 2) capacity <<= 1;
  if (capacity > 1 << 30) return false;
  mapSlots = reserve(<usize>capacity * 8);
  if (mapSlots == 0) return false;
  memory.fill(mapSlots, 0, <usize>capacity * 8);
  mapMask = <u32>capacity - 1;
  return true;
}

/** Notes old → new; false when the old address is 0 or already taken. */
function remember(old: u32, entry: usize, kind: u32): bool {
  if (old == 0) return false;
  let i = addressHash(old) & mapMask;
  while (true) {
    const at = mapSlots + <usize>i * 8;
    const key = load<u32>(at);
    if (key == old) return false;
    if (key == 0) {
      store<u32>(at, old);
      store<u32>(at, <u32>entry | kind, 4);
      return true;
    }
    i = (i + 1) & mapMask;
  }
  return false;
}

/** The new entry of this kind for an old address, or 0. */
function recall(old: u32, kind: u32): usize {
  if (old == 0) return 0;
  let i = addressHash(old) & mapMask;
  while (true) {
    const at = mapSlots + <usize>i * 8;
    const key = load<u32>(at);
    if (key == old) {
      const value = load<u32>(at, 4);
      return (value & 7) == kind ? <usize>(value & ~7) : 0;
    }
    if (key == 0) return 0;
    i = (i + 1) & mapMask;
  }
  return 0;
}

/** A room the host writes a snapshot's state into; 0 when memory is exhausted. */
export function restoreRoom(bytes: usize): usize {
  return reserve(bytes);
}

/** Lays the state at [pointer, pointer + length) into the journal `beginJsonl` just began. */
export function restoreState(pointer: usize, length: usize): i32 {
  readAt = pointer;
  readEnd = pointer + length;
  readFailed = false;
  const strands = get32();
  const ops = get32();
  const steps = get32();
  const effects = get32();
  // Every record takes at least 8 bytes: counts beyond that are not this kernel's.
  const records = <u64>strands + <u64>ops + <u64>steps + <u64>effects;
  if (readFailed || records * 8 > <u64>length) return Restored.INVALID;
  if (!createMap(records)) return Restored.MEMORY;
  // A strand names its current op, and a step its current effect, before they are restored:
  // each such reference waits here as (new entry, old address) until its target is there.
  const currentOps = reserve(<usize>strands * 8);
  const currentEffects = reserve(<usize>steps * 8);
  if (currentOps == 0 || currentEffects == 0) return Restored.MEMORY;
  for (let i: u32 = 0; i < strands; i++) if (!restoreStrand(currentOps + <usize>i * 8)) return failure();
  for (let i: u32 = 0; i < ops; i++) if (!restoreOp()) return failure();
  for (let i: u32 = 0; i < strands; i++) if (!adoptCurrentOp(currentOps + <usize>i * 8)) return failure();
  for (let i: u32 = 0; i < steps; i++) if (!restoreStep(currentEffects + <usize>i * 8)) return failure();
  for (let i: u32 = 0; i < effects; i++) if (!restoreEffect()) return failure();
  for (let i: u32 = 0; i < steps; i++) if (!adoptStepEffect(currentEffects + <usize>i * 8)) return failure();
  if (!restoreReport()) return failure();
  const wasStopped = get32();
  if (readFailed || wasStopped > 1 || readAt != readEnd) return Restored.INVALID;
  adoptStopped(wasStopped == 1);
  return Restored.OK;
}

function failure(): i32 {
  return outOfMemory ? Restored.MEMORY : Restored.INVALID;
}

/** Restores a strand; its current op's old address waits at `pending` (see restoreState). */
function restoreStrand(pending: usize): bool {
  const old = get32();
  if (!getBytes()) return false;
  const id = bytesAt;
  const idLength = bytesLength;
  const current = get32();
  const hasEpoch = get32();
  const epoch = get64();
  if (readFailed || hasEpoch > 1) return false;
  const hash = idHash(id, idLength);
  if (findStrand(id, idLength, hash) != 0) return false; // the same id twice
  const strand = strandNamed(id, idLength, hash);
  if (strand == 0) return false;
  if (hasEpoch == 1) setStrandEpoch(strand, epoch);
  store<u32>(pending, <u32>strand);
  store<u32>(pending, current, 4);
  return remember(old, strand, Entry.STRAND);
}

function adoptCurrentOp(pending: usize): bool {
  const strand = <usize>load<u32>(pending);
  const current = load<u32>(pending, 4);
  if (current == 0) return true;
  const op = recall(current, Entry.OP);
  // A strand's current op is one of its running ops.
  if (op == 0 || load<u8>(op, OP_FINISHED) != 0 || <usize>load<u32>(op, OP_STRAND) != strand) return false;
  store<u32>(strand, <u32>op, STRAND_CURRENT);
  return true;
}

function restoreOp(): bool {
  const old = get32();
  if (!getBytes()) return false;
  const id = bytesAt;
  const idLength = bytesLength;
  const strand = recall(get32(), Entry.STRAND);
  const control = get32();
  const finished = get32();
  const maxAttempts = get64();
  const base = get64();
  const maxDelay = get64();
  if (readFailed || strand == 0 || control > 1 || finished > <u32>FinishedOutcome.ABORTED + 1) return false;
  if (maxAttempts < 0 || base < 0 || maxDelay < 0) return false;
  const hash = idHash(id, idLength);
  if (findOp(id, idLength, hash) != 0) return false;
  const op = newOp(id, idLength, hash, strand, maxAttempts, base, maxDelay);
  if (op == 0) return false;
  if (control == Control.CANCELLED) cancel(op);
  if (finished != 0) finishOp(op, <i32>finished - 1);
  return remember(old, op, Entry.OP);
}

/** Restores a step; its current effect's old address waits at `pending` (see restoreState). */
function restoreStep(pending: usize): bool {
  const old = get32();
  const op = recall(get32(), Entry.OP);
  if (!getBytes()) return false;
  const key = bytesAt;
  const keyLength = bytesLength;
  const attempt = get64();
  const effect = get32();
  const status = get32();
  const notBefore = get64();
  if (readFailed || op == 0 || load<u8>(op, OP_FINISHED) != 0) return false;
  if (status != 0xff && status >= <u32>StepStatus.COUNT) return false;
  const keyHash = idHash(key, keyLength);
  if (findStep(op, key, keyLength, keyHash) != 0) return false;
  const step = stepNamed(op, key, keyLength, keyHash);
  if (step == 0) return false;
  store<i64>(step, attempt, STEP_ATTEMPT);
  store<i64>(step, notBefore, STEP_NOT_BEFORE);
  if (status != 0xff) setStepStatus(step, <u8>status);
  store<u32>(pending, <u32>step);
  store<u32>(pending, effect, 4);
  return remember(old, step, Entry.STEP);
}

function adoptStepEffect(pending: usize): bool {
  const step = <usize>load<u32>(pending);
  const effect = load<u32>(pending, 4);
  if (effect == 0) return true;
  const entry = recall(effect, Entry.EFFECT);
  if (entry == 0) return false;
  store<u32>(step, <u32>entry, STEP_EFFECT);
  return true;
}

function restoreEffect(): bool {
  const old = get32();
  if (!getBytes()) return false;
  const id = bytesAt;
  const idLength = bytesLength;
  const isLive = get32();
  if (readFailed || isLive > 1) return false;
  const hash = idHash(id, idLength);
  if (findEffect(id, idLength, hash) != 0) return false;
  if (isLive == 0) {
    const entry = reserveFinishedEffect(id, idLength, hash);
    return entry != 0 && remember(old, entry, Entry.EFFECT);
  }
  const op = recall(get32(), Entry.OP);
  const step = recall(get32(), Entry.STEP);
  const status = get32();
  const attempt = get64();
  const intentAt = get64();
  const settledAt = get64();
  const outputLimit = get64();
  const hasRequest = get32();
  if (readFailed || hasRequest > 1 || status > <u32>EffectStatus.RESOLVED) return false;
  // A live effect belongs to a running op, and its step to the same op.
  if (op == 0 || load<u8>(op, OP_FINISHED) != 0 || step == 0 || <usize>load<u32>(step, STEP_OP) != op) return false;
  let provider: usize = 0, providerLength: usize = 0, model: usize = 0, modelLength: usize = 0;
  let api: usize = 0, apiLength: usize = 0;
  if (hasRequest == 1) {
    if (!getBytes() || bytesLength < 12) return false;
    providerLength = <usize>load<u32>(bytesAt);
    modelLength = <usize>load<u32>(bytesAt, 4);
    apiLength = <usize>load<u32>(bytesAt, 8);
    if (<u64>12 + <u64>providerLength + <u64>modelLength + <u64>apiLength != <u64>bytesLength) return false;
    provider = bytesAt + 12;
    model = provider + providerLength;
    api = model + modelLength;
  }
  const live = reserveEffect(
    op, id, idLength, hash, hasRequest == 1, provider, providerLength, model, modelLength, api, apiLength,
  );
  if (live == 0) return false;
  store<u32>(live, <u32>step, LIVE_STEP);
  store<i64>(live, attempt, LIVE_ATTEMPT);
  store<i64>(live, intentAt, LIVE_INTENT_AT);
  store<i64>(live, settledAt, LIVE_SETTLED_AT);
  store<i64>(live, outputLimit, LIVE_OUTPUT_LIMIT);
  setEffectStatus(live, <u8>status);
  return remember(old, <usize>load<u32>(live), Entry.EFFECT);
}

function restoreReport(): bool {
  if (readEnd - readAt < REPORT_BYTES) return false;
  memory.copy(report, readAt, REPORT_BYTES);
  readAt += REPORT_BYTES;
  const listed = load<i32>(report + REPORT_ILLEGAL_LISTED);
  if (listed < 0 || listed > ILLEGAL_RECORDS_LISTED_MAX) return false;
  const limit = load<i32>(report + REPORT_LIMIT);
  if (limit < 0 || limit > 2) return false;
  if (!integrityHolds()) return false;
  const integrity = load<i32>(report + REPORT_INTEGRITY_REASON);
  if (!forEachFinding(restoreFinding)) return false;
  if (integrity == Integrity.UNKNOWN_KIND) {
    if (!getBytes() || !isWtf8(bytesAt, bytesAt + bytesLength)) return false;
    const copy = keep(bytesLength);
    if (copy == 0) return false;
    memory.copy(copy, bytesAt, bytesLength);
    store<u32>(report + REPORT_INTEGRITY_KIND_POINTER, <u32>copy);
    store<u32>(report + REPORT_INTEGRITY_KIND_LENGTH, <u32>bytesLength);
  }
  return true;
}

/** An integrity fault is there exactly when its reason is, with every code in its range. */
function integrityHolds(): bool {
  const reason = load<i32>(report + REPORT_INTEGRITY_REASON);
  const index = load<f64>(report + REPORT_INTEGRITY_INDEX);
  if (reason == Integrity.NONE) return index == -1;
  if (reason != Integrity.MALFORMED_EVENT && reason != Integrity.UNKNOWN_KIND) return false;
  if (!(index >= 0)) return false;
  // Texts are restored apart; until then the fault holds none.
  store<u32>(report + REPORT_INTEGRITY_KIND_POINTER, 0);
  store<u32>(report + REPORT_INTEGRITY_KIND_LENGTH, 0);
  if (reason == Integrity.UNKNOWN_KIND) return true;
  const problem = load<i32>(report + REPORT_INTEGRITY_PROBLEM);
  const field = load<i32>(report + REPORT_INTEGRITY_FIELD);
  const expected = load<i32>(report + REPORT_INTEGRITY_EXPECTED);
  const companion = load<i32>(report + REPORT_INTEGRITY_COMPANION);
  return (
    problem >= Problem.INVALID_UTF8 && problem <= Problem.WITHOUT_COMPANION &&
    field >= Path.NONE && field < Path.COUNT && companion >= Path.NONE && companion < Path.COUNT &&
    expected >= FieldType.STRING && expected <= FieldType.HANDLE
  );
}

function restoreFinding(finding: usize): bool {
  const kind = load<i32>(finding, 16);
  const reason = load<i32>(finding, 20);
  const flags = load<i32>(finding, 40);
  if (kind < Kind.ACCEPTED || kind > Kind.LEASE || reason < 0 || reason > Reason.OUTCOME_MISMATCH) return false;
  if (flags < 0 || flags > (FindingFlag.STRAND | FindingFlag.EFFECT)) return false;
  return adoptText(finding, 24) && adoptText(finding, 32);
}

/** Copies the next text (WTF-8, as the kernel wrote it) into kept memory and points the finding's field at `offset` to it. */
function adoptText(finding: usize, offset: usize): bool {
  if (!getBytes() || !isWtf8(bytesAt, bytesAt + bytesLength)) return false;
  const copy = keep(bytesLength);
  if (copy == 0) return false;
  memory.copy(copy, bytesAt, bytesLength);
  store<u32>(finding + offset, <u32>copy);
  store<u32>(finding + offset + 4, <u32>bytesLength);
  return true;
}
