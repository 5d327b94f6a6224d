/**
 * An `executive` journal's header read in the kernel (the reference reads it with `readSpec`,
 * src/models/executive/spec.ts; the host packs what passed in bindings/executive/pack-spec.ts):
 * the spec and the budget of the header line ../header.ts validated, checked and packed straight
 * into the layout spec.ts reads — a spec of 10⁵ steps is megabytes of JSON that the host would
 * otherwise parse into objects, check and pack before the first line.
 *
 * Only the plain case is read here, one that `readSpec` accepts: every key of the spec, its plans,
 * steps and budgets written without escapes, known to its object and there once; the task, ids
 * and deps strings without escapes (their UTF-8 bytes are then their WTF-8 bytes, and byte order
 * is code-point order); budget values and `checkpointEvery` written as plain digits; the bounds
 * of docs/models/executive.md held; and each plan a DAG (no duplicate id, no dangling dependency,
 * no cycle). Anything else answers false, and the host reads the line with the reference reader,
 * which gives the exact verdict or the path of what it refuses.
 */

import { headerInput, headerLength, HeaderModel, headerRead, isPlainHeaderWith, Member, memberValueEnd, memberValueStart } from "../header";
import { CharCode, isName, scanString, scannedEscape, skipWhitespace } from "../json";
import { reserve, resetAll } from "../memory";
import { CHILD_BUDGET_BYTES, HEADER_BYTES, Kind, Limit, reserveSpec, SCALARS_BYTES, Step } from "./spec";

/** Bounds of docs/models/executive.md, "Spec and budget" (src/models/executive/spec.ts). */
const TASK_BYTES_MAX: usize = 4096;
const ID_BYTES_MAX: usize = 1024;
const DEPS_MAX: u32 = 1024;
const SPEC_STEPS_MAX: u32 = 100_000;
const PLAN_NESTING_MAX: i32 = 64;
const BUDGET_VALUE_MAX: u64 = 1 << 52;
const SAFE_INTEGER_MAX: u64 = (1 << 53) - 1;

/** A step as the walk meets it, in document order (u32 fields). */
namespace Walked {
  export const PLAN: usize = 0;
  export const LOCAL: usize = 4;
  export const KIND: usize = 8;
  export const SUB_PLAN: usize = 12;
  export const ID_START: usize = 16;
  export const ID_LENGTH: usize = 20;
  export const DEPS_START: usize = 24;
  export const DEPS_COUNT: usize = 28;
  export const BUDGET: usize = 32;
  export const BYTES: usize = 36;
}

const NONE: u32 = 0xffffffff;

// What the walk gathers: steps, plans' step counts, dep names, child budgets, the root scalars.
let walkedSteps: usize = 0;
let stepCount: u32 = 0;
let stepRoom: u32 = 0;
let planSteps: usize = 0;
let planCount: u32 = 0;
let depRefs: usize = 0;
let depRefCount: u32 = 0;
let depRoom: u32 = 0;
let childBudgets: usize = 0;
let childBudgetCount: u32 = 0;
let idByteCount: usize = 0;
/** checkpointEvery (-1 when absent), depth, then the root limits in Limit order. */
const scalars = memory.data(<i32>SCALARS_BYTES, 8);

/**
 * Checks and packs the spec and budget of the `executive` header written at `prepareHeader`'s
 * pointer, leaving the packed spec at the bottom of memory where `reserveSpec` puts one; false
 * (and memory is dropped) when the host must read the header.
 */
export function packHeaderSpec(): bool {
  const packed = isPlainHeaderWith(HeaderModel.EXECUTIVE, Member.SPEC) && isPlainHeaderWith(HeaderModel.EXECUTIVE, Member.BUDGET) && walkAndPack();
  headerRead();
  if (!packed) resetAll();
  return packed;
}

