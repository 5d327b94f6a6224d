/**
 * fast-check support for the `operations` model (docs/models/operations.md): record builders for
 * example tests, a simulated well-behaved runtime whose journals are strictly conformant, and
 * fault injection — one named fault placed into such a journal, with the finding it must give.
 * Shared by the reference model's own tests and by the differential tests that hold every other
 * engine to it, so every record is a plain JSON value.
 *
 * The runtime keeps its own books (strands, ops, steps, effects) and follows the rules as a
 * runtime would: it calls the model's exported `retryWait` and `classify` ("decide but not act")
 * but never its fold, so its expected `final` summary is an independent account of the journal.
 */
import fc from "fast-check";
import {
  attemptsRemain,
  classify,
  NO_RETRY_POLICY,
  type Policy,
  RESPONSE_CLASSES,
  type Reason,
  type Request,
  type Response,
  type ResponseClass,
  type RuleName,
  retryWait,
  STOP_REASONS,
} from "../../src/models/operations/index.js";

export type JsonRecord = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Record builders

export const accepted = (op: string, strand: string, extra: JsonRecord = {}): JsonRecord => ({
  kind: "accepted",
  op,
  strand,
  ...extra,
});

export const intent = (
  op: string,
  key: string,
  effect: string,
  attempt: number,
  at: number,
  extra: JsonRecord = {},
): JsonRecord => ({ kind: "intent", op, key, effect, attempt, at, ...extra });

export const settled = (
  op: string,
  effect: string,
  outcome: string,
  at: number,
  extra: JsonRecord = {},
): JsonRecord => ({ kind: "settled", op, effect, outcome, at, ...extra });

export const readback = (
  op: string,
  effect: string,
  found: string,
  at: number,
  extra: JsonRecord = {},
): JsonRecord => ({ kind: "readback", op, effect, found, at, ...extra });

export const cancelRequested = (op: string, at: number, extra: JsonRecord = {}): JsonRecord => ({
  kind: "cancel-requested",
  op,
  at,
  ...extra,
});

export const finished = (
  op: string,
  outcome: string,
  at: number,
  extra: JsonRecord = {},
): JsonRecord => ({ kind: "finished", op, outcome, at, ...extra });

export const lease = (strand: string, epoch: number, extra: JsonRecord = {}): JsonRecord => ({
  kind: "lease",
  strand,
  epoch,
  ...extra,
});

/**
 * The records of a small JSONL journal and the 1-based line of each: a header on line 1 is
 * skipped, blank lines are skipped, every other line is `JSON.parse`d. Enough for examples; the
 * real reader lives in src/journal.
 */
export function parseJournal(text: string): { records: unknown[]; lines: number[] } {
  const records: unknown[] = [];
  const lines: number[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const value: unknown = JSON.parse(line);
    const isHeader = i === 0 && (value as { statefold?: unknown } | null)?.statefold === "journal";
    if (isHeader) continue;
    records.push(value);
    lines.push(i + 1);
  }
  return { records, lines };
}

/** The example policy: three attempts on a 1 s base capped at 30 s. */
export const LADDER_POLICY = { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 30000 } as const;

// ---------------------------------------------------------------------------------------------
// The simulated runtime

