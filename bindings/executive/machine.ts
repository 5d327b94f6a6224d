/**
 * The `executive` machine on the kernel (docs/models/executive.md, "The API"): the reference's
 * interface, every decision and state equal to the reference's. The kernel holds one working
 * state and changes it in place; the states handed out are values that can be stepped again at
 * any time, so each is kept as the bytes the kernel saved (`saved`) or as its parent and the
 * observation that led from it (`parent`, `observation`), replayed when it is needed again —
 * the machine is deterministic, so replay gives the very state. A state is saved once the
 * observations since the last saved one would cost more to replay than its bytes to copy, so a
 * run of n steps copies O(n · 4 KiB) at most, and stepping the newest state never replays.
 *
 * Observations are read on the host with the reference's reader (an accessor or a throwing
 * Proxy is only visible to JavaScript); spec validation and snapshots are the reference's too,
 * applied to the kernel's state read back field by field, so both engines write the same bytes
 * and restore each other's.
 */
import { List } from "immutable";
import type {
  ExecutiveMachine,
  InitialStateResult,
  Terminal,
} from "../../src/models/executive/machine.js";
import { type Decision, readObservation } from "../../src/models/executive/observation.js";
import {
  type RestoreRejection,
  restoreState,
  type SnapshotKey,
  snapshotState,
} from "../../src/models/executive/snapshot.js";
import { COUNTERS, readSpec, type SubPlanStep } from "../../src/models/executive/spec.js";
import {
  type ExecutiveState,
  type Frame,
  frameOf,
  type Limits,
  type Outstanding,
  type Used,
  withDone,
} from "../../src/models/executive/state.js";
import { decodeWtf8, encodeWtf8Into } from "../wtf8.js";
import {
  DECISION_TAGS,
  EXHAUSTED_BUDGETS,
  FAIL_REASONS,
  LIMITS,
  OBSERVATION_TAGS,
  OUTSTANDING,
  REJECT_REASONS,
  STATUSES,
} from "./codes.js";
import { decisionOf, failureOf, terminalOf } from "./decision.js";
import { type ExecutiveKernelExports, offsetOf } from "./kernel.js";
import { type PackedSpec, packedStepEffect, packedStepId, packSpec } from "./pack-spec.js";

const REJECT = DECISION_TAGS.indexOf("reject");
/** Replaying an observation costs about as much as copying this many bytes of state. */
const REPLAY_COST_BYTES = 4096;
const LIMIT_MEMORY = 1;

/** An observation the reference's reader accepted, as the kernel takes it. */
interface Observed {
  readonly tag: number;
  readonly seq: number;
  readonly now: number;
  readonly ok: boolean;
  readonly retryable: boolean;
  readonly bytes: number;
  readonly detail: Uint8Array | null;
}

/** A state handed out: its spec, and its bytes or the way from its parent to it. */
export class KernelState {
  constructor(
    readonly run: PackedSpec,
    /** The kernel's saved bytes; null while it is `parent` + `observation` (or the ready state). */
    public saved: Uint8Array | null,
    public parent: KernelState | null,
    readonly observation: Observed | null,
    /** Observations since the nearest saved ancestor. */
    readonly replays: number,
  ) {}
}

/** The kernel an engine shares between its machine and its journal audits. */
export interface KernelOwner {
  readonly kernel: ExecutiveKernelExports;
  /** The spec in the kernel, and the machine's state its working state is (null: none). */
  loaded: PackedSpec | null;
  head: KernelState | null;
}

/** Loads a packed spec into the kernel (its working state then the ready state). */
export function loadRun(owner: KernelOwner, run: PackedSpec): void {
  if (owner.loaded === run) return;
  const { kernel } = owner;
  owner.loaded = null;
  owner.head = null;
  const room = kernel.specRoom(run.bytes.length);
  if (room === 0) throw new Error(memoryMessage);
  new Uint8Array(kernel.memory.buffer, room, run.bytes.length).set(run.bytes);
  if (kernel.loadSpec() === LIMIT_MEMORY) throw new Error(memoryMessage);
  owner.loaded = run;
}

