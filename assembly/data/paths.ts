/**
 * The declared paths read in the record's one validating scan (../json.ts hands the line auditor
 * each member and value; lines.ts passes them here): every path of the model — the kind's and
 * each field's — is a branch of one trie, so a member's key is compared only with the steps its
 * parent's node may take next, and a value is noted where it lies as the scan passes it. Budget:
 * a member the model does not read costs one look at its parent (none at the top level but the
 * root's few steps); nothing is decoded unless a key holds an escape.
 *
 * What the scan cannot settle alone it leaves to the walk of record.ts, which reads the paths
 * again over the validated line: a member met twice on a path (a duplicate key: JSON.parse keeps
 * its last value, which a second `*SUFFIX` match or a deeper member may depend on), a key that
 * two steps match, and paths deeper than the scan reads (`LEVELS_MAX`).
 *
 * A node, NODE_BYTES:
 *   0  i32 first child (-1: none)   4 i32 next sibling (-1: none)   8 i32 PathStepKind
 *   12 u32 name pointer   16 u32 name length
 *   20 u32 the record it was met in (its stamp)   24 u32 value start   28 u32 value end
 *   32 u32 the record its value was found in      36 u32 its matched key's start
 *   40 u32 its end    44 u32 whether that key holds an escape
 */

import { decodeString } from "../json";
import { reserve } from "../memory";
import { PathStepKind, stringLength, stringPointer, TableHeader, Width, word } from "./layout";
import { keyScratch } from "./record";
import { bytesEqual } from "./values";

/** The deepest level the scan reads members at (json.ts keeps levels 2 to 4 in its table). */
const LEVELS_MAX: i32 = 4;
const NODE_BYTES: usize = 48;
const NO_NODE: i32 = -1;

let nodes: usize = 0;
let nodeCount: i32 = 0;
/** The first child of the trie's root: the steps a top-level member may take. */
let rootChild: i32 = NO_NODE;
/** Per path (the kind's first, then each field's): its leaf node, or NO_NODE when only the walk reads it. */
let leaves: usize = 0;
/** The deepest level any path the scan reads reaches. */
export let levels: usize = 1;

/** The current record's stamp (never 0, which marks "never met"). */
let stamp: u32 = 0;
/** Set when the scan met what only the walk can settle (see the header). */
export let walkNeeded = false;

// @ts-expect-error: decorator
@inline
function node(index: i32): usize {
  return nodes + <usize>index * NODE_BYTES;
}

/** The trie of the model's paths, in the model region; false when memory is exhausted. */
export function buildPaths(): bool {
  const fields = word(TableHeader.FIELD_COUNT);
  let steps = word(word(TableHeader.KIND_PATH_AT));
  for (let field = 0; field < fields; field++) steps += word(fieldPathAt(field));
  nodes = reserve(<usize>max(steps, 1) * NODE_BYTES);
  leaves = reserve(<usize>(fields + 1) * 4);
  if (nodes == 0 || leaves == 0) return false;
  memory.fill(nodes, 0, <usize>max(steps, 1) * NODE_BYTES);
  nodeCount = 0;
  rootChild = NO_NODE;
  levels = 1;
  stamp = 0;
  store<i32>(leaves, insertPath(word(TableHeader.KIND_PATH_AT)));
  for (let field = 0; field < fields; field++) {
    store<i32>(leaves + (<usize>(field + 1) << 2), insertPath(fieldPathAt(field)));
  }
  return true;
}

// @ts-expect-error: decorator
@inline
function fieldPathAt(field: i32): i32 {
  return word(word(TableHeader.FIELDS_AT) + field * Width.FIELD);
}

/** Adds a path's steps to the trie; its leaf, or NO_NODE when it is too deep (or empty) to scan. */
function insertPath(pathAt: i32): i32 {
  const steps = word(pathAt);
  if (steps == 0 || steps > LEVELS_MAX) return NO_NODE;
  if (<usize>steps > levels) levels = <usize>steps;
  let parent = NO_NODE;
  for (let step = 0; step < steps; step++) {
    const stepAt = pathAt + 1 + step * 3;
    parent = childFor(parent, word(stepAt), stringPointer(stepAt + 1), stringLength(stepAt + 1));
  }
  return parent;
}

