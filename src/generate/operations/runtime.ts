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
 *
 * The records go straight into a JournalBuffer (journal-buffer.ts) as bytes: their fixed parts
 * are templates made here once, and ids are kept as their numbers (`op-12` as 12), written
 * digit by digit; an id is made a string only where a model function or a fault's report needs
 * it.
 */
import { classify } from "../../models/operations/classify.js";
import {
  NO_RETRY_POLICY,
  type Policy,
  RESPONSE_CLASSES,
  type Request,
  type Response,
  type ResponseClass,
  STOP_REASONS,
  type StopReason,
} from "../../models/operations/records.js";
import { attemptsRemain, retryWait } from "../../models/operations/retry-wait.js";
import { Random } from "../random.js";
import type { OperationsFaultKind } from "./fault-kinds.js";
import { type JournalBuffer, type Template, template } from "./journal-buffer.js";

/** The runtime's monotonic clock, in integer ms since it started (small integers print fast). */
const START_MS = 0;

/** Per pick of a strand: the chance of a new lease on it, and of a cancel of its op. */
const LEASE_CHANCE = 0.008;
const CANCEL_CHANCE = 0.012;

/** How many strands are tried for one that can act before the clock jumps to a retry's time. */
const PICKS_BEFORE_WAITING = 8;

interface PolicyChoice {
  readonly policy: Policy;
  /** What follows an accepted record's strand id: its closing quote, then any `policy` field. */
  readonly afterStrand: Template;
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
    ? { policy: NO_RETRY_POLICY, afterStrand: template('"') }
    : { policy, afterStrand: template(`","policy":${JSON.stringify(policy)}`) },
);

const REQUESTS: readonly Request[] = [
  { provider: "anthropic", model: "claude", api: "messages" },
  { provider: "openai", model: "gpt", api: "responses" },
  { provider: "local", model: "llama", api: "completions" },
];
const REQUEST_FIELDS = REQUESTS.map((request) => template(`,"request":${JSON.stringify(request)}`));
/** What follows a handle's id: its closing quote, then the identity's fields, and the brace. */
const HANDLE_IDENTITIES = REQUESTS.map((request) =>
  template(`"${JSON.stringify(request).replace("{", ",")}`),
);

const OUTPUT_LIMITS = [0, 256, 4096] as const;
const OUTPUT_LIMIT_FIELDS = OUTPUT_LIMITS.map((limit) => template(`,"outputLimit":${limit}`));

/** Provider hints: integers ≥ 0, and values that are no hint at all. */
const HINTS: readonly unknown[] = [0, 15, 60, 250, 800, -1, "soon", null, 2.5];
const HINT_FIELDS = HINTS.map((hint) => template(`,"retryAfterMs":${JSON.stringify(hint)}`));

const ERROR_MESSAGES: readonly string[] = [
  "rate limited",
  "upstream timeout",
  "Context Window EXCEEDED for this model",
  "prompt is too long: 210000 tokens",
  "overloaded",
];
const ERROR_MESSAGE_FIELDS = ERROR_MESSAGES.map((message) =>
  template(`,"errorMessage":${JSON.stringify(message)}`),
);

/** The stops of an ok response, "stop" twice as likely as each of the others. */
const OK_STOPS = ["stop", "stop", "tool-use", "length", "deferred"] as const;

/** The step keys of an op's turns: `turn-t/assistant`, then its tool calls. */
const TURNS_MAX = 3;
const TOOLS_MAX = 2;

/** An intent's key, between its op id and its effect id. */
const keyField = (key: string) => template(`","key":"${key}","effect":"e-`);
const TURN_KEYS: readonly (readonly Template[])[] = Array.from({ length: TURNS_MAX }, (_, t) =>
  Array.from({ length: TOOLS_MAX + 1 }, (_, k) =>
    keyField(k === 0 ? `turn-${t + 1}/assistant` : `turn-${t + 1}/tool-${k}`),
  ),
);
const CLEANUP_KEY = keyField("cleanup/after-cancel");

const templatesOf = <K extends string>(keys: readonly K[], text: (key: K) => string) =>
  Object.fromEntries(keys.map((key) => [key, template(text(key))])) as Record<K, Template>;

