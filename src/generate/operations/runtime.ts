/**
 * A simulated, well-behaved runtime of the `operations` model (docs/models/operations.md): it
 * keeps its own books of strands, ops and steps and writes the records such a runtime commits,
 * one at a time, interleaved across its strands. It decides with the model's exported
 * `retryWait`, `attemptsRemain` and `classify` but never folds, and keeps only its live ops, so
 * a journal of any length takes constant memory. Deterministic per seed (src/generate/random.ts).
 *
 * Each strand runs its ops one at a time; an op is a few turns of steps (`turn-2/assistant`,
 * `turn-2/tool-1`), worked one after another: an intent under a fresh effect id, then its
 * settlement — ok, a retryable error retried on the ladder (`notBefore` = at + retryWait, with the
 * provider's hint), another error, or a lost answer (`unknown`) that is read back `committed` or
 * `absent` (an absent one is retried as the model says). Now and then an op is cancelled, a
 * strand is leased again at a higher epoch (every record of a leased strand carries it), a
 * response is recorded with its class, an intent records its request and output limit.
 *
 * `fault(kind)` writes one of the faults of fault-kinds.ts instead, where the state has a place
 * for it, and books what the model then does with it ("What a breaking record still changes"),
 * so that the runtime goes on from there and no later record is a second finding.
 */
import { classify } from "../../models/operations/classify.js";
import {
  NO_RETRY_POLICY,
  type Policy,
  RESPONSE_CLASSES,
  type Request,
  type Response,
} from "../../models/operations/records.js";
import { attemptsRemain, retryWait } from "../../models/operations/retry-wait.js";
import { Random } from "../random.js";
import type { OperationsFaultKind } from "./fault-kinds.js";

/** The runtime's monotonic clock, in integer ms since it started (small integers print fast). */
const START_MS = 0;

/** Per pick of a strand: the chance of a new lease on it, and of a cancel of its op. */
const LEASE_CHANCE = 0.008;
const CANCEL_CHANCE = 0.012;

/** How many strands are tried for one that can act before the clock jumps to a retry's time. */
const PICKS_BEFORE_WAITING = 8;

interface PolicyChoice {
  readonly policy: Policy;
  /** The `policy` field as written, or "" for an op accepted without one. */
  readonly json: string;
}