function walkAndPack(): bool {
  const end = headerInput + headerLength;
  // Room by what the line can hold: a step takes more than 16 bytes, a dep name at least 3.
  stepRoom = <u32>min<usize>(<usize>SPEC_STEPS_MAX, headerLength >> 4) + 1;
  depRoom = <u32>(headerLength / 3) + 1;
  walkedSteps = reserve(<usize>stepRoom * Walked.BYTES);
  planSteps = reserve(<usize>(stepRoom + 1) << 2);
  depRefs = reserve(<usize>depRoom << 3);
  childBudgets = reserve(<usize>stepRoom * CHILD_BUDGET_BYTES);
  if (walkedSteps == 0 || planSteps == 0 || depRefs == 0 || childBudgets == 0) return false;
  stepCount = 0;
  planCount = 0;
  depRefCount = 0;
  childBudgetCount = 0;
  idByteCount = 0;
  store<f64>(scalars, -1);
  return walkSpec(memberValueStart(Member.SPEC), end) && walkRootBudget(memberValueStart(Member.BUDGET), end) && pack();
}

// ---------------------------------------------------------------------------------------------
// The walk: the member values are valid JSON (the line's scan said so); only their shape is read.

/** The member names the walk knows, at every level. */
namespace Key {
  export const TASK: i32 = 0;
  export const PLAN: i32 = 1;
  export const CHECKPOINT_EVERY: i32 = 2;
  export const STEPS: i32 = 3;
  export const ID: i32 = 4;
  export const DEPS: i32 = 5;
  export const EFFECT: i32 = 6;
  export const BUDGET: i32 = 7;
  export const DEPTH: i32 = 8;
  /** The limits but `steps` (Key.STEPS) follow, in Limit order: LIMITS + Limit.MODEL_CALLS ... */
  export const LIMITS: i32 = 9;
}

/** The limit a budget's key names (`steps` a plan's key too), or -1. */
function limitOf(key: i32): i32 {
  if (key == Key.STEPS) return Limit.STEPS;
  return key > Key.LIMITS ? key - Key.LIMITS : -1;
}

/** The key of [start, end) (a key without escapes) as a Key code; -1 when it is none of them. */
function keyOf(start: usize, length: usize): i32 {
  switch (<i32>length) {
    case 2:
      return isName(start, length, "id") ? Key.ID : -1;
    case 4:
      if (isName(start, length, "task")) return Key.TASK;
      if (isName(start, length, "plan")) return Key.PLAN;
      return isName(start, length, "deps") ? Key.DEPS : -1;
    case 5:
      if (isName(start, length, "steps")) return Key.STEPS;
      return isName(start, length, "depth") ? Key.DEPTH : -1;
    case 6:
      if (isName(start, length, "effect")) return Key.EFFECT;
      return isName(start, length, "budget") ? Key.BUDGET : -1;
    case 7:
      return isName(start, length, "retries") ? Key.LIMITS + Limit.RETRIES : -1;
    case 8:
      return isName(start, length, "deadline") ? Key.LIMITS + Limit.DEADLINE : -1;
    case 9:
      return isName(start, length, "toolCalls") ? Key.LIMITS + Limit.TOOL_CALLS : -1;
    case 10:
      if (isName(start, length, "modelCalls")) return Key.LIMITS + Limit.MODEL_CALLS;
      return isName(start, length, "contextOps") ? Key.LIMITS + Limit.CONTEXT_OPS : -1;
    case 11:
      return isName(start, length, "outputBytes") ? Key.LIMITS + Limit.OUTPUT_BYTES : -1;
    case 15:
      return isName(start, length, "checkpointEvery") ? Key.CHECKPOINT_EVERY : -1;
  }
  return -1;
}

/** Set by `nextMember`: the member's key (a Key code, -1 unknown) and where its value starts. */
let memberKey: i32 = -1;
let memberValue: usize = 0;

/** Reads the member at `at` (a key's opening quote); false when its key holds an escape. */
function nextMember(at: usize, end: usize): bool {
  const keyEnd = scanString(at, end);
  if (scannedEscape) return false;
  memberKey = keyOf(at + 1, keyEnd - 1 - (at + 1));
  memberValue = skipWhitespace(skipWhitespace(keyEnd, end) + 1, end);
  return true;
}

/** Given one past the value just walked: the next member's key, or 0 after the object's last. */
function afterMember(at: usize, end: usize): usize {
  at = skipWhitespace(at, end);
  if (<u32>load<u8>(at) == CharCode.CLOSE_BRACE) return 0;
  return skipWhitespace(at + 1, end);
}

