// A small effect runtime, the kind the `operations` model audits (docs/models/operations.md),
// written from the protocol of docs/explore.md, "Refinement of an effect runtime". It runs one
// operation at a time per strand, one effect per attempt of each step, and commits every
// decision to its journal before it acts on it:
// - the journal, in memory, is its durable store: a crash loses everything else, and a new
//   process recovers from the journal alone;
// - every write is fenced: the store refuses a record whose epoch is below the strand's lease,
//   so an executor whose lease was taken over commits nothing;
// - an answer that never came (a timeout, a crash, a takeover) is an unknown outcome, read back
//   under the same effect id before anything else happens on the op;
// - a retryable error waits out the ladder of the exported `retryWait`, and the provider's hint.
// The records carry `steps` on `accepted` (what recovery needs to go on) and `owner` on `lease`;
// the model ignores fields it does not know.
import { operations } from "statefold";

const { retryWait, attemptsRemain } = operations;

/** The journal as a durable, fenced store: what survives a crash. */
export class Store {
  constructor() {
    this.lines = [];
    this.leases = new Map();
  }

  /** Appends a record written under `epoch`, unless a later lease holds the strand. */
  append(strand, epoch, record) {
    if (epoch < this.leaseOf(strand)) return false;
    this.lines.push(JSON.stringify(record));
    return true;
  }

  takeLease(strand, epoch, owner) {
    this.leases.set(strand, epoch);
    this.lines.push(JSON.stringify({ kind: "lease", strand, epoch, owner }));
  }

  leaseOf(strand) {
    return this.leases.get(strand) ?? 1;
  }

  records() {
    return this.lines.map((line) => JSON.parse(line));
  }
}

/** The executor of one strand at one epoch: runs its op's steps, one call at a time. */
export class Executor {
  constructor(runtime, strand, epoch) {
    this.runtime = runtime;
    this.strand = strand;
    this.epoch = epoch;
    this.op = null;
  }

  get clock() {
    return this.runtime.clock;
  }

  commit(record) {
    const written = { ...record, epoch: this.epoch };
    return this.runtime.store.append(this.strand, this.epoch, written);
  }

  accept(op, steps, policy) {
    if (this.op !== null) return;
    if (!this.commit({ kind: "accepted", op, strand: this.strand, policy, steps })) return;
    this.op = { op, steps, policy, cancelled: false, index: 0, attempt: 1, phase: "ready" };
    this.advance();
  }

  cancel() {
    const op = this.op;
    if (op === null || op.cancelled) return;
    if (!this.commit({ kind: "cancel-requested", op: op.op, at: this.clock })) return;
    op.cancelled = true;
    this.advance();
  }

  /** Does what the op's state allows now: the next intent, a retry that is due, a finish. */
  advance() {
    const op = this.op;
    if (op === null) return;
    if (op.phase === "waiting" && this.clock >= op.notBefore) {
      op.phase = "ready";
      op.attempt += 1;
    }
    const idle = op.phase === "ready" || op.phase === "waiting" || op.phase === "failed";
    if (op.cancelled && idle) return this.finish("aborted");
    if (op.phase === "failed") return this.finish("failed");
    if (op.phase !== "ready") return;
    if (op.index === op.steps.length) return this.finish("completed");
    this.reserve();
  }

  /** Commits the intent of the current step's attempt, then calls the provider. */
  reserve() {
    const op = this.op;
    const key = op.steps[op.index];
    const effect = `${op.op}/${key}/${op.attempt}`;
    const at = this.clock;
    const intent = { kind: "intent", op: op.op, key, effect, attempt: op.attempt, at };
    if (!this.commit(intent)) return;
    op.effect = effect;
    op.phase = "calling";
    this.runtime.call(this, "effect", effect);
  }

  finish(outcome) {
    if (!this.commit({ kind: "finished", op: this.op.op, outcome, at: this.clock })) return;
    this.op = null;
  }

  /** The provider's answer to an effect call. */
  answered(call, { result, retryAfterMs }) {
    const op = this.op;
    if (op === null || op.effect !== call.effect) return;
    const settled = { kind: "settled", op: op.op, effect: call.effect, at: this.clock };
    if (result === "ok") {
      if (this.commit({ ...settled, outcome: "ok" })) this.stepDone();
    } else if (result === "error") {
      if (this.commit({ ...settled, outcome: "error" })) op.phase = "failed";
    } else if (result === "retryable") {
      const hint = retryAfterMs === undefined ? {} : { retryAfterMs };
      const retry = this.retryAfter(retryAfterMs);
      const notBefore = retry === null ? {} : { notBefore: retry };
      const record = { ...settled, outcome: "error", retryable: true, ...hint, ...notBefore };
      if (this.commit(record)) this.waitOrFail(retry);
    } else {
      this.unknown();
    }
    this.advance();
  }

  /** The answer never came: the outcome is unknown, and only a readback resolves it. */
  unknown() {
    const op = this.op;
    const record = { kind: "settled", op: op.op, effect: op.effect, outcome: "unknown" };
    if (!this.commit({ ...record, at: this.clock })) return;
    this.readBack();
  }

  readBack() {
    if (this.epoch < this.runtime.store.leaseOf(this.strand)) return; // its lease is gone
    this.op.phase = "reading";
    this.runtime.call(this, "readback", this.op.effect);
  }

  /** The answer to a readback: the provider's ledger says whether the effect executed. */
  readAnswered(call, { result }) {
    const op = this.op;
    if (op === null || op.effect !== call.effect) return;
    if (result === "lost") return this.readBack();
    const readback = { kind: "readback", op: op.op, effect: op.effect, at: this.clock };
    if (!this.commit({ ...readback, found: result })) return;
    if (result === "committed") this.stepDone();
    else this.waitOrFail(this.retryAfter(undefined));
    this.advance();
  }

