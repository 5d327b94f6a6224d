/**
 * The fold (mirrors src/models/dag/fold.ts): `applyEvent` is the single primitive that moves node
 * state, used by the JSONL scanner and the record format alike. It applies an event without any
 * legality check; the only fault it knows is the log-integrity one that depends on state,
 * discharge-without-deposit (the scanner found the others before).
 */
import { Kind, Result, SurfaceShape } from "./events";
import {
  depositPhaseAt,
  GateMode,
  modeAt,
  phaseAt,
  Status,
  statusAt,
  Validation,
  validationAt,
} from "./state";
import { storeMalformed, storePayload } from "./surface";
import { noteProvenChange } from "./transitions";

export function isDischargeWithoutDeposit(node: i32, kind: u8): bool {
  return kind == Kind.DISCHARGED && load<u8>(validationAt(node)) == Validation.NONE;
}

/** Applies a well-formed event to `node`; false when memory for its surface is exhausted. */
export function applyEvent(node: i32, kind: u8, result: u8, surfaceShape: u8): bool {
  switch (kind) {
    case Kind.DISPATCHED:
      setStatus(node, Status.DISPATCHED);
      break;
    case Kind.LANDED:
      setStatus(node, Status.LANDED);
      setDeposit(
        node,
        Validation.PENDING,
        GateMode.GATED,
        load<u32>(phaseAt(node)),
      );
      break;
    case Kind.GATE_CHECKED:
      resolve(node, result == Result.PASS, GateMode.GATED);
      break;
    case Kind.QUARANTINED: {
      const phase = advancePhase(node);
      setStatus(node, Status.QUARANTINED);
      setDeposit(node, Validation.PENDING, GateMode.DEGRADED, phase);
      break;
    }
    case Kind.DISCHARGED:
      resolve(node, result == Result.PASS, load<u8>(modeAt(node)));
      break;
    case Kind.SKIPPED:
      setStatus(node, Status.SKIPPED);
      break;
    case Kind.ESCALATED:
      setStatus(node, Status.ESCALATED);
      break;
    default: // Kind.SURFACE_WIDENED: the payload (empty when absent) replaces the surface verbatim
      if (surfaceShape != SurfaceShape.OTHER) return storePayload(node);
      storeMalformed(node);
  }
  return true;
}

/** A gate check or discharge: the phase advances and the deposit takes the verdict. */
function resolve(node: i32, passed: bool, mode: u8): void {
  const phase = advancePhase(node);
  setStatus(node, passed ? Status.PROVEN : Status.REWORK);
  setDeposit(node, passed ? Validation.PROVEN : Validation.FAILED, mode, phase);
}

/** Phase + 1. The phase is a u32: 4·10⁹ gate events on one node is past any journal this reads. */
function advancePhase(node: i32): u32 {
  const at = phaseAt(node);
  const phase = load<u32>(at) + 1;
  store<u32>(at, phase);
  return phase;
}

function setDeposit(node: i32, validation: u8, mode: u8, phase: u32): void {
  store<u8>(validationAt(node), validation);
  store<u8>(modeAt(node), mode);
  store<u32>(depositPhaseAt(node), phase);
}

function setStatus(node: i32, status: u8): void {
  const at = statusAt(node);
  const wasProven = load<u8>(at) == Status.PROVEN;
  const nowProven = status == Status.PROVEN;
  store<u8>(at, status);
  if (wasProven != nowProven) noteProvenChange(node, nowProven);
}