/** The first member's key of the object at `at`, or 0 when it is empty. */
function firstMember(at: usize, end: usize): usize {
  at = skipWhitespace(at + 1, end);
  return <u32>load<u8>(at) == CharCode.CLOSE_BRACE ? 0 : at;
}

/** One past the object at `at`, given one past its last member's value. */
function closeOf(at: usize, end: usize): usize {
  return skipWhitespace(at, end) + 1;
}

/** One past the string at `at`, or 0 when the value there is no string or holds an escape. */
function plainString(at: usize, end: usize): usize {
  if (<u32>load<u8>(at) != CharCode.QUOTE) return 0;
  const after = scanString(at, end);
  return scannedEscape ? 0 : after;
}

/** Whether `key` is not yet in the mask `seen` of an object's keys (else it is a duplicate). */
// @ts-expect-error: decorator
@inline
function firstSight(seen: u32, key: i32): bool {
  return (seen & (1 << key)) == 0;
}

/** The spec object at `at`: `task`, `plan`, `checkpointEvery`. */
function walkSpec(at: usize, end: usize): bool {
  if (<u32>load<u8>(at) != CharCode.OPEN_BRACE) return false;
  let seen: u32 = 0;
  let member = firstMember(at, end);
  while (member != 0) {
    if (!nextMember(member, end)) return false;
    const key = memberKey;
    if (key < 0 || !firstSight(seen, key)) return false;
    seen |= 1 << key;
    const value = memberValue;
    let after: usize = 0;
    if (key == Key.TASK) {
      after = plainString(value, end);
      if (after == 0 || after - value - 2 > TASK_BYTES_MAX) return false;
    } else if (key == Key.PLAN) {
      after = walkPlan(value, end, 1);
    } else if (key == Key.CHECKPOINT_EVERY) {
      const every = plainInteger(value, end);
      if (every < 1 || every > <i64>SAFE_INTEGER_MAX) return false;
      store<f64>(scalars, <f64>every);
      after = integerEnd;
    } else {
      return false;
    }
    if (after == 0) return false;
    member = afterMember(after, end);
  }
  return (seen & (1 << Key.TASK)) != 0 && (seen & (1 << Key.PLAN)) != 0;
}

/** The plan object at `at`, `nesting` deep (the root plan 1): its `steps`. One past it, or 0. */
function walkPlan(at: usize, end: usize, nesting: i32): usize {
  if (nesting > PLAN_NESTING_MAX || <u32>load<u8>(at) != CharCode.OPEN_BRACE) return 0;
  const plan = planCount++;
  store<u32>(planSteps + (<usize>plan << 2), 0);
  let member = firstMember(at, end);
  if (member == 0) return 0;
  let after: usize = 0;
  let stepsSeen = false;
  while (member != 0) {
    if (!nextMember(member, end) || memberKey != Key.STEPS || stepsSeen) return 0;
    stepsSeen = true;
    after = walkSteps(memberValue, end, plan, nesting);
    if (after == 0) return 0;
    member = afterMember(after, end);
  }
  return closeOf(after, end);
}

/** The `steps` array at `at` of plan `plan`. One past it, or 0. */
function walkSteps(at: usize, end: usize, plan: u32, nesting: i32): usize {
  if (<u32>load<u8>(at) != CharCode.OPEN_BRACKET) return 0;
  at = skipWhitespace(at + 1, end);
  if (<u32>load<u8>(at) == CharCode.CLOSE_BRACKET) return at + 1;
  while (true) {
    at = walkStep(at, end, plan, nesting);
    if (at == 0) return 0;
    at = skipWhitespace(at, end);
    if (<u32>load<u8>(at) == CharCode.CLOSE_BRACKET) return at + 1;
    at = skipWhitespace(at + 1, end);
  }
  return 0;
}