/** The faults a journal can be given, each caught by one rule for one reason. */
export const FAULT_KINDS = [
  "stale-epoch-write",
  "duplicate-settlement",
  "blind-retry",
  "retry-too-early",
  "wrong-not-before",
  "reused-effect",
  "intent-after-cancel",
  "finish-outstanding",
  "misclassified",
  "busy-accept",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Where a fault was placed and what the audit must say about it. */
export interface ExpectedFinding {
  readonly fault: FaultKind;
  readonly index: number;
  readonly rule: RuleName;
  readonly reason: Reason;
}

/** How often the runtime did the things a vacuous generator would never do. */
export interface RuntimeStats {
  readonly leases: number;
  readonly retries: number;
  readonly unknowns: number;
  readonly readbacks: number;
  readonly absentReadbacks: number;
  readonly cancels: number;
  readonly classified: number;
  readonly finished: number;
  readonly takeoversMidOperation: number;
}

/** The `final` block the runtime's own books predict. */
export interface ExpectedFinal {
  readonly operations: Record<"running" | "cancelled" | "completed" | "failed" | "aborted", number>;
  readonly steps: Record<"pending" | "ok" | "failed" | "retryWait" | "unknown", number>;
  readonly effects: number;
  readonly strands: number;
}

export interface RuntimeJournal {
  readonly records: readonly JsonRecord[];
  readonly stats: RuntimeStats;
  readonly expectedFinal: ExpectedFinal;
  /** With a fault plan: the injected fault's finding, or null when it found no place. */
  readonly finding: ExpectedFinding | null;
}

/** The runtime's choices: how many strands, where the clock starts, one number per step. */
export interface RuntimePlan {
  readonly strands: number;
  readonly startAt: number;
  readonly choices: readonly number[];
}

/** A fault to inject: tried at every step from `fromStep` on until it finds a place. */
export interface FaultPlan {
  readonly kind: FaultKind;
  readonly fromStep: number;
}

export const runtimePlanArbitrary = (
  options: { minSteps?: number; maxSteps?: number } = {},
): fc.Arbitrary<RuntimePlan> =>
  fc.record({
    strands: fc.integer({ min: 1, max: 3 }),
    startAt: fc.oneof(fc.constant(0), fc.integer({ min: -5000, max: 1_000_000 })),
    choices: fc.array(fc.nat(), {
      minLength: options.minSteps ?? 10,
      maxLength: options.maxSteps ?? 70,
      size: "max",
    }),
  });

export const faultPlanArbitrary = (kind: FaultKind, steps = 70): fc.Arbitrary<FaultPlan> =>
  fc.record({ kind: fc.constant(kind), fromStep: fc.nat({ max: Math.floor(steps / 2) }) });

/** Journals of a well-behaved runtime, with its stats and predicted summary. */
export const runtimeJournalArbitrary = (
  options: { minSteps?: number; maxSteps?: number } = {},
): fc.Arbitrary<RuntimeJournal> =>
  runtimePlanArbitrary(options).map((plan) => simulateRuntime(plan));

/** Journals of that runtime with one `kind` fault injected. */
export const faultyJournalArbitrary = (kind: FaultKind): fc.Arbitrary<RuntimeJournal> =>
  fc
    .tuple(runtimePlanArbitrary(), faultPlanArbitrary(kind))
    .map(([plan, fault]) => simulateRuntime(plan, fault));

const MAX_OPERATIONS = 7;
const STEPS_PER_OPERATION = 3;

const POLICIES: readonly (Policy | null)[] = [
  null,
  LADDER_POLICY,
  { maxAttempts: null, baseDelayMs: 50, maxDelayMs: 400 },
  { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
  { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 100 },
  { maxAttempts: 1, baseDelayMs: 1000, maxDelayMs: 1000 },
];

const REQUESTS: readonly Request[] = [
  { provider: "anthropic", model: "claude", api: "messages" },
  { provider: "openai", model: "gpt", api: "responses" },
];

const HINTS: readonly unknown[] = [0, 250, 5000, -5, "soon", null, 1.5, 2 ** 53];

const ERROR_MESSAGES: readonly string[] = [
  "rate limited",
  "Context Window EXCEEDED for this model",
  "prompt is too long: 210000 tokens",
  "maximum cont\u0435xt length", // a Cyrillic е: not an overflow
];

/** Effect-id stems, some with code points that exercise the draw (astral, accented). */
const EFFECT_STEMS: readonly string[] = ["e", "eff", "é", "😀", "call/tool"];

interface SimEffect {
  readonly key: string;
  readonly attempt: number;
  readonly at: number;
  readonly request: Request | null;
  readonly outputLimit: number;
  status: "pending" | "settled" | "unknown" | "resolved";
  settledAt: number | null;
  /** Its settlement as journaled, for the duplicate-settlement fault. */
  settlement: JsonRecord | null;
}

interface SimStep {
  attempt: number;
  effect: string;
  status: "pending" | "ok" | "failed" | "retry-wait" | "unknown";
  notBefore: number | null;
}

interface SimOperation {
  readonly id: string;
  readonly strand: string;
  readonly policy: Policy;
  cancelled: boolean;
  readonly steps: Map<string, SimStep>;
  readonly effects: Map<string, SimEffect>;
  newSteps: number;
}

interface SimStrand {
  readonly id: string;
  epoch: number | null;
  current: string | null;
}

/** A tiny deterministic source of sub-decisions, seeded by one plan choice. */
class Dice {
  private state: number;
  constructor(seed: number) {
    this.state = (seed ^ 0x9e3779b9) >>> 0 || 1;
  }
  /** An integer in [0, n). */
  below(n: number): number {
    // xorshift32
    this.state ^= this.state << 13;
    this.state >>>= 0;
    this.state ^= this.state >>> 17;
    this.state ^= this.state << 5;
    this.state >>>= 0;
    return this.state % n;
  }
  chance(percent: number): boolean {
    return this.below(100) < percent;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
}

type Action = () => void;

class Runtime {
  readonly records: JsonRecord[] = [];
  private readonly strands: SimStrand[];
  private readonly live = new Map<string, SimOperation>();
  private readonly outcomes = { completed: 0, failed: 0, aborted: 0 };
  private readonly reserved: string[] = [];
  private readonly touchedStrands = new Set<string>();
  private accepted = 0;
  private now: number;
  dice = new Dice(0);
  readonly stats = {
    leases: 0,
    retries: 0,
    unknowns: 0,
    readbacks: 0,
    absentReadbacks: 0,
    cancels: 0,
    classified: 0,
    finished: 0,
    takeoversMidOperation: 0,
  };

  constructor(strands: number, startAt: number) {
    this.strands = Array.from({ length: strands }, (_, i) => ({
      id: ["chat-A", "workflow/7", "ström"][i] as string,
      epoch: null,
      current: null,
    }));
    this.now = startAt;
  }

  /** Every action a well-behaved runtime could take now, weighted by repetition. */
  actions(): Action[] {
    const actions: Action[] = [];
    for (const strand of this.strands) {
      actions.push(() => this.lease(strand));
      if (strand.current === null && this.accepted < MAX_OPERATIONS) {
        actions.push(
          () => this.accept(strand),
          () => this.accept(strand),
        );
      }
    }
    for (const op of this.live.values()) actions.push(...this.operationActions(op));
    return actions;
  }

  private operationActions(op: SimOperation): Action[] {
    const actions: Action[] = [];
    const effects = [...op.effects.entries()];
    const mayDispatch = !op.cancelled && !effects.some(([, e]) => e.status === "unknown");
    if (mayDispatch && op.newSteps < STEPS_PER_OPERATION) {
      actions.push(
        () => this.newStep(op),
        () => this.newStep(op),
      );
    }
    for (const [key, step] of op.steps) {
      if (mayDispatch && step.status === "retry-wait") {
        actions.push(
          () => this.retry(op, key),
          () => this.retry(op, key),
        );
      }
    }
    for (const [id, effect] of effects) {
      if (effect.status === "pending")
        actions.push(
          () => this.settle(op, id),
          () => this.settle(op, id),
        );
      if (effect.status === "unknown")
        actions.push(
          () => this.readBack(op, id),
          () => this.readBack(op, id),
        );
    }
    if (!op.cancelled && this.dice.chance(40)) actions.push(() => this.cancel(op));
    if (effects.every(([, e]) => e.status === "settled" || e.status === "resolved")) {
      actions.push(() => this.finish(op));
    }
    return actions;
  }

  private tick(): number {
    this.now += this.dice.below(400);
    return this.now;
  }

  /** The epoch field a record for `strand` carries: the lease's, or now and then a stray one. */
  private epochOf(strand: SimStrand): JsonRecord {
    if (strand.epoch !== null) return { epoch: strand.epoch };
    return this.dice.chance(20) ? { epoch: this.dice.below(9) - 4 } : {};
  }

  private strandOf(op: SimOperation): SimStrand {
    return this.strands.find((strand) => strand.id === op.strand) as SimStrand;
  }

  private emit(record: JsonRecord): void {
    this.records.push(record);
  }

  lease(strand: SimStrand): void {
    const epoch = (strand.epoch ?? this.dice.below(5) - 2) + 1 + this.dice.below(3);
    strand.epoch = epoch;
    this.touchedStrands.add(strand.id);
    this.stats.leases += 1;
    if (strand.current !== null) this.stats.takeoversMidOperation += 1;
    this.emit(lease(strand.id, epoch, this.dice.chance(50) ? { owner: `executor-${epoch}` } : {}));
  }

  accept(strand: SimStrand): void {
    const id = this.accepted === 3 ? 'run "3"' : `run-${this.accepted}`;
    this.accepted += 1;
    const policy = this.dice.pick(POLICIES);
    const op: SimOperation = {
      id,
      strand: strand.id,
      policy: policy ?? NO_RETRY_POLICY,
      cancelled: false,
      steps: new Map(),
      effects: new Map(),
      newSteps: 0,
    };
    this.live.set(id, op);
    strand.current = id;
    this.touchedStrands.add(strand.id);
    this.emit(
      accepted(id, strand.id, { ...(policy === null ? {} : { policy }), ...this.epochOf(strand) }),
    );
  }

  private freshEffect(): string {
    const id = `${this.dice.pick(EFFECT_STEMS)}-${this.reserved.length}`;
    this.reserved.push(id);
    return id;
  }

  private usedEffect(): string | null {
    return this.reserved.length === 0 ? null : this.dice.pick(this.reserved);
  }

  newStep(op: SimOperation): void {
    op.newSteps += 1;
    this.dispatch(
      op,
      `turn-${op.newSteps}/${this.dice.pick(["assistant", "tool-1"])}`,
      1,
      this.tick(),
    );
  }

  retry(op: SimOperation, key: string): void {
    const step = op.steps.get(key) as SimStep;
    const at = Math.max(this.tick(), step.notBefore as number);
    this.now = at;
    this.stats.retries += 1;
    this.dispatch(op, key, step.attempt + 1, at);
  }

  /** Journals an intent and books the step's new current attempt. */
  dispatch(op: SimOperation, key: string, attempt: number, at: number): void {
    const effect = this.freshEffect();
    const request = this.dice.chance(60) ? this.dice.pick(REQUESTS) : null;
    const outputLimit = this.dice.chance(40) ? this.dice.pick([0, 100, 4096]) : 0;
    op.effects.set(effect, {
      key,
      attempt,
      at,
      request,
      outputLimit,
      status: "pending",
      settledAt: null,
      settlement: null,
    });
    op.steps.set(key, { attempt, effect, status: "pending", notBefore: null });
    this.emit(
      intent(op.id, key, effect, attempt, at, {
        ...(request === null ? {} : { request }),
        ...(outputLimit === 0 && this.dice.chance(50) ? {} : { outputLimit }),
        ...this.epochOf(this.strandOf(op)),
      }),
    );
  }

  private schedulesRetry(
    op: SimOperation,
    id: string,
    outcome: string,
    retryable: boolean,
  ): boolean {
    const effect = op.effects.get(id) as SimEffect;
    return (
      op.steps.get(effect.key)?.effect === id &&
      outcome === "error" &&
      retryable &&
      attemptsRemain(op.policy, effect.attempt)
    );
  }

  /** A settlement the runtime would journal; `wrongNotBefore` and `wrongClass` are faults. */
  settle(
    op: SimOperation,
    id: string,
    fault: { wrongNotBefore?: boolean; wrongClass?: boolean } = {},
  ): void {
    const effect = op.effects.get(id) as SimEffect;
    const at = this.tick();
    const outcome = fault.wrongNotBefore
      ? "error"
      : this.dice.pick(["ok", "ok", "ok", "error", "error", "unknown", "unknown"]);
    const retryable = fault.wrongNotBefore === true || this.dice.chance(70);
    const hint: JsonRecord = this.dice.chance(30) ? { retryAfterMs: this.dice.pick(HINTS) } : {};
    const extra: JsonRecord = {
      ...(retryable || this.dice.chance(30) ? { retryable } : {}),
      ...hint,
    };
    if (this.schedulesRetry(op, id, outcome, retryable)) {
      const due = at + retryWait(op.policy, effect.attempt, id, hint.retryAfterMs);
      if (fault.wrongNotBefore) extra.notBefore = due + 1 + this.dice.below(5);
      else if (this.dice.chance(70)) extra.notBefore = due;
    }
    if (fault.wrongClass || this.dice.chance(40)) {
      const response = this.response();
      const right = classify(
        op.cancelled ? "cancelled" : "running",
        response,
        effect.request,
        effect.outputLimit,
      );
      extra.response = responseJson(response);
      if (fault.wrongClass)
        extra.class = this.dice.pick(RESPONSE_CLASSES.filter((c) => c !== right));
      else if (this.dice.chance(70)) {
        extra.class = right;
        this.stats.classified += 1;
      }
    }
    const record = settled(op.id, id, outcome, at, {
      ...extra,
      ...this.epochOf(this.strandOf(op)),
    });
    effect.settlement = record;
    effect.status = outcome === "unknown" ? "unknown" : "settled";
    effect.settledAt = at;
    if (outcome === "unknown") this.stats.unknowns += 1;
    this.emit(record);
    const step = op.steps.get(effect.key) as SimStep;
    if (step.effect !== id) return;
    if (outcome === "ok") step.status = "ok";
    else if (outcome === "unknown") step.status = "unknown";
    else if (retryable) this.failRetryably(op, step, at, hint.retryAfterMs);
    else step.status = "failed";
  }

  private failRetryably(op: SimOperation, step: SimStep, at: number, hint: unknown): void {
    if (!attemptsRemain(op.policy, step.attempt)) {
      step.status = "failed";
      return;
    }
    step.status = "retry-wait";
    step.notBefore = at + retryWait(op.policy, step.attempt, step.effect, hint);
  }

  private response(): Response {
    const stop = this.dice.pick(STOP_REASONS);
    const request = this.dice.pick(REQUESTS);
    return {
      stop,
      errorMessage:
        stop === "error" && this.dice.chance(70) ? this.dice.pick(ERROR_MESSAGES) : null,
      outputTokens: this.dice.chance(50) ? this.dice.pick([0, 99, 100, 5000]) : 0,
      toolCalls: this.dice.chance(40) ? this.dice.below(3) : 0,
      handle:
        stop === "deferred" && this.dice.chance(70)
          ? { id: this.dice.pick(["h-1", ""]), ...request }
          : null,
    };
  }

  readBack(op: SimOperation, id: string): void {
    const effect = op.effects.get(id) as SimEffect;
    const at = this.tick();
    const found = this.dice.pick(["committed", "absent"]);
    effect.status = "resolved";
    this.stats.readbacks += 1;
    if (found === "absent") this.stats.absentReadbacks += 1;
    this.emit(readback(op.id, id, found, at, this.epochOf(this.strandOf(op))));
    const step = op.steps.get(effect.key) as SimStep;
    if (step.effect !== id) return;
    if (found === "committed") step.status = "ok";
    else this.failRetryably(op, step, at, undefined);
  }

  cancel(op: SimOperation): void {
    op.cancelled = true;
    this.stats.cancels += 1;
    this.emit(cancelRequested(op.id, this.tick(), this.epochOf(this.strandOf(op))));
  }

  finish(op: SimOperation): void {
    const allOk = [...op.steps.values()].every((step) => step.status === "ok");
    const outcome = op.cancelled
      ? "aborted"
      : allOk && this.dice.chance(80)
        ? "completed"
        : "failed";
    this.emit(finished(op.id, outcome, this.tick(), this.epochOf(this.strandOf(op))));
    this.outcomes[outcome] += 1;
    this.stats.finished += 1;
    this.live.delete(op.id);
    const strand = this.strandOf(op);
    if (strand.current === op.id) strand.current = null;
  }

  // -------------------------------------------------------------------------------------------
  // Faults: each returns the finding it must give, or null when the state offers it no place.

  inject(kind: FaultKind): Omit<ExpectedFinding, "fault" | "index"> | null {
    const ops = [...this.live.values()];
    switch (kind) {
      case "stale-epoch-write": {
        const op = ops.find((o) => this.strandOf(o).epoch !== null);
        if (op === undefined) return null;
        const epoch = (this.strandOf(op).epoch as number) - 1 - this.dice.below(3);
        this.emit(cancelRequested(op.id, this.tick(), { epoch }));
        return { rule: "fencing", reason: "stale-epoch" };
      }
      case "duplicate-settlement": {
        for (const op of ops) {
          for (const effect of op.effects.values()) {
            if (effect.settlement === null) continue;
            const { epoch: _stale, ...copy } = effect.settlement;
            this.emit({ ...copy, ...this.epochOf(this.strandOf(op)) });
            const reason = effect.status === "unknown" ? "awaiting-readback" : "already-settled";
            return { rule: "settleOnce", reason };
          }
        }
        return null;
      }
      case "blind-retry": {
        for (const op of ops.filter((o) => !o.cancelled)) {
          for (const [key, step] of op.steps) {
            if (step.status !== "unknown") continue;
            this.dispatch(op, key, step.attempt + 1, this.tick());
            return { rule: "uncertaintyHeld", reason: "outcome-unknown" };
          }
        }
        return null;
      }
      case "retry-too-early": {
        for (const op of ops.filter((o) => !o.cancelled && !hasUnknown(o))) {
          for (const [key, step] of op.steps) {
            if (step.status !== "retry-wait") continue;
            // The runtime retries at once, before the wait is out: its clock reads `at` now.
            const at = (step.notBefore as number) - 1 - this.dice.below(50);
            this.now = Math.max(this.now, at);
            this.dispatch(op, key, step.attempt + 1, at);
            return { rule: "retryLadder", reason: "retry-too-early" };
          }
        }
        return null;
      }
      case "wrong-not-before": {
        for (const op of ops) {
          for (const [id, effect] of op.effects) {
            if (effect.status !== "pending" || !this.schedulesRetry(op, id, "error", true))
              continue;
            this.settle(op, id, { wrongNotBefore: true });
            return { rule: "retryLadder", reason: "ladder-mismatch" };
          }
        }
        return null;
      }
      case "reused-effect": {
        const op = ops[0];
        const reused = this.usedEffect();
        if (op === undefined || reused === null) return null;
        const extra = this.epochOf(this.strandOf(op));
        this.emit(intent(op.id, "turn-9/reused", reused, 1, this.tick(), extra));
        return { rule: "freshIdentity", reason: "effect-reused" };
      }
      case "intent-after-cancel": {
        const op = ops.find((o) => o.cancelled);
        if (op === undefined) return null;
        this.dispatch(op, "turn-9/after-cancel", 1, this.tick());
        return { rule: "cancellation", reason: "cancelled" };
      }
      case "finish-outstanding": {
        const op = ops.find((o) =>
          [...o.effects.values()].some((e) => e.status === "pending" || e.status === "unknown"),
        );
        if (op === undefined) return null;
        this.finish(op);
        return { rule: "finality", reason: "effects-outstanding" };
      }
      case "misclassified": {
        for (const op of ops) {
          for (const [id, effect] of op.effects) {
            if (effect.status !== "pending") continue;
            this.settle(op, id, { wrongClass: true });
            return { rule: "classification", reason: "misclassified" };
          }
        }
        return null;
      }
      case "busy-accept": {
        const strand = this.strands.find((s) => s.current !== null);
        if (strand === undefined || this.accepted >= MAX_OPERATIONS) return null;
        this.accept(strand);
        return { rule: "oneOperationPerStrand", reason: "strand-busy" };
      }
      default: {
        const unreachable: never = kind;
        return unreachable;
      }
    }
  }

  expectedFinal(): ExpectedFinal {
    const operations = { running: 0, cancelled: 0, ...this.outcomes };
    const steps = { pending: 0, ok: 0, failed: 0, retryWait: 0, unknown: 0 };
    for (const op of this.live.values()) {
      operations[op.cancelled ? "cancelled" : "running"] += 1;
      for (const step of op.steps.values()) {
        steps[step.status === "retry-wait" ? "retryWait" : step.status] += 1;
      }
    }
    return { operations, steps, effects: this.reserved.length, strands: this.touchedStrands.size };
  }
}

function hasUnknown(op: SimOperation): boolean {
  return [...op.effects.values()].some((effect) => effect.status === "unknown");
}

/** A response as a journal carries it: absent optional fields left out. */
function responseJson(response: Response): JsonRecord {
  return {
    stop: response.stop,
    ...(response.errorMessage === null ? {} : { errorMessage: response.errorMessage }),
    ...(response.outputTokens === 0 ? {} : { outputTokens: response.outputTokens }),
    ...(response.toolCalls === 0 ? {} : { toolCalls: response.toolCalls }),
    ...(response.handle === null ? {} : { handle: response.handle }),
  };
}

/**
 * Runs the plan: at each step the runtime takes one of the actions open to it. With a fault
 * plan, from step `fromStep` on, the runtime commits the fault instead as soon as the state
 * offers it a place (then goes on as a runtime would that has done it).
 */
export function simulateRuntime(plan: RuntimePlan, fault?: FaultPlan): RuntimeJournal {
  const runtime = new Runtime(plan.strands, plan.startAt);
  let finding: ExpectedFinding | null = null;
  for (const [step, choice] of plan.choices.entries()) {
    runtime.dice = new Dice(choice);
    if (fault !== undefined && finding === null && step >= fault.fromStep) {
      const index = runtime.records.length;
      const found = runtime.inject(fault.kind);
      if (found !== null) {
        finding = { fault: fault.kind, index, ...found };
        continue;
      }
    }
    const actions = runtime.actions();
    (actions[choice % actions.length] as Action)();
  }
  return {
    records: runtime.records,
    stats: { ...runtime.stats },
    expectedFinal: runtime.expectedFinal(),
    finding,
  };
}

/** The class classification gives; re-exported so tests need not import the model for it. */
export type { ResponseClass };
