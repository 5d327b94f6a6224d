/**
 * The audit of one journal's events, after the scanner resolved each to a node, a kind, a result
 * and a surface shape: the fold, the legality of each event and the six invariants, checked
 * incrementally — only the named node's state changes in a step, so each step invariant is judged
 * on that node, O(1) per event (O(|surface|) for a surface event). Node state lives in typed
 * arrays, one column per field; codes are the positions in the model's own lists (EVENT_KINDS,
 * STATUSES).
 *
 * dagPreserved holds by construction: nothing writes the DAG after it is prepared.
 */
import { encodeWtf8 } from "../../../bindings/wtf8.js";
import type { Dag } from "../../../src/models/dag/dag.js";
import { ILLEGAL_EVENTS_LISTED_MAX, INVARIANT_NAMES } from "../../../src/models/dag/report.js";
import { reverseEdges } from "../../../src/models/dag/reverse-edges.js";
import type { IllegalityReason } from "../../../src/models/dag/transitions.js";
import { ByteTable } from "./byte-table.js";
import { Surfaces } from "./surfaces.js";

export const Kind = {
  DISPATCHED: 0,
  LANDED: 1,
  GATE_CHECKED: 2,
  QUARANTINED: 3,
  DISCHARGED: 4,
  SKIPPED: 5,
  ESCALATED: 6,
  SURFACE_WIDENED: 7,
} as const;

export const Status = {
  QUEUED: 0,
  DISPATCHED: 1,
  LANDED: 2,
  PROVEN: 3,
  QUARANTINED: 4,
  REWORK: 5,
  SKIPPED: 6,
  ESCALATED: 7,
} as const;

const Validation = { NONE: 0, PENDING: 1, PROVEN: 2, FAILED: 3 } as const;
const Mode = { GATED: 0, DEGRADED: 1 } as const;

export const Result = { OTHER: 0, PASS: 1, FAIL: 2, TIMEOUT: 3 } as const;

/** What a surface field holds: missing or null, an array of strings, anything else. */
export const SurfaceShape = { ABSENT: 0, STRINGS: 1, OTHER: 2 } as const;

/** Step invariants, in report order (tamperEvident is judged on the final state). */
export const STEP_INVARIANTS = INVARIANT_NAMES.filter(
  (name): name is Exclude<(typeof INVARIANT_NAMES)[number], "tamperEvident"> =>
    name !== "tamperEvident",
);
const PHASE_MONOTONIC = 0;
const NO_PENDING_PROVEN = 1;
const SCHEDULE_CORRECT = 3;
const SURFACE_MONOTONIC = 4;

/** A DAG made ready for audits: the id table and, per node, its dependents and distinct deps. */
export class PreparedDag {
  readonly ids = new ByteTable();
  readonly depCounts: Int32Array;
  /** Node n's dependents are dependents[dependentsStart[n] .. dependentsStart[n + 1]). */
  readonly dependentsStart: Int32Array;
  readonly dependents: Int32Array;

  constructor(readonly dag: Dag) {
    for (const node of dag.nodes) {
      const id = encodeWtf8(node.id);
      this.ids.intern(id, 0, id.length);
    }
    // Copied: the model's arrays are shared (and unsigned); these stay the auditor's own.
    const edges = reverseEdges(dag);
    this.depCounts = new Int32Array(edges.distinctDeps);
    this.dependentsStart = new Int32Array(edges.dependentsStart);
    this.dependents = new Int32Array(edges.dependents);
  }
}

export interface IllegalEntry {
  readonly index: number;
  readonly line: number;
  readonly kind: number;
  readonly node: number;
  readonly reason: IllegalityReason;
}

export class NodeStates {
  status: Uint8Array;
  private validation: Uint8Array;
  private mode: Uint8Array;
  passLogged: Uint8Array;
  private phase: Uint32Array;
  private depositPhase: Uint32Array;
  /** Distinct deps not proven now. */
  private unproven: Int32Array;
  readonly surfaces = new Surfaces();

  /** Per step invariant: the first failing event's index (-1 while it holds), line and node. */
  readonly violationIndex = new Float64Array(STEP_INVARIANTS.length);
  readonly violationLine = new Float64Array(STEP_INVARIANTS.length);
  readonly violationNode = new Int32Array(STEP_INVARIANTS.length);
  illegalCount = 0;
  illegalListed: IllegalEntry[] = [];

  constructor(private readonly prepared: PreparedDag) {
    const n = prepared.dag.nodes.length;
    this.status = new Uint8Array(n);
    this.validation = new Uint8Array(n);
    this.mode = new Uint8Array(n);
    this.passLogged = new Uint8Array(n);
    this.phase = new Uint32Array(n);
    this.depositPhase = new Uint32Array(n);
    this.unproven = prepared.depCounts.slice();
    this.surfaces.reset(n);
    this.violationIndex.fill(-1);
  }

  hasDeposit(node: number): boolean {
    return this.validation[node] !== Validation.NONE;
  }

