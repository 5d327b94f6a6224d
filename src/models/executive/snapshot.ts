/**
 * Snapshots of the `executive` machine (docs/models/executive.md, "Snapshots"): a versioned
 * envelope, a digest — SHA-256 of the body, or HMAC-SHA-256 under a key — and the state's
 * canonical JSON. `restore` checks the envelope, the version and the digest before it reads the
 * body, then takes the body only if it is canonical and a state the machine could hold; a
 * snapshot holds data only, and restoring one never runs anything.
 */
import { List } from "immutable";
import { hmacSha256Hex } from "../../digest/hmac-sha256.js";
import { sha256 } from "../../digest/sha256.js";
import { DETAIL_BYTES_MAX, FAIL_REASONS } from "./observation.js";
import { wtf8Length } from "./plain-data.js";
import {
  BUDGET_FIELDS,
  COUNTERS,
  type Plan,
  type PlanStep,
  readSpec,
  type SubPlanStep,
} from "./spec.js";
import {
  type ExecutiveState,
  type Failure,
  type Frame,
  frameOf,
  type Limits,
  type Outstanding,
  STATUSES,
  type Used,
  withDone,
} from "./state.js";

export const SNAPSHOT_MAGIC = "statefold-executive";
export const SNAPSHOT_VERSION = 1;

export type SnapshotKey = string | Uint8Array;

export const RESTORE_REJECTIONS = [
  "malformed-snapshot",
  "version-mismatch",
  "checksum-mismatch",
  "invalid-state",
] as const;
export type RestoreRejection = (typeof RESTORE_REJECTIONS)[number];

const encoder = new TextEncoder();

function keyBytes(key: SnapshotKey | undefined): Uint8Array | undefined {
  if (key === undefined) return undefined;
  if (typeof key === "string") return encoder.encode(key);
  if (key instanceof Uint8Array) return key;
  throw new TypeError("statefold: a snapshot key is a string or a Uint8Array");
}

function digestOf(body: Uint8Array, key: Uint8Array | undefined): string {
  return key === undefined ? sha256().update(body).hex() : hmacSha256Hex(key, body);
}

/** The state's canonical JSON: the snapshot body, key for key in the documented order. */
export function canonicalBody(state: ExecutiveState): string {
  return JSON.stringify({
    version: SNAPSHOT_VERSION,
    spec: state.spec,
    depth: state.depth,
    status: state.status,
    failure: state.failure,
    seq: state.seq,
    now: state.now,
    frames: state.frames.toArray().map((frame) => ({
      id: frame.id,
      limits: frame.limits,
      used: frame.used,
      done: frame.done.toArray(),
    })),
    outstanding: state.outstanding,
    sinceCheckpoint: state.sinceCheckpoint,
    lastDetail: state.lastDetail,
  });
}

export function snapshotState(state: ExecutiveState, key?: SnapshotKey): Uint8Array {
  const secret = keyBytes(key);
  const body = encoder.encode(canonicalBody(state));
  const head = encoder.encode(`${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${digestOf(body, secret)}\n`);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return bytes;
}

export type RestoreResult =
  | { readonly state: ExecutiveState }
  | { readonly rejected: RestoreRejection };

const ENVELOPE = /^statefold-executive (0|[1-9][0-9]*)\n([0-9a-f]{64})\n/;

export function restoreState(bytes: unknown, key?: SnapshotKey): RestoreResult {
  const secret = keyBytes(key);
  if (!(bytes instanceof Uint8Array)) return { rejected: "malformed-snapshot" };
  // The envelope is ASCII and short: read it from the first bytes only.
  const head = String.fromCharCode(...bytes.subarray(0, SNAPSHOT_MAGIC.length + 24 + 66));
  const envelope = ENVELOPE.exec(head);
  if (envelope === null) return { rejected: "malformed-snapshot" };
  const [whole, version, digest] = envelope as unknown as [string, string, string];
  if (version !== String(SNAPSHOT_VERSION)) return { rejected: "version-mismatch" };
  const body = bytes.subarray(whole.length);
  if (digestOf(body, secret) !== digest) return { rejected: "checksum-mismatch" };
  const state = stateOfBody(body);
  return state === null ? { rejected: "invalid-state" } : { state };
}