/** The step object at `at` of plan `plan`. One past it, or 0. */
function walkStep(at: usize, end: usize, plan: u32, nesting: i32): usize {
  if (<u32>load<u8>(at) != CharCode.OPEN_BRACE) return 0;
  if (stepCount == SPEC_STEPS_MAX || stepCount + 1 == stepRoom) return 0;
  const step = walkedSteps + <usize>stepCount * Walked.BYTES;
  stepCount++;
  const localAt = planSteps + (<usize>plan << 2);
  store<u32>(step + Walked.PLAN, plan);
  store<u32>(step + Walked.LOCAL, load<u32>(localAt));
  store<u32>(localAt, load<u32>(localAt) + 1);
  store<u32>(step + Walked.SUB_PLAN, NONE);
  store<u32>(step + Walked.BUDGET, NONE);
  let seen: u32 = 0;
  let member = firstMember(at, end);
  let after: usize = 0;
  while (member != 0) {
    if (!nextMember(member, end)) return 0;
    const key = memberKey;
    if (key < 0 || !firstSight(seen, key)) return 0;
    seen |= 1 << key;
    const value = memberValue;
    if (key == Key.ID) {
      after = plainString(value, end);
      const length = after - 1 - (value + 1);
      if (after == 0 || length > ID_BYTES_MAX) return 0;
      store<u32>(step + Walked.ID_START, <u32>(value + 1 - headerInput));
      store<u32>(step + Walked.ID_LENGTH, <u32>length);
      idByteCount += length;
    } else if (key == Key.DEPS) {
      after = walkDeps(value, end, step);
    } else if (key == Key.EFFECT) {
      after = plainString(value, end);
      const kind = effectKind(value + 1, after - 1 - (value + 1));
      if (after == 0 || kind < 0) return 0;
      store<u32>(step + Walked.KIND, <u32>kind);
    } else if (key == Key.PLAN) {
      store<u32>(step + Walked.KIND, <u32>Kind.SUB_PLAN);
      store<u32>(step + Walked.SUB_PLAN, planCount);
      after = walkPlan(value, end, nesting + 1);
    } else if (key == Key.BUDGET) {
      store<u32>(step + Walked.BUDGET, childBudgetCount);
      after = walkChildBudget(value, end);
    } else {
      return 0;
    }
    if (after == 0) return 0;
    member = afterMember(after, end);
  }
  const isEffect = (seen & (1 << Key.EFFECT)) != 0;
  const isSubPlan = (seen & (1 << Key.PLAN)) != 0;
  if ((seen & (1 << Key.ID)) == 0 || (seen & (1 << Key.DEPS)) == 0 || isEffect == isSubPlan) return 0;
  if (isEffect && (seen & (1 << Key.BUDGET)) != 0) return 0;
  return closeOf(after, end);
}

/** The Kind of an effect's name, or -1. */
function effectKind(start: usize, length: usize): i32 {
  if (isName(start, length, "model")) return Kind.MODEL;
  if (isName(start, length, "tool")) return Kind.TOOL;
  if (isName(start, length, "context")) return Kind.CONTEXT;
  return -1;
}

/** The `deps` array at `at` of the walked step `step`: plain strings, noted. One past it, or 0. */
function walkDeps(at: usize, end: usize, step: usize): usize {
  if (<u32>load<u8>(at) != CharCode.OPEN_BRACKET) return 0;
  store<u32>(step + Walked.DEPS_START, depRefCount);
  let count: u32 = 0;
  at = skipWhitespace(at + 1, end);
  if (<u32>load<u8>(at) != CharCode.CLOSE_BRACKET) {
    while (true) {
      if (count == DEPS_MAX || depRefCount == depRoom) return 0;
      const nameEnd = plainString(at, end);
      const length = nameEnd - 1 - (at + 1);
      if (nameEnd == 0 || length > ID_BYTES_MAX) return 0;
      store<u32>(depRefs + (<usize>depRefCount << 3), <u32>(at + 1 - headerInput));
      store<u32>(depRefs + (<usize>depRefCount << 3), <u32>length, 4);
      depRefCount++;
      count++;
      at = skipWhitespace(nameEnd, end);
      if (<u32>load<u8>(at) == CharCode.CLOSE_BRACKET) break;
      at = skipWhitespace(at + 1, end);
    }
  }
  store<u32>(step + Walked.DEPS_COUNT, count);
  return at + 1;
}