/** The fixed parts of the records, between the values written into them. */
const LEASE = template('{"kind":"lease","strand":"strand-');
const LEASE_EPOCH = template('","epoch":');
const LEASE_OWNER = template(',"owner":"executor-');
const OWNER_END = template('"}\n');
const ACCEPTED = template('{"kind":"accepted","op":"op-');
const ACCEPTED_STRAND = template('","strand":"strand-');
const INTENT = template('{"kind":"intent","op":"op-');
const ATTEMPT = template('","attempt":');
const AT = template(',"at":');
const SETTLED = template('{"kind":"settled","op":"op-');
const EFFECT = template('","effect":"e-');
const SETTLED_OK = template('","outcome":"ok","at":');
const SETTLED_ERROR = template('","outcome":"error","at":');
const SETTLED_UNKNOWN = template('","outcome":"unknown","at":');
const RETRYABLE = template(',"retryable":true');
const NOT_RETRYABLE = template(',"retryable":false');
const NOT_BEFORE = template(',"notBefore":');
const RESPONSE_STOPS = templatesOf(STOP_REASONS, (stop) => `,"response":{"stop":"${stop}"`);
const OUTPUT_TOKENS = template(',"outputTokens":');
const TOOL_CALLS = template(',"toolCalls":');
const HANDLE = template(',"handle":{"id":"h-e-');
const RESPONSE_END = template("}");
const CLASSES = templatesOf(RESPONSE_CLASSES, (name) => `,"class":"${name}"`);
const READBACK = template('{"kind":"readback","op":"op-');
const COMMITTED = template('","found":"committed","at":');
const ABSENT = template('","found":"absent","at":');
const CANCEL = template('{"kind":"cancel-requested","op":"op-');
const CANCEL_AT = template('","at":');
const FINISHED = template('{"kind":"finished","op":"op-');
const COMPLETED = template('","outcome":"completed","at":');
const FAILED = template('","outcome":"failed","at":');
const ABORTED = template('","outcome":"aborted","at":');
const EPOCH = template(',"epoch":');
const END = template("}\n");

/** What an op's runtime does next for its current step. */
const Phase = { Intent: 0, Pending: 1, Unknown: 2, Finish: 3 } as const;
type Phase = (typeof Phase)[keyof typeof Phase];

interface Strand {
  /** `strand-N`: its N. */
  readonly number: number;
  epoch: number | null;
  previousEpoch: number | null;
  /** The op the model holds as the strand's current one, or null. */
  current: Op | null;
  /** Its live ops: one, or more after a busy-strand fault. */
  readonly ops: Op[];
}

interface Op {
  /** `op-N`: its N. */
  readonly number: number;
  readonly strand: Strand;
  readonly policy: Policy;
  /** Its steps' keys, each as its intents write it (keyField). */
  readonly keys: readonly Template[];
  cancelled: boolean;
  failed: boolean;
  /** The current step's index in `keys`; `keys.length` once they are all done. */
  stepIndex: number;
  /** The current step's attempt (0 before its first intent), and the N of its effect `e-N`. */
  attempt: number;
  effect: number;
  /** The current attempt's request, an index into REQUESTS, or -1 for none. */
  request: number;
  outputLimit: number;
  phase: Phase;
  /** Phase.Intent with `attempt` > 0: the step waits in retry-wait until this `at`. */
  notBefore: number;
  /** Unknown effects that are no longer their step's current attempt (after a blind retry). */
  readonly orphans: number[];
  /** Its last settlement's effect (-1 before one). */
  lastSettledEffect: number;
  /**
   * That settlement's bytes, the epoch field and the end left out, for a duplicate: null before
   * one, and always when the runtime keeps none.
   */
  lastSettled: Uint8Array | null;
}

/** Whom the audit names for a fault the runtime has just written. */
export interface FaultRecord {
  readonly op: string;
  readonly effect: string | null;
}

/** A settlement as the runtime means it, or one of the two faults a settlement can be. */
const SettleMode = { Normal: 0, WrongNotBefore: 1, Misclassified: 2 } as const;
type SettleMode = (typeof SettleMode)[keyof typeof SettleMode];

const opId = (op: Op) => `op-${op.number}`;
const effectId = (effect: number) => `e-${effect}`;

