/**
 * What statefold observes of an effect runtime it drives (docs/explore.md, "Refinement of an
 * effect runtime"): the model's state after the runtime's journal, the calls the runtime has
 * out, when it wants to wake, the clock, and the ledger — what the providers really executed and
 * what answer reached the executor that made each call. `observe` moves it by one environment
 * event and the runtime's answer, holding the answer to the first two checks in order: the
 * journal strictly conformant, then the ledger.
 */
import { foldRecord } from "../../models/operations/fold.js";
import { integrityMessage } from "../../models/operations/integrity.js";
import { readRecord } from "../../models/operations/read-record.js";
import { RULE_OF_REASON } from "../../models/operations/report.js";
import { initialState, type OperationsState } from "../../models/operations/state.js";
import type { Call, EnvAnswer } from "../driver.js";
import { stateText } from "./subject.js";

/** An event of the world around the runtime, as the protocol sends it. */
export type EnvEvent =
  | { readonly submit: { readonly op: string; readonly strand: string; readonly steps: string[] } }
  | {
      readonly respond: {
        readonly call: string;
        readonly result: string;
        readonly retryAfterMs?: number;
        readonly executed?: boolean;
      };
    }
  | { readonly tick: number }
  | { readonly cancel: { readonly op: string } }
  | { readonly crash: { readonly executed: string[] } }
  | { readonly takeover: { readonly strand: string; readonly executed: string[] } };

/** What reached the executor that made an effect's call: its answer, or nothing (`unheard`). */
type Heard = "ok" | "error" | "unheard";

export interface World {
  readonly model: OperationsState;
  /** The runtime's journal, a line each, parsed. */
  readonly journal: readonly unknown[];
  readonly calls: readonly Call[];
  readonly wake: number | null;
  readonly clock: number;
  /** Lost answers, crashes and takeovers so far. */
  readonly faults: number;
  /** The ops a client cancelled. */
  readonly cancelled: readonly string[];
  /** Each reserved effect's step, `op key`, as its intent named it. */
  readonly stepOf: Readonly<Record<string, string>>;
  /** The effects the providers executed, and how many times each step was executed. */
  readonly executed: readonly string[];
  readonly executions: Readonly<Record<string, number>>;
  readonly heard: Readonly<Record<string, Heard>>;
}

export interface EffectFinding {
  readonly check: "journal" | "ledger" | "progress";
  /** What shrinking keeps: the check, and the rule, breach or kind of failure. */
  readonly what: string;
  readonly message: string;
}

export const EMPTY_WORLD: World = {
  model: initialState(),
  journal: [],
  calls: [],
  wake: null,
  clock: 0,
  faults: 0,
  cancelled: [],
  stepOf: {},
  executed: [],
  executions: {},
  heard: {},
};

/** Equal for worlds statefold cannot tell apart: the runtime's memory is its own. */
export function worldKey(world: World): string {
  const { calls, wake, clock, faults, cancelled, executed, executions, heard } = world;
  return JSON.stringify([
    stateText(world.model),
    calls,
    wake,
    clock,
    faults,
    cancelled,
    executed,
    Object.entries(executions).sort(),
    Object.entries(heard).sort(),
  ]);
}

/** Whether an event is a fault: an answer lost, a crash, a takeover. */
export function isFault(event: EnvEvent): boolean {
  return (
    ("respond" in event && event.respond.result === "lost") ||
    "crash" in event ||
    "takeover" in event
  );
}

/** The world after `event` and the runtime's `answer` to it, or the first check the answer fails. */
export function observe(world: World, event: EnvEvent, answer: EnvAnswer): World | EffectFinding {
  const ledger = new Ledger(world);
  ledger.witness(event);
  const journal = [...world.journal];
  let model = world.model;
  const stepOf = { ...world.stepOf };
  const committed: Record<string, unknown>[] = [];
  for (const line of answer.journal) {
    const at = journal.length + 1;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      return journalFinding("integrity (malformed-event)", `line ${at} is not JSON: ${line}`);
    }
    journal.push(entry);
    const read = readRecord(entry);
    if (!read.ok) {
      const { reason } = read.fault;
      return journalFinding(`integrity (${reason})`, `line ${at}: ${integrityMessage(read.fault)}`);
    }
    const judged = foldRecord(model, read.record);
    if (judged.reason !== null) {
      const rule = RULE_OF_REASON[judged.reason];
      return journalFinding(
        `${rule} (${judged.reason})`,
        `line ${at} breaks ${rule}: ${judged.reason}`,
      );
    }
    model = judged.state;
    const record = read.record as unknown as Record<string, unknown>;
    if (record.kind === "intent") stepOf[record.effect as string] = `${record.op} ${record.key}`;
    committed.push({ ...record, line: at });
  }
  const breach =
    ledger.callsCommitted(world.calls, answer.calls, stepOf) ??
    ledger.executedTwice(stepOf) ??
    ledger.truthOf(committed);
  if (breach !== null) return breach;
  return {
    model,
    journal,
    calls: answer.calls,
    wake: answer.wake,
    clock: "tick" in event ? event.tick : world.clock,
    faults: world.faults + (isFault(event) ? 1 : 0),
    cancelled: "cancel" in event ? [...world.cancelled, event.cancel.op] : world.cancelled,
    stepOf,
    ...ledger.entries(),
  };
}