/** The child of `parent` (NO_NODE: the root) taking this step, made when there is none. */
function childFor(parent: i32, kind: i32, name: usize, length: usize): i32 {
  let child = parent == NO_NODE ? rootChild : load<i32>(node(parent));
  let last = NO_NODE;
  for (; child != NO_NODE; child = load<i32>(node(child), 4)) {
    const at = node(child);
    if (load<i32>(at, 8) == kind && <usize>load<u32>(at, 16) == length && bytesEqual(<usize>load<u32>(at, 12), name, length)) {
      return child;
    }
    last = child;
  }
  const made = nodeCount++;
  const at = node(made);
  store<i32>(at, NO_NODE);
  store<i32>(at, NO_NODE, 4);
  store<i32>(at, kind, 8);
  store<u32>(at, <u32>name, 12);
  store<u32>(at, <u32>length, 16);
  if (last != NO_NODE) store<i32>(node(last), made, 4);
  else if (parent == NO_NODE) rootChild = made;
  else store<i32>(node(parent), made);
  return made;
}

/** A new record: nothing met yet. */
export function beginScan(): void {
  walkNeeded = false;
  stamp++;
  if (stamp == 0) {
    // After 2^32 records the stamps wrap: forget every old one.
    for (let i = 0; i < nodeCount; i++) {
      store<u32>(node(i), 0, 20);
      store<u32>(node(i), 0, 32);
    }
    stamp = 1;
  }
}

/**
 * The node a member of `parent`'s value (NO_NODE: a top-level member) takes, or NO_NODE. A key
 * two steps take, or a node met a second time in the record, needs the walk.
 */
export function memberNode(parent: i32, keyStart: usize, keyEnd: usize, escaped: bool): i32 {
  let child = parent == NO_NODE ? rootChild : load<i32>(node(parent));
  if (child == NO_NODE) return NO_NODE;
  let key = keyStart;
  let keyLength = keyEnd - keyStart;
  if (escaped) {
    keyLength = decodeString(keyStart, keyEnd, keyScratch);
    key = keyScratch;
  }
  let taken = NO_NODE;
  for (; child != NO_NODE; child = load<i32>(node(child), 4)) {
    const at = node(child);
    const name = <usize>load<u32>(at, 12);
    const length = <usize>load<u32>(at, 16);
    const met = load<u32>(at, 20) == stamp;
    if (load<i32>(at, 8) == PathStepKind.MEMBER) {
      if (keyLength != length || !bytesEqual(key, name, length)) continue;
      if (met) walkNeeded = true;
    } else if (met) {
      // A suffix step took its first match already: this key again is a duplicate.
      if (isMatchedKey(at, key, keyLength)) walkNeeded = true;
      continue;
    } else {
      if (keyLength < length || !bytesEqual(key + keyLength - length, name, length)) continue;
      store<u32>(at, <u32>keyStart, 36);
      store<u32>(at, <u32>keyEnd, 40);
      store<u32>(at, escaped ? 1 : 0, 44);
    }
    if (taken != NO_NODE) walkNeeded = true;
    store<u32>(at, stamp, 20);
    taken = child;
  }
  return taken;
}

/**
 * Whether the (decoded) key is the one a suffix node matched. A matched key with an escape is
 * decoded after the key (which may lie at `keyScratch`); the two are distinct members of the
 * record, so both fit the scratch.
 */
function isMatchedKey(at: usize, key: usize, keyLength: usize): bool {
  let matched = <usize>load<u32>(at, 36);
  let length = <usize>load<u32>(at, 40) - matched;
  if (load<u32>(at, 44) != 0) {
    const decoded = keyScratch + keyLength;
    length = decodeString(matched, matched + length, decoded);
    matched = decoded;
  }
  return length == keyLength && bytesEqual(matched, key, length);
}

/** A node's value, [start, end), as the scan passed it. */
export function noteValue(index: i32, start: usize, end: usize): void {
  const at = node(index);
  store<u32>(at, <u32>start, 24);
  store<u32>(at, <u32>end, 28);
  store<u32>(at, stamp, 32);
}

/** Where `scannedValue` found a value. */
export let foundStart: usize = 0;
export let foundEnd: usize = 0;

/**
 * Whether the scan reads path `path` (0: the kind's, then 1 + each field's): it is not too deep.
 * Then `scannedValue` says whether it found it.
 */
export function isScanned(path: i32): bool {
  return load<i32>(leaves + (<usize>path << 2)) != NO_NODE;
}

/** Whether the scan found a value of path `path` (a scanned one), at [foundStart, foundEnd). */
export function scannedValue(path: i32): bool {
  const at = node(load<i32>(leaves + (<usize>path << 2)));
  if (load<u32>(at, 32) != stamp) return false;
  foundStart = <usize>load<u32>(at, 24);
  foundEnd = <usize>load<u32>(at, 28);
  return true;
}