export class OperationsRuntime {
  private readonly random: Random;
  /** Where the faults look for their places: a stream of its own. */
  private readonly faultRandom: Random;
  private readonly strands: Strand[];
  private now = START_MS;
  private opCount = 0;
  private effectCount = 0;
  private blocked: Op | null = null;

  /**
   * `keepsSettlements`: whether to keep each op's last settlement, which only the
   * duplicate-settlement fault needs — without it, that fault finds no place.
   */
  constructor(
    seed: number,
    strands: number,
    private readonly out: JournalBuffer,
    private readonly keepsSettlements: boolean,
  ) {
    this.random = new Random(seed);
    this.faultRandom = new Random(seed ^ 0x0fa0175);
    this.strands = Array.from({ length: strands }, (_, number) => ({
      number,
      epoch: null,
      previousEpoch: null,
      current: null,
      ops: [],
    }));
  }

  /** Writes the next record a well-behaved runtime writes, with its "\n". */
  next(): void {
    this.tick();
    let waiting: Op | null = null;
    for (let pick = 0; pick < PICKS_BEFORE_WAITING; pick++) {
      const strand = this.strands[this.random.below(this.strands.length)] as Strand;
      this.blocked = null;
      if (this.actOn(strand)) return;
      waiting = this.blocked as Op | null;
    }
    // Every strand picked waits for a retry: the clock moves on to the last one's notBefore.
    const op = waiting as Op;
    this.now = Math.max(this.now, op.notBefore);
    this.act(op);
  }

  private tick(): void {
    this.now += this.random.below(4);
  }

  /** Whether a record was written. */
  private actOn(strand: Strand): boolean {
    if (this.random.chance(LEASE_CHANCE)) {
      this.lease(strand);
      return true;
    }
    const { ops } = strand;
    if (strand.current === null && (ops.length === 0 || this.random.chance(0.5))) {
      this.accept(strand);
      return true;
    }
    return this.act(ops.length === 1 ? (ops[0] as Op) : (this.random.pick(ops) as Op));
  }

  /** Writes the op's next record; false when it waits to retry instead (`blocked` is the op). */
  private act(op: Op): boolean {
    if (!op.cancelled && op.phase !== Phase.Finish && this.random.chance(CANCEL_CHANCE)) {
      this.cancel(op);
      return true;
    }
    // An unknown outcome holds back every later call of the op: read back first.
    const orphan = op.orphans.pop();
    if (orphan !== undefined) {
      this.readBack(op, orphan);
      return true;
    }
    switch (op.phase) {
      case Phase.Intent:
        if (op.cancelled) this.finish(op);
        else if (op.attempt > 0 && this.now < op.notBefore) {
          this.blocked = op;
          return false;
        } else this.intent(op);
        return true;
      case Phase.Pending:
        this.settle(op, SettleMode.Normal);
        return true;
      case Phase.Unknown:
        this.readBack(op, op.effect);
        return true;
      case Phase.Finish:
        this.finish(op);
        return true;
      default: {
        const unreachable: never = op.phase;
        return unreachable;
      }
    }
  }

  private lease(strand: Strand): void {
    const epoch = (strand.epoch ?? this.random.below(4)) + 1 + this.random.below(3);
    strand.previousEpoch = strand.epoch;
    strand.epoch = epoch;
    const out = this.out;
    LEASE(out);
    out.int(strand.number);
    LEASE_EPOCH(out);
    out.int(epoch);
    if (this.random.chance(0.7)) {
      LEASE_OWNER(out);
      out.int(epoch);
      OWNER_END(out);
    } else END(out);
  }

  /** An op accepted on the strand; applied, and so its current op, under the strand's epoch. */
  private accept(strand: Strand, epoch = strand.epoch): void {
    const number = this.opCount++;
    const choice = this.random.pick(POLICIES) as PolicyChoice;
    const turns = 1 + this.random.below(TURNS_MAX);
    const keys: Template[] = [];
    for (let t = 0; t < turns; t++) {
      const tools = this.random.below(TOOLS_MAX + 1);
      for (let k = 0; k <= tools; k++)
        keys.push((TURN_KEYS[t] as readonly Template[])[k] as Template);
    }
    const op: Op = {
      number,
      strand,
      policy: choice.policy,
      keys,
      cancelled: false,
      failed: false,
      stepIndex: 0,
      attempt: 0,
      effect: -1,
      request: -1,
      outputLimit: 0,
      phase: Phase.Intent,
      notBefore: 0,
      orphans: [],
      lastSettledEffect: -1,
      lastSettled: null,
    };
    if (epoch === strand.epoch) {
      strand.ops.push(op);
      strand.current = op;
    }
    const out = this.out;
    ACCEPTED(out);
    out.int(number);
    ACCEPTED_STRAND(out);
    out.int(strand.number);
    choice.afterStrand(out);
    this.end(epoch);
  }