/** A sub-plan's budget at `at`: any limit but `depth`, each at most once. One past it, or 0. */
function walkChildBudget(at: usize, end: usize): usize {
  if (<u32>load<u8>(at) != CharCode.OPEN_BRACE) return 0;
  const budget = childBudgets + <usize>childBudgetCount * CHILD_BUDGET_BYTES;
  childBudgetCount++;
  memory.fill(budget, 0, CHILD_BUDGET_BYTES);
  let mask: u32 = 0;
  let member = firstMember(at, end);
  let after: usize = at + 1;
  while (member != 0) {
    if (!nextMember(member, end)) return 0;
    const limit = limitOf(memberKey);
    if (limit < 0 || (mask & (1 << limit)) != 0) return 0;
    mask |= 1 << limit;
    const value = budgetValue(memberValue, end);
    if (value < 0) return 0;
    store<f64>(budget + 8 + (<usize>limit << 3), <f64>value);
    after = integerEnd;
    member = afterMember(after, end);
  }
  store<f64>(budget, <f64>mask);
  return closeOf(after, end);
}

/** The root budget at `at`: `depth` and every limit, each once. */
function walkRootBudget(at: usize, end: usize): bool {
  if (<u32>load<u8>(at) != CharCode.OPEN_BRACE) return false;
  let seen: u32 = 0;
  let member = firstMember(at, end);
  while (member != 0) {
    if (!nextMember(member, end)) return false;
    // Scalar 1 is the depth, 2 + limit a limit's.
    const scalar = memberKey == Key.DEPTH ? 1 : 2 + limitOf(memberKey);
    if (scalar < 1 || !firstSight(seen, scalar)) return false;
    seen |= 1 << scalar;
    const value = budgetValue(memberValue, end);
    if (value < 0) return false;
    store<f64>(scalars + (<usize>scalar << 3), <f64>value);
    member = afterMember(integerEnd, end);
  }
  return seen == ((1 << (2 + Limit.COUNT)) - 2);
}

/** Set by `plainInteger`: one past the number read. */
let integerEnd: usize = 0;

/** The number at `at` when written as plain digits (at most 16), or -1. */
function plainInteger(at: usize, end: usize): i64 {
  let value: i64 = 0;
  let digits = 0;
  while (at < end) {
    const digit = <u32>load<u8>(at) - CharCode.ZERO;
    if (digit > 9) break;
    value = value * 10 + <i64>digit;
    digits++;
    at++;
  }
  integerEnd = at;
  if (digits == 0 || digits > 16) return -1;
  const next = at < end ? <u32>load<u8>(at) : CharCode.SPACE;
  // A fraction or an exponent: a number JSON.parse may still read as an integer; the host decides.
  if (next == CharCode.DOT || (next | 0x20) == CharCode.LOWER_E) return -1;
  return value;
}

/** A budget value at `at`: plain digits, at most 2⁵²; -1 otherwise. */
function budgetValue(at: usize, end: usize): i64 {
  const value = plainInteger(at, end);
  return value > <i64>BUDGET_VALUE_MAX ? -1 : value;
}

// ---------------------------------------------------------------------------------------------
// The packing: steps numbered plan by plan (plans in the order the walk opened them, which is
// the packing's depth-first order), ids ranked, deps resolved and turned around, plans checked
// for cycles; then the layout of spec.ts written above, and moved down to the bottom.

/** Per global step: the walked step's record. */
let walkedOf: usize = 0;
let firstStepOf: usize = 0;

// @ts-expect-error: decorator
@inline
function walkedAt(global: u32): usize {
  return load<u32>(walkedOf + (<usize>global << 2));
}

// @ts-expect-error: decorator
@inline
function idPointer(walked: usize): usize {
  return headerInput + <usize>load<u32>(walked + Walked.ID_START);
}

// @ts-expect-error: decorator
@inline
function idLength(walked: usize): usize {
  return <usize>load<u32>(walked + Walked.ID_LENGTH);
}