const memoryMessage =
  "statefold: the WebAssembly memory cannot grow any further: the executive spec does not fit";

export function createKernelExecutive(owner: KernelOwner): ExecutiveMachine<KernelState> {
  const { kernel } = owner;
  const made = new WeakSet<object>();
  const isMine = (value: unknown): value is KernelState =>
    typeof value === "object" && value !== null && made.has(value);
  const remember = (state: KernelState) => {
    made.add(state);
    return state;
  };
  const savedBytesOf = new WeakMap<PackedSpec, number>();

  /** Makes `state` the kernel's working state. */
  const materialize = (state: KernelState) => {
    if (owner.head === state && owner.loaded === state.run) return;
    loadRun(owner, state.run);
    const path: KernelState[] = [];
    let from = state;
    while (from !== owner.head && from.saved === null && from.parent !== null) {
      path.push(from);
      from = from.parent;
    }
    if (from !== owner.head) {
      if (from.saved === null) {
        kernel.resetRun(); // the ready state
      } else {
        new Uint8Array(kernel.memory.buffer, kernel.loadRoom(), from.saved.length).set(from.saved);
        kernel.loadState(from.saved.length);
      }
    }
    for (let i = path.length - 1; i >= 0; i--) {
      observe((path[i] as KernelState).observation as Observed);
      kernel.step();
    }
    owner.head = state;
  };

  const observe = (observed: Observed) => {
    const detail = observed.detail;
    if (detail !== null) {
      new Uint8Array(kernel.memory.buffer, kernel.hostDetailPointer(), detail.length).set(detail);
    }
    kernel.observe(
      observed.tag,
      observed.seq,
      observed.now,
      observed.ok ? 1 : 0,
      observed.retryable ? 1 : 0,
      observed.bytes,
      detail === null ? -1 : detail.length,
    );
  };

  const save = (state: KernelState) => {
    const pointer = kernel.saveState();
    state.saved = new Uint8Array(kernel.memory.buffer, pointer, kernel.savedLength()).slice();
    state.parent = null;
    savedBytesOf.set(state.run, state.saved.length);
  };

  const machine = {
    initialState(spec: unknown, budget: unknown): InitialStateResult<KernelState> {
      const read = readSpec(spec, budget);
      if (!read.ok) return { rejected: read.rejection.reason, path: read.rejection.path };
      const run = packSpec(read.spec, read.budget);
      return { state: remember(new KernelState(run, null, null, null, 0)) };
    },
    step(state: unknown, value: unknown): { decision: Decision; state: unknown } {
      if (!isMine(state)) {
        return { decision: { tag: "reject", reason: "invalid-state" } as const, state };
      }
      materialize(state);
      const read = readObservation(value);
      let observed: Observed | null = null;
      if (read.ok) {
        const o = read.observation;
        const result = o.tag === "result" ? o : null;
        observed = {
          tag: OBSERVATION_TAGS.indexOf(o.tag),
          seq: "seq" in o ? o.seq : 0,
          now: o.now,
          ok: result?.outcome === "ok",
          retryable: result?.retryable ?? false,
          bytes: result?.bytes ?? 0,
          detail: result?.detail == null ? null : encodeDetail(result.detail),
        };
        observe(observed);
      } else {
        kernel.observeUnreadable(REJECT_REASONS.indexOf(read.reason));
      }
      const tag = kernel.step();
      const decision = decisionOf(
        {
          tag,
          seq: kernel.decisionSeqValue(),
          reason: kernel.decisionReasonCode(),
          budget: kernel.decisionBudgetCode(),
          step: kernel.decisionStepIndex(),
          subPlanSteps: subPlanStepsOf(kernel),
          attempt: kernel.decisionAttemptValue(),
        },
        state.run,
      );
      if (tag === REJECT) return { decision, state };
      const next = remember(new KernelState(state.run, null, state, observed, state.replays + 1));
      owner.head = next;
      if (next.replays * REPLAY_COST_BYTES >= (savedBytesOf.get(state.run) ?? 0)) save(next);
      return { decision, state: next };
    },
    terminal(state: unknown): Terminal {
      if (!isMine(state)) throw new TypeError("statefold: not a state of this executive engine");
      materialize(state);
      return terminalOf(kernel);
    },
    snapshot(state: unknown, key?: SnapshotKey): Uint8Array {
      if (!isMine(state)) throw new TypeError("statefold: not a state of this executive engine");
      materialize(state);
      return snapshotState(readWorkingState(kernel, state.run), key);
    },
    restore(bytes: unknown, key?: SnapshotKey) {
      const restored = restoreState(bytes, key);
      if (!("state" in restored)) return restored as { readonly rejected: RestoreRejection };
      const reference = restored.state;
      const run = packSpec(reference.spec, {
        ...(reference.frames.get(0) as Frame).limits,
        depth: reference.depth,
      });
      loadRun(owner, run);
      writeWorkingState(kernel, run, reference);
      const state = remember(new KernelState(run, null, null, null, 0));
      save(state);
      owner.head = state;
      return { state };
    },
  };
  // A reject gives back what it was given, so a state in is a state out.
  return Object.freeze(machine as ExecutiveMachine<KernelState>);
}