  /** The next attempt of the op's current step, under a fresh effect id. */
  private intent(op: Op): void {
    const attempt = op.attempt + 1;
    const effect = this.effectCount++;
    op.attempt = attempt;
    op.effect = effect;
    op.phase = Phase.Pending;
    const out = this.out;
    this.intentHead(op, op.keys[op.stepIndex] ?? CLEANUP_KEY, effect, attempt);
    const r = this.random.below(REQUESTS.length * 2);
    op.request = r < REQUESTS.length ? r : -1;
    if (op.request !== -1) (REQUEST_FIELDS[r] as Template)(out);
    op.outputLimit = 0;
    if (this.random.chance(0.3)) {
      const limit = this.random.below(OUTPUT_LIMITS.length);
      op.outputLimit = OUTPUT_LIMITS[limit] as number;
      (OUTPUT_LIMIT_FIELDS[limit] as Template)(out);
    }
    this.end(op.strand.epoch);
  }

  /** An intent's fields up to its `at`: what follows is optional, then its end. */
  private intentHead(op: Op, key: Template, effect: number, attempt: number): void {
    const out = this.out;
    INTENT(out);
    out.int(op.number);
    key(out);
    out.int(effect);
    ATTEMPT(out);
    out.int(attempt);
    AT(out);
    out.int(this.now);
  }

  /** The settlement of the op's current (pending) effect, and the step's move. */
  private settle(op: Op, mode: SettleMode): void {
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
    const out = this.out;
    const start = out.length;
    SETTLED(out);
    out.int(op.number);
    EFFECT(out);
    out.int(op.effect);
    (outcome === "ok" ? SETTLED_OK : outcome === "error" ? SETTLED_ERROR : SETTLED_UNKNOWN)(out);
    out.int(at);
    let hint: unknown;
    if (retryable) {
      RETRYABLE(out);
      if (this.random.chance(0.3)) {
        const h = this.random.below(HINTS.length);
        hint = HINTS[h];
        (HINT_FIELDS[h] as Template)(out);
      }
    } else if (outcome === "error" && this.random.chance(0.3)) {
      NOT_RETRYABLE(out);
    }
    const schedulesRetry = retryable && attemptsRemain(op.policy, op.attempt);
    let notBefore = 0;
    if (schedulesRetry) {
      notBefore = at + retryWait(op.policy, op.attempt, effectId(op.effect), hint);
      if (mode === SettleMode.WrongNotBefore) {
        NOT_BEFORE(out);
        out.int(notBefore + (this.random.chance(0.5) ? 1 : -1));
      } else if (this.random.chance(0.7)) {
        NOT_BEFORE(out);
        out.int(notBefore);
      }
    }
    if (outcome !== "unknown" && (mode === SettleMode.Misclassified || this.random.chance(0.3))) {
      const response = this.response(outcome, op);
      if (mode === SettleMode.Misclassified) {
        const right = classOf(op, response);
        const wrong = RESPONSE_CLASSES.filter((name) => name !== right);
        CLASSES[this.random.pick(wrong) as ResponseClass](out);
      } else if (this.random.chance(0.8)) CLASSES[classOf(op, response)](out);
    }
    op.lastSettledEffect = op.effect;
    if (this.keepsSettlements) op.lastSettled = out.copyFrom(start);
    if (outcome === "ok") this.stepDone(op);
    else if (outcome === "unknown") op.phase = Phase.Unknown;
    else if (schedulesRetry) {
      op.phase = Phase.Intent;
      op.notBefore = notBefore;
    } else this.stepFailed(op);
    this.end(op.strand.epoch);
  }