  /** When the next attempt may start, or null when the policy allows no other. */
  retryAfter(retryAfterMs) {
    const { policy, attempt, effect } = this.op;
    if (!attemptsRemain(policy, attempt)) return null;
    return this.clock + retryWait(policy, attempt, effect, retryAfterMs);
  }

  waitOrFail(notBefore) {
    if (notBefore === null) {
      this.op.phase = "failed";
    } else {
      this.op.phase = "waiting";
      this.op.notBefore = notBefore;
    }
  }

  stepDone() {
    this.op.index += 1;
    this.op.attempt = 1;
    this.op.phase = "ready";
  }

  /** When this executor wants the clock to wake it: a retry's notBefore. */
  wake() {
    return this.op?.phase === "waiting" ? this.op.notBefore : null;
  }

  /** Picks up the strand's op from the journal, as a new process or a new lease holder does. */
  recover(records) {
    let op = null;
    for (const record of records) {
      if (record.kind === "accepted" && record.strand === this.strand) {
        const { op: id, steps, policy } = record;
        op = { op: id, steps, policy, cancelled: false, index: 0, attempt: 1, phase: "ready" };
      } else if (op !== null && record.op === op.op) {
        op = recovered(op, record);
      }
    }
    this.op = op?.phase === "finished" ? null : op;
    if (this.op === null) return;
    this.resume();
    this.advance();
  }

  /** After recovery: an effect left in flight is unknown; an unknown one is read back. */
  resume() {
    if (this.op.phase === "calling") this.unknown();
    else if (this.op.phase === "reading") this.readBack();
  }
}

/** An op's state after one of its records, as recovery replays them. */
function recovered(op, record) {
  const { policy } = op;
  switch (record.kind) {
    case "intent":
      return { ...op, effect: record.effect, attempt: record.attempt, phase: "calling" };
    case "settled":
      if (record.effect !== op.effect) return op;
      if (record.outcome === "ok") return { ...op, index: op.index + 1, attempt: 1, phase: "ready" };
      if (record.outcome === "unknown") return { ...op, phase: "reading" };
      if (record.retryable !== true || !attemptsRemain(policy, op.attempt)) {
        return { ...op, phase: "failed" };
      }
      return { ...op, phase: "waiting", notBefore: record.notBefore };
    case "readback":
      if (record.effect !== op.effect) return op;
      if (record.found === "committed") {
        return { ...op, index: op.index + 1, attempt: 1, phase: "ready" };
      }
      if (!attemptsRemain(policy, op.attempt)) return { ...op, phase: "failed" };
      return {
        ...op,
        phase: "waiting",
        notBefore: record.at + retryWait(policy, op.attempt, op.effect, undefined),
      };
    case "cancel-requested":
      return { ...op, cancelled: true };
    case "finished":
      return { ...op, phase: "finished" };
    default:
      return op;
  }
}

/** The runtime: a store, an executor per strand, the calls it has out. */
export class EffectRuntime {
  constructor({ strands, policy }, parts = {}) {
    this.ExecutorClass = parts.Executor ?? Executor;
    this.policy = policy;
    this.store = new (parts.Store ?? Store)();
    this.clock = 0;
    this.strands = strands;
    this.start();
  }

  /** A process starting: executors at the strands' current leases, recovered from the store. */
  start() {
    this.calls = new Map();
    this.nextCall = 1;
    this.executors = new Map();
    const records = this.store.records();
    for (const strand of this.strands) {
      const executor = new this.ExecutorClass(this, strand, this.store.leaseOf(strand));
      this.executors.set(strand, executor);
      executor.recover(records);
    }
  }

  call(executor, type, effect) {
    const id = `c${this.nextCall++}`;
    this.calls.set(id, { id, type, op: executor.op.op, effect, executor });
  }

  submit({ op, strand, steps }) {
    this.executors.get(strand)?.accept(op, steps, this.policy);
  }

  respond(answer) {
    const call = this.calls.get(answer.call);
    if (call === undefined) return;
    this.calls.delete(answer.call);
    if (call.type === "effect") call.executor.answered(call, answer);
    else call.executor.readAnswered(call, answer);
  }

  tick(t) {
    this.clock = t;
    for (const executor of this.executors.values()) executor.advance();
  }

  cancel({ op }) {
    for (const executor of this.executors.values()) {
      if (executor.op?.op === op) executor.cancel();
    }
  }

  crash() {
    this.start();
  }

  /** The strand's lease passes on; the old executor then hears its calls' fate, too late. */
  takeover({ strand, executed }) {
    const old = this.executors.get(strand);
    const epoch = this.store.leaseOf(strand) + 1;
    this.store.takeLease(strand, epoch, `executor-${epoch}`);
    const orphaned = [...this.calls.values()].filter((call) => call.executor === old);
    for (const call of orphaned) this.calls.delete(call.id);
    const executor = new this.ExecutorClass(this, strand, epoch);
    this.executors.set(strand, executor);
    executor.recover(this.store.records());
    for (const call of orphaned) {
      const result = call.type === "effect" && executed.includes(call.id) ? "ok" : "lost";
      if (call.type === "effect") old.answered(call, { result });
      else old.readAnswered(call, { result });
    }
  }

  outstanding() {
    return [...this.calls.values()].map(({ id, type, op, effect }) => ({ id, type, op, effect }));
  }

  wake() {
    const wakes = [...this.executors.values()].map((e) => e.wake()).filter((t) => t !== null);
    return wakes.length === 0 ? null : Math.min(...wakes);
  }
}