function journalFinding(what: string, said: string): EffectFinding {
  return {
    check: "journal",
    what,
    message: `the runtime's journal is not strictly conformant: ${said}`,
  };
}

function ledgerFinding(breach: string, said: string): EffectFinding {
  return { check: "ledger", what: `ledger (${breach})`, message: said };
}

/** The providers' ledger: what was executed, and what reached each call's executor. */
class Ledger {
  private readonly executed: Set<string>;
  private readonly executions: Record<string, number>;
  private readonly heard: Record<string, Heard>;
  /** The effects executed by this event. */
  private readonly now: string[] = [];

  constructor(private readonly world: World) {
    this.executed = new Set(world.executed);
    this.executions = { ...world.executions };
    this.heard = { ...world.heard };
  }

  /** What the event did at the providers, and what it let reach the runtime. */
  witness(event: EnvEvent): void {
    const { calls } = this.world;
    if ("respond" in event) {
      const { call: id, result, executed } = event.respond;
      const call = calls.find((outstanding) => outstanding.id === id);
      if (call?.type !== "effect") return;
      const ran = result === "ok" || (result === "lost" && executed === true);
      this.settle(call, result === "ok" ? "ok" : result === "lost" ? "unheard" : "error", ran);
      return;
    }
    const cut =
      "crash" in event
        ? { calls, executed: event.crash.executed }
        : "takeover" in event
          ? {
              calls: calls.filter((call) => this.strandOf(call) === event.takeover.strand),
              executed: event.takeover.executed,
            }
          : null;
    for (const call of cut?.calls ?? []) {
      if (call.type === "effect")
        this.settle(call, "unheard", cut?.executed.includes(call.id) ?? false);
    }
  }

  private strandOf(call: Call): string | undefined {
    return this.world.model.operations.get(call.op)?.strand;
  }

  private settle(call: Call, heard: Heard, ran: boolean): void {
    this.heard[call.effect] = heard;
    if (!ran) return;
    this.executed.add(call.effect);
    this.now.push(call.effect);
  }

  /** Commit, then act: every new effect call names an effect whose intent is committed. */
  callsCommitted(
    before: readonly Call[],
    after: readonly Call[],
    stepOf: Readonly<Record<string, string>>,
  ): EffectFinding | null {
    const old = new Set(before.map((call) => call.id));
    for (const call of after) {
      if (old.has(call.id) || call.type !== "effect") continue;
      if (stepOf[call.effect]?.split(" ")[0] === call.op) continue;
      return ledgerFinding(
        "act-before-commit",
        `call ${call.id} asks a provider to perform effect ${call.effect} of ${call.op}, whose intent is not in the journal`,
      );
    }
    return null;
  }

  /** Exactly once where it matters: no step executed twice at the providers. */
  executedTwice(stepOf: Readonly<Record<string, string>>): EffectFinding | null {
    for (const effect of this.now) {
      const step = stepOf[effect] ?? effect;
      this.executions[step] = (this.executions[step] ?? 0) + 1;
      if ((this.executions[step] as number) < 2) continue;
      const [op, key] = step.split(" ");
      return ledgerFinding(
        "executed-twice",
        `step ${key} of ${op} was executed ${this.executions[step]} times at the provider (this time as effect ${effect}), though its journal may look clean`,
      );
    }
    return null;
  }

  /** Settlements and readbacks that tell the truth about what the providers did and said. */
  truthOf(committed: readonly Record<string, unknown>[]): EffectFinding | null {
    for (const record of committed) {
      const effect = record.effect as string;
      const heard = this.heard[effect];
      const line = `line ${record.line}`;
      if (record.kind === "settled") {
        const outcome = record.outcome as string;
        if (heard === (outcome === "unknown" ? "unheard" : outcome)) continue;
        const truth =
          heard === undefined
            ? "no answer to its call has come yet"
            : heard === "unheard"
              ? "no answer to its call reached the runtime"
              : `its call was answered ${heard}`;
        return ledgerFinding(
          "untrue-settlement",
          `${line} settles effect ${effect} as ${outcome}, but ${truth}`,
        );
      }
      if (record.kind !== "readback") continue;
      const found = this.executed.has(effect) ? "committed" : "absent";
      if (record.found === found) continue;
      return ledgerFinding(
        "untrue-readback",
        `${line} reads effect ${effect} back as ${record.found}, but the provider's ledger says ${found}`,
      );
    }
    return null;
  }

  entries(): Pick<World, "executed" | "executions" | "heard"> {
    return {
      executed: [...this.executed].sort(),
      executions: this.executions,
      heard: this.heard,
    };
  }
}