  /** Writes a response, absent optional fields left out, and returns it for `classify`. */
  private response(outcome: "ok" | "error", op: Op): Response {
    const random = this.random;
    const out = this.out;
    if (outcome === "error") {
      const stop = random.chance(0.9) ? "error" : random.chance(0.5) ? "aborted" : "pending";
      RESPONSE_STOPS[stop](out);
      let errorMessage: string | null = null;
      if (random.chance(0.8)) {
        const m = random.below(ERROR_MESSAGES.length);
        errorMessage = ERROR_MESSAGES[m] as string;
        (ERROR_MESSAGE_FIELDS[m] as Template)(out);
      }
      RESPONSE_END(out);
      return { stop, errorMessage, outputTokens: 0, toolCalls: 0, handle: null };
    }
    const stop: StopReason = random.pick(OK_STOPS) as StopReason;
    const toolCalls = stop === "tool-use" ? 1 + random.below(3) : random.chance(0.15) ? 1 : 0;
    const outputTokens = random.chance(0.7) ? random.below(5000) : 0;
    RESPONSE_STOPS[stop](out);
    if (outputTokens !== 0) {
      OUTPUT_TOKENS(out);
      out.int(outputTokens);
    }
    if (toolCalls !== 0) {
      TOOL_CALLS(out);
      out.int(toolCalls);
    }
    let handle: Response["handle"] = null;
    if (stop === "deferred" && random.chance(0.8)) {
      const identity = op.request !== -1 && random.chance(0.8) ? op.request : 0;
      handle = { id: `h-${effectId(op.effect)}`, ...(REQUESTS[identity] as Request) };
      HANDLE(out);
      out.int(op.effect);
      (HANDLE_IDENTITIES[identity] as Template)(out);
    }
    RESPONSE_END(out);
    return { stop, errorMessage: null, outputTokens, toolCalls, handle };
  }

  /** A readback of an unknown effect: the op's current one, or an orphan (the step stays). */
  private readBack(op: Op, effect: number): void {
    const committed = this.random.chance(0.5);
    const out = this.out;
    READBACK(out);
    out.int(op.number);
    EFFECT(out);
    out.int(effect);
    (committed ? COMMITTED : ABSENT)(out);
    out.int(this.now);
    this.end(op.strand.epoch);
    if (effect !== op.effect || op.phase !== Phase.Unknown) return;
    if (committed) this.stepDone(op);
    else if (attemptsRemain(op.policy, op.attempt)) {
      // An absent effect never happened: a retryable failure at the readback, without a hint.
      op.phase = Phase.Intent;
      op.notBefore = this.now + retryWait(op.policy, op.attempt, effectId(op.effect), undefined);
    } else this.stepFailed(op);
  }

  /** A record's end: the epoch field of a strand leased at `epoch`, the brace, the line feed. */
  private end(epoch: number | null): void {
    if (epoch !== null) {
      EPOCH(this.out);
      this.out.int(epoch);
    }
    END(this.out);
  }

  private stepDone(op: Op): void {
    op.stepIndex += 1;
    op.attempt = 0;
    op.phase = op.stepIndex >= op.keys.length ? Phase.Finish : Phase.Intent;
  }

  private stepFailed(op: Op): void {
    op.failed = true;
    op.phase = Phase.Finish;
  }

  /** A cancel of the op; applied under the strand's epoch. */
  private cancel(op: Op, epoch = op.strand.epoch): void {
    if (epoch === op.strand.epoch) op.cancelled = true;
    const out = this.out;
    CANCEL(out);
    out.int(op.number);
    CANCEL_AT(out);
    out.int(this.now);
    this.end(epoch);
  }

  private finish(op: Op): void {
    const { strand } = op;
    strand.ops.splice(strand.ops.indexOf(op), 1);
    if (strand.current === op) strand.current = null;
    const out = this.out;
    FINISHED(out);
    out.int(op.number);
    (op.cancelled ? ABORTED : op.failed ? FAILED : COMPLETED)(out);
    out.int(this.now);
    this.end(strand.epoch);
  }

  // -------------------------------------------------------------------------------------------
  // Faults