// ---------------------------------------------------------------------------------------------
// The body: every check of the documentation's list, then canonical form

function stateOfBody(body: Uint8Array): ExecutiveState | null {
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const state = readState(value);
  return state !== null && canonicalBody(state) === text ? state : null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function hasKeys(value: Json, required: readonly string[], optional: readonly string[] = []) {
  for (const key of required) if (!Object.hasOwn(value, key)) return false;
  return Object.keys(value).every((key) => required.includes(key) || optional.includes(key));
}

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

const STATE_KEYS = [
  "version",
  "spec",
  "depth",
  "status",
  "failure",
  "seq",
  "now",
  "frames",
  "outstanding",
  "sinceCheckpoint",
  "lastDetail",
] as const;

const LIMIT_KEYS = [...COUNTERS, "deadline"] as const;

function readCounters<K extends string>(
  value: unknown,
  keys: readonly K[],
): Record<K, number> | null {
  if (!isObject(value) || !hasKeys(value, keys)) return null;
  for (const key of keys) if (!isCount(value[key])) return null;
  return value as Record<K, number>;
}

function readState(value: unknown): ExecutiveState | null {
  if (!isObject(value) || !hasKeys(value, STATE_KEYS) || value.version !== SNAPSHOT_VERSION)
    return null;
  const { depth, status, seq, now, sinceCheckpoint, lastDetail } = value;
  if (!isCount(depth) || !isCount(seq) || !isCount(sinceCheckpoint)) return null;
  if (now !== null && !isCount(now)) return null;
  if (!(STATUSES as readonly unknown[]).includes(status)) return null;
  if (
    lastDetail !== null &&
    (typeof lastDetail !== "string" || wtf8Length(lastDetail) > DETAIL_BYTES_MAX)
  ) {
    return null;
  }
  const rawFrames = value.frames;
  if (!Array.isArray(rawFrames) || rawFrames.length < 1 || rawFrames.length > depth + 1)
    return null;
  const rootLimits = readCounters(isObject(rawFrames[0]) ? rawFrames[0].limits : null, LIMIT_KEYS);
  if (rootLimits === null) return null;
  // 1. The spec, accepted with depth and the root frame's limits as its budget.
  const read = readSpec(value.spec, { ...rootLimits, depth });
  if (!read.ok) return null;
  const { spec } = read;
  const failure = readFailure(value.failure, status as ExecutiveState["status"]);
  if (failure === undefined) return null;
  const frames = readFrames(rawFrames, spec.plan);
  if (frames === null) return null;
  const state: ExecutiveState = Object.freeze({
    spec,
    depth,
    status: status as ExecutiveState["status"],
    failure,
    seq,
    now: now as number | null,
    frames,
    outstanding: null,
    sinceCheckpoint,
    lastDetail: lastDetail as string | null,
  });
  const outstanding = readOutstanding(value.outstanding, state);
  if (outstanding === undefined) return null;
  const restored = Object.freeze({ ...state, outstanding });
  // 6. A ready state has done nothing yet.
  if (status === "ready") {
    const root = frames.get(0) as Frame;
    const untouched =
      seq === 0 &&
      now === null &&
      frames.size === 1 &&
      root.done.size === 0 &&
      COUNTERS.every((counter) => root.used[counter] === 0) &&
      sinceCheckpoint === 0 &&
      lastDetail === null;
    if (!untouched) return null;
  }
  return restored;
}

/** 2. The failure: there exactly when failed, its budget exactly with budget-exhausted. */
function readFailure(value: unknown, status: ExecutiveState["status"]): Failure | null | undefined {
  if (status !== "failed") return value === null ? null : undefined;
  if (!isObject(value) || !hasKeys(value, ["reason"], ["budget"])) return undefined;
  if (!(FAIL_REASONS as readonly unknown[]).includes(value.reason)) return undefined;
  const exhausted = value.reason === "budget-exhausted";
  if (exhausted !== Object.hasOwn(value, "budget")) return undefined;
  if (
    exhausted &&
    !(BUDGET_FIELDS.filter((f) => f !== "deadline") as unknown[]).includes(value.budget)
  ) {
    return undefined;
  }
  return Object.freeze({ ...(value as unknown as Failure) });
}

/** 3 and 4. The frame stack: each a sub-plan entered from the one below, budgets narrowing. */
function readFrames(raw: readonly unknown[], rootPlan: Plan): List<Frame> | null {
  const frames: Frame[] = [];
  let plan = rootPlan;
  for (const [level, item] of raw.entries()) {
    if (!isObject(item) || !hasKeys(item, ["id", "limits", "used", "done"])) return null;
    const limits = readCounters(item.limits, LIMIT_KEYS);
    const used = readCounters(item.used, COUNTERS);
    if (limits === null || used === null) return null;
    if (COUNTERS.some((counter) => used[counter] > limits[counter])) return null;
    const parent = frames[level - 1];
    if (parent === undefined) {
      if (item.id !== null) return null;
    } else {
      if (typeof item.id !== "string") return null;
      const step = readyStepOf(parent, item.id);
      if (step === null || !("plan" in step)) return null;
      plan = (step as SubPlanStep).plan;
      for (const field of LIMIT_KEYS) if (limits[field] > parent.limits[field]) return null;
      for (const counter of COUNTERS) if (used[counter] > parent.used[counter]) return null;
    }
    const done = readDone(item.done, plan);
    if (done === null) return null;
    let frame = frameOf(item.id as string | null, plan, Object.freeze({ ...limits }) as Limits);
    for (const id of done) frame = withDone(frame, id);
    frames.push(Object.freeze({ ...frame, used: Object.freeze({ ...used }) as Used }));
  }
  return List(frames);
}

/** A step of the frame's plan that is not done and whose deps all are; null if none is `id`. */
function readyStepOf(frame: Frame, id: string): PlanStep | null {
  const step = frame.plan.steps.find((candidate) => candidate.id === id);
  if (step === undefined || frame.doneSet.has(id)) return null;
  return step.deps.every((dep) => frame.doneSet.has(dep)) ? step : null;
}

/** Distinct ids of the plan, each after all its deps. */
function readDone(value: unknown, plan: Plan): string[] | null {
  if (!Array.isArray(value)) return null;
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const seen = new Set<string>();
  for (const id of value) {
    const step = typeof id === "string" ? byId.get(id) : undefined;
    if (step === undefined || seen.has(id) || !step.deps.every((dep) => seen.has(dep))) return null;
    seen.add(id);
  }
  return value as string[];
}

/** 5. The outstanding decision: there exactly when running, and one the state could have made. */
function readOutstanding(value: unknown, state: ExecutiveState): Outstanding | null | undefined {
  if (state.status !== "running") return value === null ? null : undefined;
  if (!isObject(value)) return undefined;
  if (value.tag === "checkpoint") {
    if (!hasKeys(value, ["tag", "seq"]) || value.seq !== state.seq) return undefined;
    const every = state.spec.checkpointEvery;
    if (every === undefined || state.sinceCheckpoint < every) return undefined;
    return Object.freeze({ tag: "checkpoint", seq: state.seq });
  }
  if (value.tag !== "execute" || !hasKeys(value, ["tag", "seq", "path", "effect", "attempt"])) {
    return undefined;
  }
  const { path, effect, attempt } = value;
  if (value.seq !== state.seq || !isCount(attempt) || attempt < 1 || !Array.isArray(path))
    return undefined;
  const ids = state.frames
    .toArray()
    .slice(1)
    .map((frame) => frame.id);
  if (path.length !== ids.length + 1 || ids.some((id, i) => path[i] !== id)) return undefined;
  const top = state.frames.last() as Frame;
  const step = typeof path.at(-1) === "string" ? readyStepOf(top, path.at(-1) as string) : null;
  if (step === null || !("effect" in step) || step.effect !== effect) return undefined;
  return Object.freeze({
    tag: "execute",
    seq: state.seq,
    path: Object.freeze([...(path as string[])]),
    effect: step.effect,
    attempt,
  });
}
