/**
 * The `executive` model as explore drives it (docs/explore.md, "The executive model"): from the
 * ready state of a spec and budget, every observation the vocabulary has — `start`; a `result`
 * of the outstanding execute (`ok` with no output, `ok` with all the output bytes the budget has
 * left and one more, a retryable `error`, a final `error`) and one of an earlier, consumed
 * decision; `checkpointed` for the outstanding checkpoint; `tick`; `cancel` — each at the clock,
 * 1 ms before it (which the machine refuses) and at the current frame's deadline; and a `tick`
 * 1 ms after the clock, time passing. Every observation is a step: the machine decides for each, a `reject` too,
 * which keeps the state. Each journal line is the observation and the machine's decision.
 */
import { auditExecutive, type ExecutiveRun } from "../../models/executive/audit.js";
import { stepBySemantics } from "../../models/executive/machine.js";
import type { Decision } from "../../models/executive/observation.js";
import { canonicalBody } from "../../models/executive/snapshot.js";
import { readSpec } from "../../models/executive/spec.js";
import { type ExecutiveState, readyState } from "../../models/executive/state.js";
import { type KernelAuditing, kernelAgrees, type Subject } from "../explore.js";
import { firstBroken } from "./counterexample.js";
import { STEP_INVARIANTS } from "./invariants.js";

/** A journal's lines, newest first, sharing its tail with every earlier state's. */
type LineLog = {
  readonly line: { readonly observation: unknown; readonly decision: Decision };
  readonly earlier: LineLog;
} | null;

export interface ExploredExecutive {
  readonly machine: ExecutiveState;
  readonly log: LineLog;
}

export function linesOf(state: ExploredExecutive): { observation: unknown; decision: Decision }[] {
  const lines: { observation: unknown; decision: Decision }[] = [];
  for (let entry = state.log; entry !== null; entry = entry.earlier) lines.push(entry.line);
  return lines.reverse();
}

/** The spec and budget as the machine reads them: what a journal's header says. */
export function runOf(spec: unknown, budget: unknown): ExecutiveRun {
  const read = readSpec(spec, budget);
  if (!read.ok) {
    throw new Error(`statefold: the spec or budget is refused at ${read.rejection.path.join(".")}`);
  }
  return { spec: read.spec, budget: read.budget };
}

const encoder = new TextEncoder();

export function executiveJournalBytes(run: ExecutiveRun, lines: readonly unknown[]): Uint8Array {
  const header = JSON.stringify({
    statefold: "journal",
    version: 1,
    model: "executive",
    spec: run.spec,
    budget: run.budget,
  });
  return encoder.encode(`${[header, ...lines.map((line) => JSON.stringify(line))].join("\n")}\n`);
}

export function executiveSubject(
  run: ExecutiveRun,
  wasm?: KernelAuditing,
): Subject<ExploredExecutive> {
  return {
    *initialStates() {
      yield {
        name: "the ready state",
        state: { machine: readyState(run.spec, run.budget), log: null },
      };
    },
    *successors(state) {
      for (const observation of observations(state.machine)) {
        const { decision, state: after } = stepBySemantics(state.machine, observation);
        yield {
          action: JSON.stringify(observation),
          state: { machine: after, log: { line: { observation, decision }, earlier: state.log } },
        };
      }
    },
    key: (state) => canonicalBody(state.machine),
    checkStep(before, after) {
      const decision = after.log?.line.decision as Decision;
      for (const [name, broken] of Object.entries(STEP_INVARIANTS)) {
        if (broken(before.machine, decision, after.machine) !== null) return name;
      }
      return null;
    },
    checkState(state) {
      const lines = linesOf(state);
      const report = auditExecutive(run, lines);
      const broken = firstBroken(report, lines);
      if (broken !== null || wasm === undefined) return broken?.rule ?? null;
      const bytes = executiveJournalBytes(run, lines);
      return kernelAgrees(wasm, bytes, report) ? null : "engines differ";
    },
  };
}

/** Every observation explored from a state (see the module's comment). */
function* observations(state: ExecutiveState): Generator<Record<string, unknown>> {
  const clock = state.now ?? 0;
  const frame = state.frames.last();
  const deadline = frame?.limits.deadline ?? clock;
  const times = [clock, ...(clock > 0 ? [clock - 1] : []), ...(deadline > clock ? [deadline] : [])];
  for (const now of times) {
    yield { tag: "start", now };
    const outstanding = state.outstanding;
    if (outstanding?.tag === "execute") {
      const root = state.frames.first();
      const left = root === undefined ? 0 : root.limits.outputBytes - root.used.outputBytes;
      const result = { tag: "result", seq: outstanding.seq, now };
      yield { ...result, outcome: "ok", bytes: 0 };
      yield { ...result, outcome: "ok", bytes: left + 1 };
      yield { ...result, outcome: "error", retryable: true, bytes: 0 };
      yield { ...result, outcome: "error", bytes: 0 };
    }
    if (outstanding?.tag === "checkpoint") yield { tag: "checkpointed", seq: outstanding.seq, now };
    if (state.seq > 0) {
      yield { tag: "result", seq: state.seq - 1, outcome: "ok", bytes: 0, now };
    }
    yield { tag: "tick", now };
    yield { tag: "cancel", now };
  }
  // Time passing with nothing else to say: the one way the clock moves short of the deadline.
  if (clock + 1 < deadline) yield { tag: "tick", now: clock + 1 };
}