  /**
   * Writes the fault's record where the state now has a place for it; null, nothing written,
   * when none has.
   */
  fault(kind: OperationsFaultKind): FaultRecord | null {
    switch (kind) {
      case "stale-epoch": {
        // The executor that held the previous lease still writes: a cancel of the strand's op,
        // or an accept on it. The model changes nothing, and neither does the runtime.
        const strand = this.findStrand((candidate) => candidate.previousEpoch !== null);
        if (strand === null) return null;
        this.tick();
        const op = strand.ops[0];
        if (op !== undefined) {
          this.cancel(op, strand.previousEpoch);
          return { op: opId(op), effect: null };
        }
        this.accept(strand, strand.previousEpoch);
        return { op: `op-${this.opCount - 1}`, effect: null };
      }
      case "duplicate-settlement": {
        const op = this.findOp(
          (candidate) =>
            candidate.lastSettled !== null && !isUnknown(candidate, candidate.lastSettledEffect),
        );
        if (op === null) return null;
        this.out.putBytes(op.lastSettled as Uint8Array);
        this.end(op.strand.epoch);
        return { op: opId(op), effect: effectId(op.lastSettledEffect) };
      }
      case "blind-retry": {
        // The next attempt of a step whose outcome is unknown: applied, so it becomes the
        // step's current attempt; the unknown effect is read back before anything else.
        const op = this.findOp(
          (candidate) => !candidate.cancelled && candidate.phase === Phase.Unknown,
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
            candidate.phase === Phase.Intent &&
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
            candidate.phase === Phase.Pending &&
            attemptsRemain(candidate.policy, candidate.attempt),
        );
        if (op === null) return null;
        this.tick();
        const effect = op.effect;
        this.settle(op, SettleMode.WrongNotBefore);
        return { op: opId(op), effect: effectId(effect) };
      }
      case "reused-effect": {
        // Nothing changes: the runtime goes on as if it had not been written.
        const op = this.effectCount === 0 ? null : this.findOp(() => true);
        if (op === null) return null;
        this.tick();
        const effect = this.faultRandom.below(this.effectCount);
        const key = op.keys[Math.min(op.stepIndex, op.keys.length - 1)] as Template;
        this.intentHead(op, key, effect, Math.max(op.attempt, 1));
        this.end(op.strand.epoch);
        return { op: opId(op), effect: effectId(effect) };
      }
      case "intent-after-cancel": {
        // Applied: the effect is pending, to be settled (and read back) before the op aborts.
        const op = this.findOp(
          (candidate) =>
            candidate.cancelled &&
            (candidate.phase === Phase.Intent || candidate.phase === Phase.Finish) &&
            candidate.orphans.length === 0,
        );
        if (op === null) return null;
        this.tick();
        return this.intentFault(op);
      }
      case "finish-outstanding": {
        const op = this.findOp(
          (candidate) =>
            candidate.phase === Phase.Pending ||
            candidate.phase === Phase.Unknown ||
            candidate.orphans.length > 0,
        );
        if (op === null) return null;
        this.tick();
        op.failed = true;
        this.finish(op);
        return { op: opId(op), effect: null };
      }
      case "misclassified": {
        const op = this.findOp((candidate) => candidate.phase === Phase.Pending);
        if (op === null) return null;
        this.tick();
        const effect = op.effect;
        this.settle(op, SettleMode.Misclassified);
        return { op: opId(op), effect: effectId(effect) };
      }
      case "busy-strand": {
        // Applied: the new op is the strand's current one; the one it displaced runs on.
        const strand = this.findStrand((candidate) => candidate.current !== null);
        if (strand === null) return null;
        this.tick();
        this.accept(strand);
        return { op: `op-${this.opCount - 1}`, effect: null };
      }
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
  }

  private intentFault(op: Op): FaultRecord {
    this.intent(op);
    return { op: opId(op), effect: effectId(op.effect) };
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

/** The class `classify` gives the response to the op's current effect. */
function classOf(op: Op, response: Response): ResponseClass {
  return classify(
    op.cancelled ? "cancelled" : "running",
    response,
    REQUESTS[op.request] ?? null,
    op.outputLimit,
  );
}

/** Whether the op holds `effect` as unknown: its current effect unread, or an orphan. */
function isUnknown(op: Op, effect: number): boolean {
  return (op.phase === Phase.Unknown && op.effect === effect) || op.orphans.includes(effect);
}
