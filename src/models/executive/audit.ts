/**
 * The audit of an `executive` journal (docs/models/executive.md, "The journal and its audit"):
 * deterministic replay, the check a workflow engine's replayer makes. Every line's observation
 * goes through `step` and the decision the host recorded must equal the machine's, as JSON
 * values (key order aside; an extra key is a difference). After a mismatch the replay goes on
 * from the machine's own state. A line that is not an object with both keys stops the replay
 * there (`malformed-event`).
 */
import type { AuditSource } from "../journal-source.js";
import { UnparseableLine } from "../journal-source.js";
import { FINDINGS_LISTED_MAX, type ReportFrame } from "../report-frame.js";
import { createExecutive, type ExecutiveMachine, type Terminal } from "./machine.js";
import type { Decision } from "./observation.js";
import { wtf8Length } from "./plain-data.js";
import type { ExecutiveRuleName } from "./rules.js";
import type { Budget, Spec } from "./spec.js";
import type { ExecutiveSemantics, ExecutiveState, Status, Used } from "./state.js";

/** Past this many bytes a recorded decision is reported by its size, not quoted. */
export const RECORDED_BYTES_MAX = 4096;

export type ExecutiveVerdict =
  | { readonly holds: true }
  | { readonly holds: false; readonly index: number; readonly line?: number };

export type DecisionMismatch = {
  readonly index: number;
  readonly line?: number;
  readonly reason: "decision-mismatch";
  readonly expected: Decision;
} & ({ readonly recorded: unknown } | { readonly recordedBytes: number });

export interface ExecutiveIntegrity {
  readonly index: number;
  readonly line?: number;
  readonly reason: "malformed-event";
  readonly message: string;
}

export interface ExecutiveFinal {
  readonly status: Status;
  readonly seq: number;
  /** The root frame's counters: the run's. */
  readonly used: Used;
  readonly outcome: Terminal;
}

export type ExecutiveReport = ReportFrame<
  "executive",
  ExecutiveIntegrity,
  { readonly [rule in ExecutiveRuleName]: ExecutiveVerdict },
  DecisionMismatch,
  ExecutiveFinal
>;

/** What an executive journal's header gives: the spec and budget it was run under. */
export interface ExecutiveRun {
  readonly spec: Spec;
  readonly budget: Budget;
}

/** `semantics` are the reference's when not given; explore's mutants give their own. */
export function auditExecutive(
  run: ExecutiveRun,
  entries: readonly unknown[],
  source: AuditSource = {},
  semantics?: ExecutiveSemantics,
): ExecutiveReport {
  const lineOf = (index: number) =>
    source.lines === undefined ? {} : { line: source.lines[index] as number };
  // A machine of the audit's own: its states are never handed out.
  const machine = createExecutive(semantics);
  const made = machine.initialState(run.spec, run.budget);
  if (!("state" in made)) throw new Error("statefold: the run's spec and budget were not checked");
  let state: ExecutiveState = made.state;
  let decisionsMatch: ExecutiveVerdict = { holds: true };
  let terminalRespected: ExecutiveVerdict = { holds: true };
  const listed: DecisionMismatch[] = [];
  let mismatches = 0;
  let integrity: ExecutiveIntegrity | null = null;

  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index];
    const problem = malformation(entry);
    if (problem !== null) {
      integrity = { index, ...lineOf(index), reason: "malformed-event", message: problem };
      break;
    }
    const { observation, decision: recorded } = entry as {
      observation: unknown;
      decision: unknown;
    };
    const wasTerminal = machine.terminal(state) !== null;
    const result = machine.step(state, observation);
    state = result.state;
    if (jsonEqual(result.decision, recorded)) continue;
    mismatches += 1;
    const at = { holds: false, index, ...lineOf(index) } as const;
    if (decisionsMatch.holds) decisionsMatch = at;
    if (wasTerminal && terminalRespected.holds) terminalRespected = at;
    if (listed.length < FINDINGS_LISTED_MAX) {
      listed.push(mismatch(index, lineOf(index), result.decision, recorded));
    }
  }

  const conformant = integrity === null && decisionsMatch.holds && terminalRespected.holds;
  const root = state.frames.get(0);
  return {
    model: "executive",
    conformant,
    strictlyConformant: conformant,
    events: entries.length,
    integrity,
    tornTail: source.tornTail ?? null,
    invariants: { decisionsMatch, terminalRespected },
    legality: { illegal: mismatches, first: listed },
    final: {
      status: state.status,
      seq: state.seq,
      used: { ...(root?.used as Used) },
      outcome: machine.terminal(state),
    },
  };
}

/**
 * The state the journal's observations lead to on `machine` (a fresh reference machine by
 * default), the recorded decisions aside; at a malformed line, the state before it and where it
 * stopped.
 */
export function replayObservations<State = ExecutiveState>(
  run: ExecutiveRun,
  entries: readonly unknown[],
  machine: ExecutiveMachine<State> = createExecutive() as unknown as ExecutiveMachine<State>,
): {
  readonly state: State;
  readonly stop: {
    readonly index: number;
    readonly reason: "malformed-event";
    readonly message: string;
  } | null;
} {
  const made = machine.initialState(run.spec, run.budget);
  if (!("state" in made)) throw new Error("statefold: the run's spec and budget were not checked");
  let state = made.state;
  for (let index = 0; index < entries.length; index++) {
    const problem = malformation(entries[index]);
    if (problem !== null)
      return { state, stop: { index, reason: "malformed-event", message: problem } };
    state = machine.step(state, (entries[index] as { observation: unknown }).observation).state;
  }
  return { state, stop: null };
}

/** Why a journal line is not an observation and its decision, in the order they are judged. */
export const MALFORMED_LINE_MESSAGES = [
  "the line is not UTF-8",
  "the line is not JSON",
  'expected an object with "observation" and "decision"',
  'expected a field "observation", found none',
  'expected a field "decision", found none',
  'expected "decision" to be an object',
] as const;

/** Why a journal line is not an observation and its decision, or null when it is one. */
function malformation(entry: unknown): string | null {
  const [notUtf8, notJson, notAnObject, noObservation, noDecision, decisionNotAnObject] =
    MALFORMED_LINE_MESSAGES;
  if (entry instanceof UnparseableLine) {
    return entry.problem === "invalid-utf8" ? notUtf8 : notJson;
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return notAnObject;
  if (!Object.hasOwn(entry, "observation")) return noObservation;
  if (!Object.hasOwn(entry, "decision")) return noDecision;
  const decision = (entry as { decision: unknown }).decision;
  if (typeof decision !== "object" || decision === null || Array.isArray(decision)) {
    return decisionNotAnObject;
  }
  return null;
}

function mismatch(
  index: number,
  line: { line?: number },
  expected: Decision,
  recorded: unknown,
): DecisionMismatch {
  const bytes = wtf8Length(JSON.stringify(recorded)); // well-formed: JSON.stringify escapes lone surrogates
  const shown = bytes > RECORDED_BYTES_MAX ? { recordedBytes: bytes } : { recorded };
  return { index, ...line, reason: "decision-mismatch", expected, ...shown };
}

/** Equal as JSON values: the same keys (in any order) with equal values, arrays item by item. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(b, key) &&
      jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}