/** Byte order of two ids (for valid UTF-8, their code points' order): <0, 0, >0. */
function compareIds(a: usize, aLength: usize, b: usize, bLength: usize): i32 {
  const common = min(aLength, bLength);
  for (let i: usize = 0; i < common; i++) {
    const d = <i32>load<u8>(a + i) - <i32>load<u8>(b + i);
    if (d != 0) return d;
  }
  return <i32>aLength - <i32>bLength;
}

function pack(): bool {
  const n = <usize>stepCount;
  const plans = <usize>planCount;
  firstStepOf = reserve(4 * (plans + 1));
  walkedOf = reserve(4 * n);
  const ranks = reserve(4 * n);
  const byRank = reserve(4 * n);
  const scratch = reserve(4 * n);
  const depsStart = reserve(4 * (n + 1));
  const deps = reserve(4 * <usize>depRefCount);
  const lastNamedBy = reserve(4 * n);
  const dependentsStart = reserve(4 * (n + 1));
  const dependents = reserve(4 * <usize>depRefCount);
  const budgetIndex = reserve(4 * n);
  if (firstStepOf == 0 || walkedOf == 0 || ranks == 0 || byRank == 0 || scratch == 0 || depsStart == 0 || deps == 0 || lastNamedBy == 0 || dependentsStart == 0 || dependents == 0 || budgetIndex == 0) return false;

  let first: u32 = 0;
  for (let plan: usize = 0; plan < plans; plan++) {
    store<u32>(firstStepOf + (plan << 2), first);
    first += load<u32>(planSteps + (plan << 2));
  }
  store<u32>(firstStepOf + (plans << 2), first);
  for (let walked: usize = 0; walked < n; walked++) {
    const record = walkedSteps + walked * Walked.BYTES;
    const global = load<u32>(firstStepOf + (<usize>load<u32>(record + Walked.PLAN) << 2)) + load<u32>(record + Walked.LOCAL);
    store<u32>(walkedOf + (<usize>global << 2), <u32>record);
  }

  for (let plan: usize = 0; plan < plans; plan++) {
    if (!rankPlan(plan, ranks, byRank, scratch)) return false; // a duplicate id
  }

  // Deps by local index, a dep named twice in one list once; dependents counted per dep.
  memory.fill(lastNamedBy, 0xff, 4 * n);
  memory.fill(dependentsStart, 0, 4 * (n + 1));
  let depCount: u32 = 0;
  store<u32>(depsStart, 0);
  for (let global: u32 = 0; global < <u32>n; global++) {
    const record = walkedAt(global);
    const plan = <usize>load<u32>(record + Walked.PLAN);
    const planFirst = load<u32>(firstStepOf + (plan << 2));
    const refs = <usize>load<u32>(record + Walked.DEPS_START);
    const count = <usize>load<u32>(record + Walked.DEPS_COUNT);
    for (let k: usize = 0; k < count; k++) {
      const ref = depRefs + ((refs + k) << 3);
      const local = findId(plan, byRank, headerInput + <usize>load<u32>(ref), <usize>load<u32>(ref, 4));
      if (local < 0) return false; // a dangling dependency
      const dep = planFirst + <u32>local;
      if (load<u32>(lastNamedBy + (<usize>dep << 2)) == global) continue;
      store<u32>(lastNamedBy + (<usize>dep << 2), global);
      store<u32>(deps + (<usize>depCount << 2), <u32>local);
      depCount++;
      const slot = dependentsStart + ((<usize>dep + 1) << 2);
      store<u32>(slot, load<u32>(slot) + 1);
    }
    store<u32>(depsStart + ((<usize>global + 1) << 2), depCount);
  }
  for (let global: usize = 0; global < n; global++) {
    const slot = dependentsStart + ((global + 1) << 2);
    store<u32>(slot, load<u32>(slot) + load<u32>(slot - 4));
  }
  const nextDependent = scratch;
  memory.copy(nextDependent, dependentsStart, 4 * n);
  for (let global: u32 = 0; global < <u32>n; global++) {
    const planFirst = load<u32>(firstStepOf + (<usize>load<u32>(walkedAt(global) + Walked.PLAN) << 2));
    for (let at = load<u32>(depsStart + (<usize>global << 2)); at < load<u32>(depsStart + ((<usize>global + 1) << 2)); at++) {
      const dep = <usize>(planFirst + load<u32>(deps + (<usize>at << 2)));
      const slot = load<u32>(nextDependent + (dep << 2));
      store<u32>(dependents + (<usize>slot << 2), global - planFirst);
      store<u32>(nextDependent + (dep << 2), slot + 1);
    }
  }
  if (!isAcyclic(n, depsStart, dependentsStart, dependents, lastNamedBy, scratch)) return false;

  let budgeted: u32 = 0;
  for (let global: u32 = 0; global < <u32>n; global++) {
    const budget = load<u32>(walkedAt(global) + Walked.BUDGET);
    store<u32>(budgetIndex + (<usize>global << 2), budget == NONE ? NONE : budgeted++);
  }

  // The packed spec, written above everything, then moved down to the bottom of memory.
  const intsStart = HEADER_BYTES + SCALARS_BYTES + CHILD_BUDGET_BYTES * <usize>budgeted;
  const intsBytes = plans * 8 + n * Step.BYTES + 4 * n + 8 * <usize>depCount;
  const bytes = intsStart + intsBytes + idByteCount;
  const blob = reserve(bytes);
  if (blob == 0) return false;
  memory.fill(blob, 0, HEADER_BYTES);
  store<u32>(blob, <u32>plans);
  store<u32>(blob, <u32>n, 4);
  store<u32>(blob, depCount, 8);
  store<u32>(blob, budgeted, 12);
  store<u32>(blob, <u32>idByteCount, 16);
  memory.copy(blob + HEADER_BYTES, scalars, SCALARS_BYTES);
  let budgetAt = blob + HEADER_BYTES + SCALARS_BYTES;
  for (let global: u32 = 0; global < <u32>n; global++) {
    const budget = load<u32>(walkedAt(global) + Walked.BUDGET);
    if (budget == NONE) continue;
    memory.copy(budgetAt, childBudgets + <usize>budget * CHILD_BUDGET_BYTES, CHILD_BUDGET_BYTES);
    budgetAt += CHILD_BUDGET_BYTES;
  }
  let at = blob + intsStart;
  for (let plan: usize = 0; plan < plans; plan++) {
    store<u32>(at, load<u32>(firstStepOf + (plan << 2)));
    store<u32>(at, load<u32>(planSteps + (plan << 2)), 4);
    at += 8;
  }
  const idsAt = blob + intsStart + intsBytes;
  let idOffset: u32 = 0;
  for (let global: u32 = 0; global < <u32>n; global++) {
    const record = walkedAt(global);
    const g = <usize>global << 2;
    const depsFrom = load<u32>(depsStart + g);
    const dependentsFrom = load<u32>(dependentsStart + g);
    const length = <u32>idLength(record);
    store<u32>(at + Step.PLAN, load<u32>(record + Walked.PLAN));
    store<u32>(at + Step.KIND, load<u32>(record + Walked.KIND));
    store<u32>(at + Step.SUB_PLAN, load<u32>(record + Walked.SUB_PLAN));
    store<u32>(at + Step.DEPS_START, depsFrom);
    store<u32>(at + Step.DEPS_COUNT, load<u32>(depsStart + g + 4) - depsFrom);
    store<u32>(at + Step.DEPENDENTS_START, dependentsFrom);
    store<u32>(at + Step.DEPENDENTS_COUNT, load<u32>(dependentsStart + g + 4) - dependentsFrom);
    store<u32>(at + Step.RANK, load<u32>(ranks + g));
    store<u32>(at + Step.ID_START, idOffset);
    store<u32>(at + Step.ID_LENGTH, length);
    store<u32>(at + Step.BUDGET, load<u32>(budgetIndex + g));
    at += Step.BYTES;
    memory.copy(idsAt + <usize>idOffset, idPointer(record), <usize>length);
    idOffset += length;
  }
  memory.copy(at, byRank, 4 * n);
  at += 4 * n;
  memory.copy(at, deps, 4 * <usize>depCount);
  at += 4 * <usize>depCount;
  memory.copy(at, dependents, 4 * <usize>depCount);

  resetAll();
  memory.copy(reserveSpec(bytes), blob, bytes);
  return true;
}