const POLICIES: readonly PolicyChoice[] = [
  null,
  { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 500 },
  { maxAttempts: 5, baseDelayMs: 10, maxDelayMs: 200 },
  { maxAttempts: null, baseDelayMs: 5, maxDelayMs: 120 },
  { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
  { maxAttempts: 4, baseDelayMs: 40, maxDelayMs: 1000 },
].map((policy) =>
  policy === null
    ? { policy: NO_RETRY_POLICY, json: "" }
    : { policy, json: `,"policy":${JSON.stringify(policy)}` },
);

const REQUESTS: readonly Request[] = [
  { provider: "anthropic", model: "claude", api: "messages" },
  { provider: "openai", model: "gpt", api: "responses" },
  { provider: "local", model: "llama", api: "completions" },
];
const REQUEST_FIELDS = REQUESTS.map((request) => `,"request":${JSON.stringify(request)}`);

const OUTPUT_LIMITS = [0, 256, 4096] as const;

/** Provider hints: integers ≥ 0, and values that are no hint at all. */
const HINTS: readonly unknown[] = [0, 15, 60, 250, 800, -1, "soon", null, 2.5];

const ERROR_MESSAGES: readonly string[] = [
  "rate limited",
  "upstream timeout",
  "Context Window EXCEEDED for this model",
  "prompt is too long: 210000 tokens",
  "overloaded",
];

/** The step keys of an op's turns: `turn-t/assistant`, then its tool calls. */
const TURNS_MAX = 3;
const TOOLS_MAX = 2;
const TURN_KEYS: readonly (readonly string[])[] = Array.from({ length: TURNS_MAX }, (_, t) =>
  Array.from({ length: TOOLS_MAX + 1 }, (_, k) =>
    k === 0 ? `turn-${t + 1}/assistant` : `turn-${t + 1}/tool-${k}`,
  ),
);

/** What an op's runtime does next for its current step. */
type Phase = "intent" | "pending" | "unknown" | "finish";

interface Strand {
  readonly id: string;
  epoch: number | null;
  previousEpoch: number | null;
  /** `,"epoch":N` for a leased strand, else "". */
  epochField: string;
  /** The op the model holds as the strand's current one, or null. */
  current: Op | null;
  /** Its live ops: one, or more after a busy-strand fault. */
  readonly ops: Op[];
}

interface Op {
  readonly id: string;
  readonly strand: Strand;
  readonly policy: Policy;
  readonly keys: readonly string[];
  cancelled: boolean;
  failed: boolean;
  /** The current step's index in `keys`; `keys.length` once they are all done. */
  stepIndex: number;
  /** The current step's attempt (0 before its first intent) and that attempt's effect. */
  attempt: number;
  effect: string;
  request: Request | null;
  outputLimit: number;
  phase: Phase;
  /** Phase `intent` with `attempt` > 0: the step waits in retry-wait until this `at`. */
  notBefore: number;
  /** Unknown effects that are no longer their step's current attempt (after a blind retry). */
  readonly orphans: string[];
  /** Its last settlement's effect ("" before one) and text, the epoch field left out, for a duplicate. */
  lastSettledEffect: string;
  lastSettledText: string;
}

/** A fault's record (with its "\n") and whom the audit names for it. */
export interface FaultRecord {
  readonly text: string;
  readonly op: string;
  readonly effect: string | null;
}

/** A settlement as the runtime means it, or one of the two faults a settlement can be. */
const SettleMode = { Normal: 0, WrongNotBefore: 1, Misclassified: 2 } as const;
type SettleMode = (typeof SettleMode)[keyof typeof SettleMode];

export class OperationsRuntime {
  private readonly random: Random;
  /** Where the faults look for their places: a stream of its own. */
  private readonly faultRandom: Random;
  private readonly strands: Strand[];
  private now = START_MS;
  private opCount = 0;
  private effectCount = 0;
  private blocked: Op | null = null;

  constructor(seed: number, strands: number) {
    this.random = new Random(seed);
    this.faultRandom = new Random(seed ^ 0x0fa0175);
    this.strands = Array.from({ length: strands }, (_, i) => ({
      id: `strand-${i}`,
      epoch: null,
      previousEpoch: null,
      epochField: "",
      current: null,
      ops: [],
    }));
  }

  /** The next record a well-behaved runtime writes, with its "\n". */
  next(): string {
    this.tick();
    let waiting: Op | null = null;
    for (let pick = 0; pick < PICKS_BEFORE_WAITING; pick++) {
      const strand = this.strands[this.random.below(this.strands.length)] as Strand;
      this.blocked = null;
      const line = this.actOn(strand);
      if (line !== null) return line;
      waiting = this.blocked as Op | null;
    }
    // Every strand picked waits for a retry: the clock moves on to the last one's notBefore.
    const op = waiting as Op;
    this.now = Math.max(this.now, op.notBefore);
    return this.act(op) as string;
  }

  private tick(): void {
    this.now += this.random.below(4);
  }

  private actOn(strand: Strand): string | null {
    if (this.random.chance(LEASE_CHANCE)) return this.lease(strand);
    const { ops } = strand;
    if (strand.current === null && (ops.length === 0 || this.random.chance(0.5)))
      return this.accept(strand);
    return this.act(ops.length === 1 ? (ops[0] as Op) : (this.random.pick(ops) as Op));
  }

  /** The op's next record, or null when it waits to retry (then `blocked` is the op). */
  private act(op: Op): string | null {
    if (!op.cancelled && op.phase !== "finish" && this.random.chance(CANCEL_CHANCE))
      return this.cancel(op);
    // An unknown outcome holds back every later call of the op: read back first.
    const orphan = op.orphans.pop();
    if (orphan !== undefined) return this.readBack(op, orphan);
    switch (op.phase) {
      case "intent":
        if (op.cancelled) return this.finish(op);
        if (op.attempt > 0 && this.now < op.notBefore) {
          this.blocked = op;
          return null;
        }
        return this.intent(op);
      case "pending":
        return this.settle(op, SettleMode.Normal);
      case "unknown":
        return this.readBack(op, op.effect);
      case "finish":
        return this.finish(op);
      default: {
        const unreachable: never = op.phase;
        return unreachable;
      }
    }
  }

  private lease(strand: Strand): string {
    const epoch = (strand.epoch ?? this.random.below(4)) + 1 + this.random.below(3);
    strand.previousEpoch = strand.epoch;
    strand.epoch = epoch;
    strand.epochField = `,"epoch":${epoch}`;
    const owner = this.random.chance(0.7) ? `,"owner":"executor-${epoch}"` : "";
    return `{"kind":"lease","strand":"${strand.id}","epoch":${epoch}${owner}}\n`;
  }

  private accept(strand: Strand, epochField = strand.epochField): string {
    const id = `op-${this.opCount++}`;
    const choice = this.random.pick(POLICIES) as PolicyChoice;
    const turns = 1 + this.random.below(TURNS_MAX);
    const keys: string[] = [];
    for (let t = 0; t < turns; t++) {
      const tools = this.random.below(TOOLS_MAX + 1);
      for (let k = 0; k <= tools; k++) keys.push((TURN_KEYS[t] as readonly string[])[k] as string);
    }
    const op: Op = {
      id,
      strand,
      policy: choice.policy,
      keys,
      cancelled: false,
      failed: false,
      stepIndex: 0,
      attempt: 0,
      effect: "",
      request: null,
      outputLimit: 0,
      phase: "intent",
      notBefore: 0,
      orphans: [],
      lastSettledEffect: "",
      lastSettledText: "",
    };
    if (epochField === strand.epochField) {
      strand.ops.push(op);
      strand.current = op;
    }
    return `{"kind":"accepted","op":"${id}","strand":"${strand.id}"${choice.json}${epochField}}\n`;
  }

  /** The next attempt of the op's current step, under a fresh effect id. */
  private intent(op: Op): string {
    const attempt = op.attempt + 1;
    const effect = `e-${this.effectCount++}`;
    const key = op.keys[op.stepIndex] ?? "cleanup/after-cancel";
    op.attempt = attempt;
    op.effect = effect;
    op.phase = "pending";
    let fields = "";
    const r = this.random.below(REQUESTS.length * 2);
    op.request = r < REQUESTS.length ? (REQUESTS[r] as Request) : null;
    if (op.request !== null) fields += REQUEST_FIELDS[r] as string;
    op.outputLimit = 0;
    if (this.random.chance(0.3)) {
      op.outputLimit = this.random.pick(OUTPUT_LIMITS) as number;
      fields += `,"outputLimit":${op.outputLimit}`;
    }
    return `{"kind":"intent","op":"${op.id}","key":"${key}","effect":"${effect}","attempt":${attempt},"at":${this.now}${fields}${op.strand.epochField}}\n`;
  }

  /** The settlement of the op's current (pending) effect, and the step's move. */
  private settle(op: Op, mode: SettleMode): string {
    const at = this.now;
    let outcome: "ok" | "error" | "unknown";
    let retryable = false;
    if (mode === SettleMode.WrongNotBefore) {
      outcome = "error";
      retryable = true;
    } else {
      // A misclassified response needs a response: never a lost answer.
      const r = this.random.next() * (mode === SettleMode.Misclassified ? 0.9 : 1);
      outcome = r < 0.7 ? "ok" : r < 0.9 ? "error" : "unknown";
      retryable = outcome === "error" && this.random.chance(0.7);
    }
    let text = `{"kind":"settled","op":"${op.id}","effect":"${op.effect}","outcome":"${outcome}","at":${at}`;
    let hint: unknown;
    if (retryable) {
      text += `,"retryable":true`;
      if (this.random.chance(0.3)) {
        hint = this.random.pick(HINTS);
        text += `,"retryAfterMs":${JSON.stringify(hint)}`;
      }
    } else if (outcome === "error" && this.random.chance(0.3)) {
      text += `,"retryable":false`;
    }
    const schedulesRetry = retryable && attemptsRemain(op.policy, op.attempt);
    let notBefore = 0;
    if (schedulesRetry) {
      notBefore = at + retryWait(op.policy, op.attempt, op.effect, hint);
      if (mode === SettleMode.WrongNotBefore)
        text += `,"notBefore":${notBefore + (this.random.chance(0.5) ? 1 : -1)}`;
      else if (this.random.chance(0.7)) text += `,"notBefore":${notBefore}`;
    }
    if (outcome !== "unknown" && (mode === SettleMode.Misclassified || this.random.chance(0.3))) {
      const response = this.response(outcome, op);
      const right = classify(
        op.cancelled ? "cancelled" : "running",
        response,
        op.request,
        op.outputLimit,
      );
      text += `,"response":${responseJson(response)}`;
      if (mode === SettleMode.Misclassified) {
        const wrong = RESPONSE_CLASSES.filter((name) => name !== right);
        text += `,"class":"${this.random.pick(wrong)}"`;
      } else if (this.random.chance(0.8)) text += `,"class":"${right}"`;
    }
    op.lastSettledEffect = op.effect;
    op.lastSettledText = text;
    if (outcome === "ok") this.stepDone(op);
    else if (outcome === "unknown") op.phase = "unknown";
    else if (schedulesRetry) {
      op.phase = "intent";
      op.notBefore = notBefore;
    } else this.stepFailed(op);
    return `${text}${op.strand.epochField}}\n`;
  }

  private response(outcome: "ok" | "error", op: Op): Response {
    const random = this.random;
    if (outcome === "error") {
      const stop = random.chance(0.9) ? "error" : random.chance(0.5) ? "aborted" : "pending";
      return {
        stop,
        errorMessage: random.chance(0.8) ? (random.pick(ERROR_MESSAGES) as string) : null,
        outputTokens: 0,
        toolCalls: 0,
        handle: null,
      };
    }
    const stop = random.pick(["stop", "stop", "tool-use", "length", "deferred"] as const) as
      | "stop"
      | "tool-use"
      | "length"
      | "deferred";
    const toolCalls = stop === "tool-use" ? 1 + random.below(3) : random.chance(0.15) ? 1 : 0;
    const outputTokens = random.chance(0.7) ? random.below(5000) : 0;
    let handle: Response["handle"] = null;
    if (stop === "deferred" && random.chance(0.8)) {
      const identity = op.request !== null && random.chance(0.8) ? op.request : REQUESTS[0];
      handle = { id: `h-${op.effect}`, ...(identity as Request) };
    }
    return { stop, errorMessage: null, outputTokens, toolCalls, handle };
  }

  /** A readback of an unknown effect: the op's current one, or an orphan (the step stays). */
  private readBack(op: Op, effect: string): string {
    const found = this.random.chance(0.5) ? "committed" : "absent";
    const line = `{"kind":"readback","op":"${op.id}","effect":"${effect}","found":"${found}","at":${this.now}${op.strand.epochField}}\n`;
    if (effect !== op.effect || op.phase !== "unknown") return line;
    if (found === "committed") this.stepDone(op);
    else if (attemptsRemain(op.policy, op.attempt)) {
      // An absent effect never happened: a retryable failure at the readback, without a hint.
      op.phase = "intent";
      op.notBefore = this.now + retryWait(op.policy, op.attempt, op.effect, undefined);
    } else this.stepFailed(op);
    return line;
  }

  private stepDone(op: Op): void {
    op.stepIndex += 1;
    op.attempt = 0;
    op.phase = op.stepIndex >= op.keys.length ? "finish" : "intent";
  }

  private stepFailed(op: Op): void {
    op.failed = true;
    op.phase = "finish";
  }

  private cancel(op: Op, epochField = op.strand.epochField): string {
    if (epochField === op.strand.epochField) op.cancelled = true;
    return `{"kind":"cancel-requested","op":"${op.id}","at":${this.now}${epochField}}\n`;
  }

  private finish(op: Op): string {
    const outcome = op.cancelled ? "aborted" : op.failed ? "failed" : "completed";
    const { strand } = op;
    strand.ops.splice(strand.ops.indexOf(op), 1);
    if (strand.current === op) strand.current = null;
    return `{"kind":"finished","op":"${op.id}","outcome":"${outcome}","at":${this.now}${strand.epochField}}\n`;
  }

  // -------------------------------------------------------------------------------------------
  // Faults

  /** The fault's record, written where the state now has a place for it; null when none has. */
  fault(kind: OperationsFaultKind): FaultRecord | null {
    switch (kind) {
      case "stale-epoch": {
        // The executor that held the previous lease still writes: a cancel of the strand's op,
        // or an accept on it. The model changes nothing, and neither does the runtime.
        const strand = this.findStrand((candidate) => candidate.previousEpoch !== null);
        if (strand === null) return null;
        this.tick();
        const stale = `,"epoch":${strand.previousEpoch}`;
        const op = strand.ops[0];
        if (op !== undefined) return { text: this.cancel(op, stale), op: op.id, effect: null };
        return { text: this.accept(strand, stale), op: `op-${this.opCount - 1}`, effect: null };
      }
      case "duplicate-settlement": {
        const op = this.findOp(
          (candidate) =>
            candidate.lastSettledEffect !== "" &&
            !isUnknown(candidate, candidate.lastSettledEffect),
        );
        if (op === null) return null;
        const text = `${op.lastSettledText}${op.strand.epochField}}\n`;
        return { text, op: op.id, effect: op.lastSettledEffect };
      }
      case "blind-retry": {
        // The next attempt of a step whose outcome is unknown: applied, so it becomes the
        // step's current attempt; the unknown effect is read back before anything else.
        const op = this.findOp(
          (candidate) => !candidate.cancelled && candidate.phase === "unknown",
        );
        if (op === null) return null;
        this.tick();
        op.orphans.push(op.effect);
        return this.intentFault(op);
      }
      case "early-retry": {
        const op = this.findOp(
          (candidate) =>
            !candidate.cancelled &&
            candidate.phase === "intent" &&
            candidate.attempt > 0 &&
            candidate.orphans.length === 0 &&
            this.now < candidate.notBefore,
        );
        if (op === null) return null;
        return this.intentFault(op);
      }
      case "wrong-not-before": {
        const op = this.findOp(
          (candidate) =>
            candidate.phase === "pending" && attemptsRemain(candidate.policy, candidate.attempt),
        );
        if (op === null) return null;
        this.tick();
        const effect = op.effect;
        return { text: this.settle(op, SettleMode.WrongNotBefore), op: op.id, effect };
      }
      case "reused-effect": {
        // Nothing changes: the runtime goes on as if it had not been written.
        const op = this.effectCount === 0 ? null : this.findOp(() => true);
        if (op === null) return null;
        this.tick();
        const effect = `e-${this.faultRandom.below(this.effectCount)}`;
        const key = op.keys[Math.min(op.stepIndex, op.keys.length - 1)] as string;
        const attempt = Math.max(op.attempt, 1);
        const text = `{"kind":"intent","op":"${op.id}","key":"${key}","effect":"${effect}","attempt":${attempt},"at":${this.now}${op.strand.epochField}}\n`;
        return { text, op: op.id, effect };
      }
      case "intent-after-cancel": {
        // Applied: the effect is pending, to be settled (and read back) before the op aborts.
        const op = this.findOp(
          (candidate) =>
            candidate.cancelled &&
            (candidate.phase === "intent" || candidate.phase === "finish") &&
            candidate.orphans.length === 0,
        );
        if (op === null) return null;
        this.tick();
        return this.intentFault(op);
      }
      case "finish-outstanding": {
        const op = this.findOp(
          (candidate) =>
            candidate.phase === "pending" ||
            candidate.phase === "unknown" ||
            candidate.orphans.length > 0,
        );
        if (op === null) return null;
        this.tick();
        op.failed = true;
        return { text: this.finish(op), op: op.id, effect: null };
      }
      case "misclassified": {
        const op = this.findOp((candidate) => candidate.phase === "pending");
        if (op === null) return null;
        this.tick();
        const effect = op.effect;
        return { text: this.settle(op, SettleMode.Misclassified), op: op.id, effect };
      }
      case "busy-strand": {
        // Applied: the new op is the strand's current one; the one it displaced runs on.
        const strand = this.findStrand((candidate) => candidate.current !== null);
        if (strand === null) return null;
        this.tick();
        return { text: this.accept(strand), op: `op-${this.opCount - 1}`, effect: null };
      }
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
  }

  private intentFault(op: Op): FaultRecord {
    const text = this.intent(op);
    return { text, op: op.id, effect: op.effect };
  }

  /** The first strand that passes, from a seeded place on. */
  private findStrand(test: (strand: Strand) => boolean): Strand | null {
    const count = this.strands.length;
    const start = this.faultRandom.below(count);
    for (let i = 0; i < count; i++) {
      const strand = this.strands[(start + i) % count] as Strand;
      if (test(strand)) return strand;
    }
    return null;
  }

  private findOp(test: (op: Op) => boolean): Op | null {
    let found: Op | null = null;
    this.findStrand((strand) => {
      found = strand.ops.find(test) ?? null;
      return found !== null;
    });
    return found;
  }
}

/** Whether the op holds `effect` as unknown: its current effect unread, or an orphan. */
function isUnknown(op: Op, effect: string): boolean {
  return (op.phase === "unknown" && op.effect === effect) || op.orphans.includes(effect);
}

/** A response as a journal carries it: absent optional fields left out. */
function responseJson(response: Response): string {
  let text = `{"stop":"${response.stop}"`;
  if (response.errorMessage !== null)
    text += `,"errorMessage":${JSON.stringify(response.errorMessage)}`;
  if (response.outputTokens !== 0) text += `,"outputTokens":${response.outputTokens}`;
  if (response.toolCalls !== 0) text += `,"toolCalls":${response.toolCalls}`;
  if (response.handle !== null) text += `,"handle":${JSON.stringify(response.handle)}`;
  return `${text}}`;
}