  /**
   * Audits one event on a known node, of a known kind, that is not a discharge without deposit. A
   * surface event's payload has been collected into `surfaces`.
   */
  audit(index: number, line: number, node: number, kind: number, result: number, shape: number) {
    const reason = this.illegality(node, kind, result, shape);
    if (reason !== null) this.noteIllegal(index, line, node, kind, reason);
    if (kind === Kind.DISPATCHED && this.unproven[node] !== 0) {
      this.noteViolation(SCHEDULE_CORRECT, index, line, node);
    }
    if (
      kind === Kind.SURFACE_WIDENED &&
      (shape === SurfaceShape.OTHER || !this.surfaces.payloadKeepsSurface(node))
    ) {
      this.noteViolation(SURFACE_MONOTONIC, index, line, node);
    }
    const phaseBefore = this.phase[node] as number;
    this.apply(node, kind, result, shape);
    if ((this.phase[node] as number) < phaseBefore) {
      this.noteViolation(PHASE_MONOTONIC, index, line, node);
    }
    if (this.status[node] === Status.PROVEN && this.validation[node] === Validation.PENDING) {
      this.noteViolation(NO_PENDING_PROVEN, index, line, node);
    }
    if ((kind === Kind.GATE_CHECKED || kind === Kind.DISCHARGED) && result === Result.PASS) {
      this.passLogged[node] = 1;
    }
  }

  /** Why the public API could not have logged this event, or null when it could. */
  private illegality(
    node: number,
    kind: number,
    result: number,
    shape: number,
  ): IllegalityReason | null {
    const status = this.status[node] as number;
    switch (kind) {
      case Kind.DISPATCHED:
        if (status !== Status.QUEUED && status !== Status.REWORK) return "wrong-status";
        return this.unproven[node] === 0 ? null : "dependencies-not-proven";
      case Kind.LANDED:
        return status === Status.DISPATCHED ? null : "wrong-status";
      case Kind.QUARANTINED:
        return status === Status.LANDED ? null : "wrong-status";
      case Kind.GATE_CHECKED:
        if (status !== Status.LANDED) return "wrong-status";
        return result === Result.OTHER ? "invalid-result" : null;
      case Kind.DISCHARGED:
        if (status !== Status.QUARANTINED) return "wrong-status";
        return result === Result.PASS || result === Result.FAIL ? null : "invalid-result";
      case Kind.SKIPPED:
      case Kind.ESCALATED:
        return isTerminal(status) ? "already-terminal" : null;
      default: // surface-widened
        if (isTerminal(status)) return "already-terminal";
        if (shape === SurfaceShape.OTHER) return "invalid-surface";
        return this.surfaces.payloadKeepsSurface(node) ? null : "surface-shrinks";
    }
  }

  /** The fold (src/models/dag/fold.ts `applyEvent`): no legality check. */
  private apply(node: number, kind: number, result: number, shape: number): void {
    switch (kind) {
      case Kind.DISPATCHED:
        this.setStatus(node, Status.DISPATCHED);
        break;
      case Kind.LANDED:
        this.setStatus(node, Status.LANDED);
        this.setDeposit(node, Validation.PENDING, Mode.GATED, this.phase[node] as number);
        break;
      case Kind.GATE_CHECKED:
        this.resolve(node, result === Result.PASS, Mode.GATED);
        break;
      case Kind.QUARANTINED: {
        const phase = ((this.phase[node] as number) + 1) >>> 0;
        this.phase[node] = phase;
        this.setStatus(node, Status.QUARANTINED);
        this.setDeposit(node, Validation.PENDING, Mode.DEGRADED, phase);
        break;
      }
      case Kind.DISCHARGED:
        this.resolve(node, result === Result.PASS, this.mode[node] as number);
        break;
      case Kind.SKIPPED:
        this.setStatus(node, Status.SKIPPED);
        break;
      case Kind.ESCALATED:
        this.setStatus(node, Status.ESCALATED);
        break;
      default: // surface-widened: the payload (empty when absent) replaces the surface verbatim
        if (shape === SurfaceShape.OTHER) this.surfaces.storeMalformed(node);
        else this.surfaces.storePayload(node);
    }
  }

  /** A gate check or discharge: the phase advances and the deposit takes the verdict. */
  private resolve(node: number, passed: boolean, mode: number): void {
    const phase = ((this.phase[node] as number) + 1) >>> 0;
    this.phase[node] = phase;
    this.setStatus(node, passed ? Status.PROVEN : Status.REWORK);
    this.setDeposit(node, passed ? Validation.PROVEN : Validation.FAILED, mode, phase);
  }

  private setDeposit(node: number, validation: number, mode: number, phase: number): void {
    this.validation[node] = validation;
    this.mode[node] = mode;
    this.depositPhase[node] = phase;
  }

  /** Keeps every dependent's count of unproven deps right when the node enters or leaves proven. */
  private setStatus(node: number, status: number): void {
    const wasProven = this.status[node] === Status.PROVEN;
    const nowProven = status === Status.PROVEN;
    this.status[node] = status;
    if (wasProven === nowProven) return;
    const { dependents, dependentsStart } = this.prepared;
    const step = nowProven ? -1 : 1;
    const end = dependentsStart[node + 1] as number;
    for (let edge = dependentsStart[node] as number; edge < end; edge++) {
      const dependent = dependents[edge] as number;
      this.unproven[dependent] = (this.unproven[dependent] as number) + step;
    }
  }

  private noteViolation(invariant: number, index: number, line: number, node: number): void {
    if ((this.violationIndex[invariant] as number) >= 0) return;
    this.violationIndex[invariant] = index;
    this.violationLine[invariant] = line;
    this.violationNode[invariant] = node;
  }

  private noteIllegal(
    index: number,
    line: number,
    node: number,
    kind: number,
    reason: IllegalityReason,
  ): void {
    this.illegalCount += 1;
    if (this.illegalListed.length < ILLEGAL_EVENTS_LISTED_MAX) {
      this.illegalListed.push({ index, line, kind, node, reason });
    }
  }
}

function isTerminal(status: number): boolean {
  return status === Status.PROVEN || status === Status.SKIPPED || status === Status.ESCALATED;
}
