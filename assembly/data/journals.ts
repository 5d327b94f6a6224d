/**
 * A stream split into journals by `journal.key` (docs/models/data.md, "A stream of journals"),
 * audited in one pass. Each journal's state — its report block (report.ts), its fold's blocks and
 * place (fold.ts), its instance tables (instances.ts) — lives where every journal's does; a
 * journal's *context* is a small block holding the pointers and scalars that say which, and the
 * one being folded is the one whose values the modules' globals hold. A record's key field is read
 * in its one scan like any field (`JournalWord.KEY_FIELD` is one of the fields every record is
 * checked on); the key finds its context in a SipHash table (instances.ts's `keyHash`: an int and
 * a string never equal), and moving to another journal saves the globals into the context left
 * and loads the other's — a few words, no block is copied. Journals are listed in order of first
 * appearance.
 *
 * The first context is laid out when the stream begins (lines.ts `beginJournal`) and is bound to
 * the first key routed; while it is unbound no journal began, and its empty report is the
 * stream's one, `journal: null`.
 *
 * What belongs to the stream is written into every journal's report: a torn tail, and an integrity
 * error (a line that is not a record, a record whose key is absent or of another type), which
 * stops every journal at once — each journal's integrity index is its own count of records, its
 * line the file's — and leaves no `atEnd` finding. The memory limit stops the stream as it stops
 * an unsplit journal: the host's call fails with the memory error, naming the file and the line
 * where memory ran out, and no journal is reported (a report of some journals would pass for the
 * whole stream's).
 *
 * A context, CONTEXT_BYTES:
 *   0   u64 its key's hash   8  its key (a kept value cell; absent while the first is unbound)
 *   24  the report's part   28 the instances' part   48 the fold's part
 */

import { Limit } from "../jsonl";
import { allocate, release } from "./alloc";
import { finishFold, FOLD_CONTEXT_BYTES, loadFoldContext, newJournalFold, saveFoldContext } from "./fold";
import { INSTANCES_CONTEXT_BYTES, isKey, keyHash, loadInstancesContext, resetInstances, saveInstancesContext } from "./instances";
import { JournalWord, TableHeader, ValueTag, word } from "./layout";
import { fieldCell, Problem } from "./record";
import {
  countEvent,
  limitReached,
  loadReportContext,
  newJournalReport,
  noteIntegrityFault,
  noteTornTail,
  report,
  REPORT_CONTEXT_BYTES,
  REPORT_EVENTS,
  saveReportContext,
  stopAtLimit,
} from "./report";
import { keepValue, setAbsent, tagOf, valuesEqual } from "./values";

const CONTEXT_HASH: usize = 0;
const CONTEXT_KEY: usize = 8;
const CONTEXT_REPORT: usize = 24;
const CONTEXT_INSTANCES: usize = CONTEXT_REPORT + REPORT_CONTEXT_BYTES;
const CONTEXT_FOLD: usize = (CONTEXT_INSTANCES + INSTANCES_CONTEXT_BYTES + 7) & ~7;
const CONTEXT_BYTES: usize = CONTEXT_FOLD + FOLD_CONTEXT_BYTES;

/** The field that splits the stream; -1 when the stream is one journal. */
let keyField: i32 = -1;
/** Whether the stream is split (read on every record: one branch for an unsplit one). */
export let splitting = false;
/** The contexts in order of first appearance (u32 each). */
let contexts: usize = 0;
let contextCount: u32 = 0;
let contextCapacity: u32 = 0;
/** Whether the first context is bound to a key (false: no journal began yet). */
let firstBound = false;
/** The context whose state the globals hold. */
let active: usize = 0;
/** Contexts by key: linear probing over u32 context pointers (0: empty). */
let table: usize = 0;
let tableCapacity: u32 = 0;

const INITIAL_CONTEXTS: u32 = 4;
const INITIAL_TABLE: u32 = 16;

/**
 * A new stream: split when the model names a key field; then its first context holds the journal
 * state just laid out. False when memory is exhausted.
 */
export function resetJournals(): bool {
  keyField = word(word(TableHeader.JOURNAL_AT) + JournalWord.KEY_FIELD);
  splitting = keyField >= 0;
  contextCount = 0;
  firstBound = false;
  active = 0;
  if (!splitting) return true;
  contexts = allocate(<usize>INITIAL_CONTEXTS * 4);
  table = allocate(<usize>INITIAL_TABLE * 4);
  if (contexts == 0 || table == 0) return false;
  contextCapacity = INITIAL_CONTEXTS;
  tableCapacity = INITIAL_TABLE;
  memory.fill(table, 0, <usize>INITIAL_TABLE * 4);
  return addContext();
}

/** A context for the journal state the globals hold, appended to the list and made active. */
function addContext(): bool {
  if (contextCount == contextCapacity) {
    const grown = allocate(<usize>contextCapacity * 8);
    if (grown == 0) return false;
    memory.copy(grown, contexts, <usize>contextCount * 4);
    release(contexts, <usize>contextCapacity * 4);
    contexts = grown;
    contextCapacity <<= 1;
  }
  const context = allocate(CONTEXT_BYTES);
  if (context == 0) return false;
  setAbsent(context + CONTEXT_KEY);
  store<u32>(contexts + (<usize>contextCount << 2), <u32>context);
  contextCount++;
  active = context;
  saveContext(context);
  return true;
}

function saveContext(context: usize): void {
  saveReportContext(context + CONTEXT_REPORT);
  saveInstancesContext(context + CONTEXT_INSTANCES);
  saveFoldContext(context + CONTEXT_FOLD);
}

function loadContext(context: usize): void {
  loadReportContext(context + CONTEXT_REPORT);
  loadInstancesContext(context + CONTEXT_INSTANCES);
  loadFoldContext(context + CONTEXT_FOLD);
  active = context;
}