function encodeDetail(detail: string): Uint8Array {
  const bytes = new Uint8Array(3 * detail.length);
  return bytes.subarray(0, encodeWtf8Into(detail, bytes, 0));
}

/** The global index of the step `id` of plan `plan`. */
function globalStep(run: PackedSpec, plan: number, id: string): number {
  return (
    (run.tables.firstSteps[plan] as number) +
    ((run.tables.localIndex[plan] as ReadonlyMap<string, number>).get(id) as number)
  );
}

/** The sub-plan steps of the frames above the root (global indices), root first. */
function subPlanStepsOf(kernel: ExecutiveKernelExports): number[] {
  const frames = kernel.stateI32(offsetOf(kernel, "STATE_FRAME_COUNT"));
  const steps: number[] = [];
  for (let frame = 1; frame < frames; frame++) steps.push(kernel.frameSubStepOf(frame));
  return steps;
}

/** The kernel's working state as the reference's state. */
export function readWorkingState(kernel: ExecutiveKernelExports, run: PackedSpec): ExecutiveState {
  const i32 = (name: keyof ExecutiveKernelExports) => kernel.stateI32(offsetOf(kernel, name));
  const i64 = (name: keyof ExecutiveKernelExports) => kernel.stateI64(offsetOf(kernel, name));
  const status = STATUSES[i32("STATE_STATUS")] as ExecutiveState["status"];
  const frameCount = i32("STATE_FRAME_COUNT");
  const frames: Frame[] = [];
  for (let index = 0; index < frameCount; index++) {
    const subStep = index === 0 ? -1 : kernel.frameSubStepOf(index);
    const step = run.tables.steps[subStep];
    const plan = step === undefined ? run.tables.spec.plan : (step as { plan: Frame["plan"] }).plan;
    const limits = Object.fromEntries(
      LIMITS.map((limit, i) => [limit, kernel.frameLimitOf(index, i)]),
    ) as unknown as Limits;
    let frame = frameOf(step === undefined ? null : step.id, plan, Object.freeze(limits));
    for (let i = 0; i < kernel.frameDoneCountOf(index); i++) {
      frame = withDone(
        frame,
        (run.tables.steps[kernel.frameDoneStep(index, i)] as { id: string }).id,
      );
    }
    const used = Object.fromEntries(
      COUNTERS.map((counter, i) => [counter, kernel.frameUsedOf(index, i)]),
    ) as unknown as Used;
    frames.push(Object.freeze({ ...frame, used: Object.freeze(used) }));
  }
  const failure = failureOf(i32("STATE_FAILURE_REASON"), i32("STATE_FAILURE_BUDGET"));
  const detailLength = i32("STATE_DETAIL_LENGTH");
  const outstandingStep = i32("STATE_OUTSTANDING_STEP");
  const outstandingSeq = i64("STATE_OUTSTANDING_SEQ");
  let outstanding: Outstanding | null = null;
  switch (i32("STATE_OUTSTANDING")) {
    case OUTSTANDING.execute:
      outstanding = Object.freeze({
        tag: "execute",
        seq: outstandingSeq,
        path: Object.freeze(
          [...subPlanStepsOf(kernel), outstandingStep].map((s) => packedStepId(run, s)),
        ),
        effect: packedStepEffect(run, outstandingStep),
        attempt: i64("STATE_ATTEMPT"),
      });
      break;
    case OUTSTANDING.checkpoint:
      outstanding = Object.freeze({ tag: "checkpoint", seq: outstandingSeq });
      break;
  }
  return Object.freeze({
    spec: run.tables.spec,
    depth: run.tables.budget.depth,
    status,
    failure,
    seq: i64("STATE_SEQ"),
    now: i32("STATE_HAS_NOW") === 0 ? null : i64("STATE_NOW"),
    frames: List(frames),
    outstanding,
    sinceCheckpoint: i64("STATE_SINCE_CHECKPOINT"),
    lastDetail:
      detailLength < 0
        ? null
        : decodeWtf8(
            new Uint8Array(kernel.memory.buffer, kernel.lastDetailPointer(), detailLength),
          ),
  });
}