/**
 * Ranks plan `plan`'s steps by id (a merge sort of local indices, ids compared as bytes) into
 * `ranks` (by global step) and `byRank` (local index by global rank slot); false when two of its
 * steps share an id.
 */
function rankPlan(plan: usize, ranks: usize, byRank: usize, scratch: usize): bool {
  const first = <usize>load<u32>(firstStepOf + (plan << 2));
  const count = <usize>load<u32>(planSteps + (plan << 2));
  let from = byRank + (first << 2);
  let to = scratch + (first << 2);
  for (let local: usize = 0; local < count; local++) store<u32>(from + (local << 2), <u32>local);
  for (let width: usize = 1; width < count; width <<= 1) {
    for (let left: usize = 0; left < count; left += width << 1) {
      const middle = min(left + width, count);
      const right = min(left + (width << 1), count);
      let i = left;
      let j = middle;
      for (let k = left; k < right; k++) {
        let takeLeft = i < middle;
        if (takeLeft && j < right) {
          const a = walkedAt(<u32>(first + <usize>load<u32>(from + (i << 2))));
          const b = walkedAt(<u32>(first + <usize>load<u32>(from + (j << 2))));
          takeLeft = compareIds(idPointer(a), idLength(a), idPointer(b), idLength(b)) <= 0;
        }
        if (takeLeft) store<u32>(to + (k << 2), load<u32>(from + (i++ << 2)));
        else store<u32>(to + (k << 2), load<u32>(from + (j++ << 2)));
      }
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from != byRank + (first << 2)) memory.copy(byRank + (first << 2), from, count << 2);
  for (let rank: usize = 0; rank < count; rank++) {
    const local = <usize>load<u32>(byRank + ((first + rank) << 2));
    store<u32>(ranks + ((first + local) << 2), <u32>rank);
    if (rank > 0) {
      const a = walkedAt(<u32>(first + <usize>load<u32>(byRank + ((first + rank - 1) << 2))));
      const b = walkedAt(<u32>(first + local));
      if (compareIds(idPointer(a), idLength(a), idPointer(b), idLength(b)) == 0) return false;
    }
  }
  return true;
}

/** The local index of plan `plan`'s step whose id is the `length` bytes at `name`, or -1. */
function findId(plan: usize, byRank: usize, name: usize, length: usize): i32 {
  const first = <usize>load<u32>(firstStepOf + (plan << 2));
  let low: usize = 0;
  let high = <usize>load<u32>(planSteps + (plan << 2));
  while (low < high) {
    const middle = (low + high) >> 1;
    const local = load<u32>(byRank + ((first + middle) << 2));
    const step = walkedAt(<u32>(first + <usize>local));
    const order = compareIds(idPointer(step), idLength(step), name, length);
    if (order == 0) return <i32>local;
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return -1;
}

/** Kahn's algorithm over every plan's steps at once: whether every step is freed. */
function isAcyclic(n: usize, depsStart: usize, dependentsStart: usize, dependents: usize, unmet: usize, queue: usize): bool {
  let queued: usize = 0;
  for (let global: usize = 0; global < n; global++) {
    const count = load<u32>(depsStart + ((global + 1) << 2)) - load<u32>(depsStart + (global << 2));
    store<u32>(unmet + (global << 2), count);
    if (count == 0) store<u32>(queue + (queued++ << 2), <u32>global);
  }
  for (let next: usize = 0; next < queued; next++) {
    const global = <usize>load<u32>(queue + (next << 2));
    const planFirst = <usize>load<u32>(firstStepOf + (<usize>load<u32>(walkedAt(<u32>global) + Walked.PLAN) << 2));
    for (let edge = <usize>load<u32>(dependentsStart + (global << 2)); edge < <usize>load<u32>(dependentsStart + ((global + 1) << 2)); edge++) {
      const dependent = planFirst + <usize>load<u32>(dependents + (edge << 2));
      const left = load<u32>(unmet + (dependent << 2)) - 1;
      store<u32>(unmet + (dependent << 2), left);
      if (left == 0) store<u32>(queue + (queued++ << 2), <u32>dependent);
    }
  }
  return queued == n;
}