function use(context: usize): void {
  if (context == active) return;
  saveContext(active);
  loadContext(context);
}

// @ts-expect-error: decorator
@inline
function contextAt(journal: u32): usize {
  return <usize>load<u32>(contexts + (<usize>journal << 2));
}

/**
 * Routes the record whose fields are read to its key's journal, making it the active one: its
 * index in that journal, or -1 when the stream stopped here (no key: an integrity error; no
 * memory: the limit).
 */
export function enterJournal(line: f64): f64 {
  const key = fieldCell(keyField);
  if (!isKey(key)) {
    stopStreamAtIntegrityFault(line, Problem.NO_JOURNAL_KEY, keyField);
    return -1;
  }
  const hash = keyHash(key);
  const found = findContext(key, hash);
  if (found != 0) use(found);
  else if (!openJournal(key, hash)) {
    stopAtLimit(Limit.MEMORY, line);
    return -1;
  }
  return countEvent();
}

function findContext(key: usize, hash: u64): usize {
  const mask = <usize>tableCapacity - 1;
  let at = <usize>hash & mask;
  while (true) {
    const context = <usize>load<u32>(table + (at << 2));
    if (context == 0) return 0;
    if (load<u64>(context, CONTEXT_HASH) == hash && valuesEqual(context + CONTEXT_KEY, key)) return context;
    at = (at + 1) & mask;
  }
  return 0;
}

/**
 * The journal of a key not seen before, made active: the first context when no journal began,
 * else a new one laid out as a journal begins. False when memory is exhausted (the journal left
 * active then, so the limit is written where the host reads it).
 */
function openJournal(key: usize, hash: u64): bool {
  if ((contextCount + 1) * 4 > tableCapacity * 3 && !growTable()) return false;
  if (firstBound) {
    const left = active;
    saveContext(left);
    if (!newJournalReport() || !resetInstances() || !newJournalFold() || !addContext()) {
      loadContext(left);
      return false;
    }
  }
  firstBound = true;
  return bindKey(active, key, hash);
}

function bindKey(context: usize, key: usize, hash: u64): bool {
  if (!keepValue(context + CONTEXT_KEY, key)) return false;
  store<u64>(context, hash, CONTEXT_HASH);
  insert(table, <usize>tableCapacity - 1, context);
  return true;
}

function insert(into: usize, mask: usize, context: usize): void {
  let at = <usize>load<u64>(context, CONTEXT_HASH) & mask;
  while (load<u32>(into + (at << 2)) != 0) at = (at + 1) & mask;
  store<u32>(into + (at << 2), <u32>context);
}

function growTable(): bool {
  const capacity = <usize>tableCapacity << 1;
  const grown = allocate(capacity * 4);
  if (grown == 0) return false;
  memory.fill(grown, 0, capacity * 4);
  for (let journal: u32 = 0; journal < contextCount; journal++) {
    const context = contextAt(journal);
    if (tagOf(context + CONTEXT_KEY) != ValueTag.ABSENT) insert(grown, capacity - 1, context);
  }
  release(table, <usize>tableCapacity * 4);
  table = grown;
  tableCapacity = <u32>capacity;
  return true;
}

/** The stream's integrity error: in every journal's report, at its own count of records. */
export function stopStreamAtIntegrityFault(line: f64, problem: i32, field: i32): void {
  for (let journal: u32 = 0; journal < contextCount; journal++) {
    const block = <usize>load<u32>(contextAt(journal) + CONTEXT_REPORT);
    noteIntegrityFault(block, load<f64>(block + REPORT_EVENTS), line, problem, field);
  }
}

/** The stream's torn tail, in every journal's report. */
export function noteStreamTornTail(line: f64, offset: f64): void {
  for (let journal: u32 = 0; journal < contextCount; journal++) {
    noteTornTail(<usize>load<u32>(contextAt(journal) + CONTEXT_REPORT), line, offset);
  }
}

/**
 * The end of the stream: each journal's instances open at its end (none after an integrity
 * error). Returns a Limit code; a limit leaves its journal active, where the host reads it.
 */
export function finishJournals(): i32 {
  for (let journal: u32 = 0; journal < contextCount; journal++) {
    use(contextAt(journal));
    finishFold();
    if (limitReached() != Limit.NONE) break;
  }
  return limitReached();
}

/** How many reports the stream has: a journal's each (one, `journal: null`, when none began). */
export function journalCount(): u32 {
  return splitting ? contextCount : 1;
}

/** Makes journal `journal` (in order of first appearance) the one whose report the host reads. */
export function useJournal(journal: u32): void {
  if (splitting && journal < contextCount) use(contextAt(journal));
}

/** The active journal's key cell (absent when no journal began); 0 when the stream is not split. */
export function journalKeyPointer(): usize {
  return splitting ? active + CONTEXT_KEY : 0;
}

/** The active journal's place in order of first appearance (a snapshot goes back to it). */
export function activeJournal(): u32 {
  let journal: u32 = 0;
  while (journal < contextCount && contextAt(journal) != active) journal++;
  return journal;
}

/**
 * A snapshot's journal `journal` (snapshot.ts), restored in order, its key read: made active, to
 * read its state into. False when the key cannot be this journal's (the first may be unbound —
 * no journal began —, every other must be a new int or string key) or memory is exhausted.
 */
export function restoreJournal(journal: u32, key: usize): bool {
  if (journal == 0 && tagOf(key) == ValueTag.ABSENT) return true;
  if (!isKey(key) || (journal > 0) != firstBound) return false;
  const hash = keyHash(key);
  return findContext(key, hash) == 0 && openJournal(key, hash);
}