/** Writes a state the reference checked into the kernel's working state. */
export function writeWorkingState(
  kernel: ExecutiveKernelExports,
  run: PackedSpec,
  state: ExecutiveState,
): void {
  kernel.resetRun();
  const set32 = (name: keyof ExecutiveKernelExports, value: number) =>
    kernel.setStateI32(offsetOf(kernel, name), value);
  const set64 = (name: keyof ExecutiveKernelExports, value: number) =>
    kernel.setStateI64(offsetOf(kernel, name), value);
  let planAt = 0;
  for (const [index, frame] of state.frames.entries()) {
    if (index > 0) {
      // Navigated by id in the run's own plans: the state's may be equal objects, not the same.
      const subStep = globalStep(run, planAt, frame.id as string);
      kernel.restoreFrame(subStep);
      planAt = run.tables.planIndex.get((run.tables.steps[subStep] as SubPlanStep).plan) as number;
    }
    for (const [i, limit] of LIMITS.entries()) kernel.restoreLimit(index, i, frame.limits[limit]);
    for (const [i, counter] of COUNTERS.entries())
      kernel.restoreUsed(index, i, frame.used[counter]);
    for (const id of frame.done) kernel.restoreDone(index, globalStep(run, planAt, id));
  }
  set32("STATE_STATUS", STATUSES.indexOf(state.status));
  set32(
    "STATE_FAILURE_REASON",
    state.failure === null ? -1 : FAIL_REASONS.indexOf(state.failure.reason),
  );
  set32(
    "STATE_FAILURE_BUDGET",
    state.failure?.budget === undefined ? -1 : EXHAUSTED_BUDGETS.indexOf(state.failure.budget),
  );
  set64("STATE_SEQ", state.seq);
  set32("STATE_HAS_NOW", state.now === null ? 0 : 1);
  set64("STATE_NOW", state.now ?? 0);
  set64("STATE_SINCE_CHECKPOINT", state.sinceCheckpoint);
  const outstanding = state.outstanding;
  set32(
    "STATE_OUTSTANDING",
    outstanding === null ? OUTSTANDING.none : OUTSTANDING[outstanding.tag],
  );
  if (outstanding !== null) set64("STATE_OUTSTANDING_SEQ", outstanding.seq);
  if (outstanding?.tag === "execute") {
    set32("STATE_OUTSTANDING_STEP", globalStep(run, planAt, outstanding.path.at(-1) as string));
    set64("STATE_ATTEMPT", outstanding.attempt);
  }
  if (state.lastDetail === null) {
    kernel.setLastDetail(-1);
  } else {
    const room = new Uint8Array(
      kernel.memory.buffer,
      kernel.hostDetailPointer(),
      3 * state.lastDetail.length,
    );
    kernel.setLastDetail(encodeWtf8Into(state.lastDetail, room, 0));
  }
}
