/**
 * The rules (docs/models/operations.md, "The rules" and "What a breaking record still changes"):
 * one example per reason, grouped by what the breaking record then does. Each example is
 * followed by a record whose verdict shows it: a follow-up that is legal only if the breaking
 * record changed nothing, or one whose verdict only an applied record explains. Then the order
 * of the checks, two at a time.
 */
import { describe, expect, it } from "vitest";
import {
  audit,
  type OperationsReport,
  type Reason,
  RULE_NAMES,
  RULE_OF_REASON,
  type RuleName,
  retryWait,
} from "../../../src/models/operations/index.js";
import {
  accepted,
  cancelRequested,
  finished,
  intent,
  LADDER_POLICY,
  lease,
  readback,
  settled,
} from "../../support/operations-arbitraries.js";

const ACCEPT = accepted("run-1", "chat-A", { policy: LADDER_POLICY });
const INTENT_1 = intent("run-1", "k", "e-1", 1, 1000);
/** Attempt 1 of e-1 fails retryably at 1400: the retry may start at 1400 + 944. */
const FAIL_1 = settled("run-1", "e-1", "error", 1400, { retryable: true });
const RETRY_AT = 2344;

/** Asserts the journal's findings, and that each reason's rule names its first one. */
function expectFindings(
  records: readonly unknown[],
  expected: [number, Reason][],
): OperationsReport {
  const report = audit(records);
  expect(report.legality.first.map((f) => [f.index, f.reason])).toEqual(expected);
  expect(report.legality.illegal).toBe(expected.length);
  const firstIndexOf = new Map<RuleName, number>();
  for (const [index, reason] of expected) {
    const rule = RULE_OF_REASON[reason];
    if (!firstIndexOf.has(rule)) firstIndexOf.set(rule, index);
  }
  for (const rule of RULE_NAMES) {
    const verdict = report.invariants[rule];
    const index = firstIndexOf.get(rule);
    expect(verdict.holds ? null : verdict.index, rule).toBe(index ?? null);
  }
  expect(report.conformant).toBe(expected.length === 0);
  return report;
}

const wait = (attempt: number, effect: string, hint?: unknown) =>
  retryWait(LADDER_POLICY, attempt, effect, hint);

describe("a record that repeats, contradicts or cannot be placed changes nothing", () => {
  it("unknown-operation (lifecycle): the ghost's effect id stays free", () => {
    const report = expectFindings(
      [intent("ghost", "k", "e-1", 1, 1000), ACCEPT, INTENT_1],
      [[0, "unknown-operation"]],
    );
    expect(report.invariants.lifecycle).toEqual({
      holds: false,
      index: 0,
      op: "ghost",
      effect: "e-1",
    });
    expect(report.final.effects).toBe(1);
  });

  it("operation-finished (lifecycle): the late intent reserves nothing", () => {
    expectFindings(
      [
        ACCEPT,
        finished("run-1", "completed", 10),
        intent("run-1", "k", "e-1", 1, 20),
        accepted("run-2", "chat-A"),
        intent("run-2", "k", "e-1", 1, 30),
      ],
      [[2, "operation-finished"]],
    );
  });

  it("duplicate-operation (lifecycle): the second accept takes no strand", () => {
    const report = expectFindings(
      [
        ACCEPT,
        accepted("run-1", "chat-B"),
        accepted("run-2", "chat-B"),
        accepted("run-3", "chat-A"),
      ],
      [
        [1, "duplicate-operation"],
        [3, "strand-busy"],
      ],
    );
    expect(report.final.strands).toBe(2);
    expect(report.final.operations.running).toBe(3);
  });

  it("duplicate-operation also for an op that has finished", () => {
    expectFindings(
      [ACCEPT, finished("run-1", "failed", 5), accepted("run-1", "chat-A")],
      [[2, "duplicate-operation"]],
    );
  });

  it("stale-epoch (fencing): the stale cancel does not cancel", () => {
    const report = expectFindings(
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        cancelRequested("run-1", 10, { epoch: 4 }),
        cancelRequested("run-1", 20, { epoch: 5 }),
      ],
      [[2, "stale-epoch"]],
    );
    expect(report.invariants.fencing).toEqual({ holds: false, index: 2, op: "run-1" });
  });

  it("epoch-mismatch with the epoch missing (fencing): changes nothing, the epoch stays", () => {
    expectFindings(
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        cancelRequested("run-1", 10),
        cancelRequested("run-1", 20, { epoch: 5 }),
      ],
      [[2, "epoch-mismatch"]],
    );
  });

  it("epoch-regressed (fencing): a lower or equal lease leaves the strand's epoch", () => {
    const report = expectFindings(
      [
        lease("chat-A", 5),
        lease("chat-A", 3, { owner: "old" }),
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
      ],
      [
        [1, "epoch-regressed"],
        [2, "epoch-regressed"],
      ],
    );
    expect(report.invariants.fencing).toEqual({ holds: false, index: 1, strand: "chat-A" });
    expect(report.legality.first[0]).toEqual({
      index: 1,
      kind: "lease",
      strand: "chat-A",
      reason: "epoch-regressed",
    });
  });

  it("effect-reused (freshIdentity): the second step stays new", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        intent("run-1", "k2", "e-1", 1, 1100),
        intent("run-1", "k2", "e-2", 1, 1200),
        settled("run-1", "e-1", "ok", 1300),
      ],
      [[2, "effect-reused"]],
    );
  });

  it("effect-reused across ops, and after the op that reserved it finished", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 1100),
        finished("run-1", "completed", 1200),
        accepted("run-2", "chat-A"),
        intent("run-2", "k", "e-1", 1, 1300),
        intent("run-2", "k", "e-2", 1, 1400),
      ],
      [[5, "effect-reused"]],
    );
  });

  it("no-intent (effectSandwich): a settlement of nothing reserves nothing", () => {
    const report = expectFindings(
      [
        ACCEPT,
        settled("run-1", "e-9", "ok", 10),
        intent("run-1", "k", "e-9", 1, 20),
        settled("run-1", "e-9", "ok", 30),
      ],
      [[1, "no-intent"]],
    );
    expect(report.invariants.effectSandwich).toEqual({
      holds: false,
      index: 1,
      op: "run-1",
      effect: "e-9",
    });
  });

  it("no-intent for an effect another op reserved: that op's effect is untouched", () => {
    expectFindings(
      [
        ACCEPT,
        accepted("run-2", "chat-B"),
        intent("run-2", "k", "e-1", 1, 10),
        settled("run-1", "e-1", "ok", 20),
        readback("run-1", "e-1", "committed", 25),
        settled("run-2", "e-1", "ok", 30),
      ],
      [
        [3, "no-intent"],
        [4, "no-intent"],
      ],
    );
  });

  it("already-settled (settleOnce): the contradicting copy does not move the step", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 1100),
        settled("run-1", "e-1", "error", 1200, { retryable: true }),
        intent("run-1", "k", "e-2", 2, 5000),
      ],
      [
        [3, "already-settled"],
        [4, "step-completed"],
      ],
    );
  });

  it("already-settled for a resolved effect", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        readback("run-1", "e-1", "committed", 1200),
        settled("run-1", "e-1", "ok", 1300),
        finished("run-1", "completed", 1400),
      ],
      [[4, "already-settled"]],
    );
  });

  it("awaiting-readback (settleOnce): only a readback resolves an unknown outcome", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        settled("run-1", "e-1", "ok", 1200),
        readback("run-1", "e-1", "committed", 1300),
      ],
      [[3, "awaiting-readback"]],
    );
  });

  it("not-unknown (uncertaintyHeld): a readback of a pending effect leaves it pending", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        readback("run-1", "e-1", "committed", 1100),
        settled("run-1", "e-1", "ok", 1200),
        readback("run-1", "e-1", "absent", 1300),
      ],
      [
        [2, "not-unknown"],
        [4, "not-unknown"],
      ],
    );
  });

  it("already-cancelled (cancellation): the first abort wins", () => {
    const report = expectFindings(
      [
        ACCEPT,
        cancelRequested("run-1", 10),
        cancelRequested("run-1", 20),
        finished("run-1", "aborted", 30),
      ],
      [[2, "already-cancelled"]],
    );
    expect(report.final.operations.aborted).toBe(1);
  });
});

describe("epoch-mismatch with a higher epoch: the epoch is adopted, the record judged under it", () => {
  it("an otherwise legal record is applied, and the old epoch is stale from then on", () => {
    expectFindings(
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        cancelRequested("run-1", 10, { epoch: 7 }),
        cancelRequested("run-1", 20, { epoch: 7 }),
        finished("run-1", "aborted", 30, { epoch: 5 }),
      ],
      [
        [2, "epoch-mismatch"],
        [3, "already-cancelled"],
        [4, "stale-epoch"],
      ],
    );
  });

  it("a record with another breach that applies it is applied, reported as epoch-mismatch", () => {
    expectFindings(
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5, policy: LADDER_POLICY }),
        cancelRequested("run-1", 10, { epoch: 5 }),
        intent("run-1", "k", "e-1", 1, 20, { epoch: 8 }), // also `cancelled`: applied
        settled("run-1", "e-1", "ok", 30, { epoch: 8 }),
        finished("run-1", "aborted", 40, { epoch: 8 }),
      ],
      [[3, "epoch-mismatch"]],
    );
  });

  it("a record with another breach that changes nothing still moves the epoch", () => {
    expectFindings(
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        intent("run-1", "k", "e-1", 1, 10, { epoch: 5 }),
        intent("run-1", "k2", "e-1", 1, 20, { epoch: 9 }), // also effect-reused: nothing else
        lease("chat-A", 9),
        intent("run-1", "k2", "e-2", 1, 30, { epoch: 9 }),
      ],
      [
        [3, "epoch-mismatch"],
        [4, "epoch-regressed"],
      ],
    );
  });

  it("an accepted record adopts the epoch of the strand it names", () => {
    expectFindings(
      [
        lease("chat-A", 2),
        accepted("run-1", "chat-A", { epoch: 3 }),
        intent("run-1", "k", "e-1", 1, 10, { epoch: 3 }),
        intent("run-1", "k2", "e-2", 1, 10, { epoch: 2 }),
      ],
      [
        [1, "epoch-mismatch"],
        [3, "stale-epoch"],
      ],
    );
  });

  it("an accepted record on a busy strand is applied as strand-busy would be", () => {
    expectFindings(
      [
        lease("chat-A", 2),
        accepted("run-1", "chat-A", { epoch: 2 }),
        accepted("run-2", "chat-A", { epoch: 4 }),
        intent("run-2", "k", "e-1", 1, 10, { epoch: 4 }),
        finished("run-1", "completed", 20, { epoch: 4 }),
        accepted("run-3", "chat-A", { epoch: 4 }),
      ],
      [
        [2, "epoch-mismatch"],
        [5, "strand-busy"],
      ],
    );
  });
});

describe("strand-busy is applied: the op is accepted and displaces the current one", () => {
  it("the new op runs and holds the strand; the displaced one runs on and its end frees nothing", () => {
    const report = expectFindings(
      [
        ACCEPT,
        accepted("run-2", "chat-A"),
        intent("run-2", "k", "e-1", 1, 10),
        intent("run-1", "k", "e-2", 1, 10),
        settled("run-1", "e-2", "ok", 15),
        finished("run-1", "completed", 20),
        accepted("run-3", "chat-A"),
        settled("run-2", "e-1", "ok", 30),
        finished("run-2", "completed", 40), // displaced by run-3: the strand stays busy
        finished("run-3", "completed", 50),
        accepted("run-4", "chat-A"),
      ],
      [
        [1, "strand-busy"],
        [6, "strand-busy"],
      ],
    );
    expect(report.invariants.oneOperationPerStrand).toEqual({
      holds: false,
      index: 1,
      op: "run-2",
    });
    expect(report.final.operations).toEqual({
      running: 1,
      cancelled: 0,
      completed: 3,
      failed: 0,
      aborted: 0,
    });
  });
});

describe("a breaking intent is applied: its effect is reserved, pending, the step's current attempt", () => {
  it("cancelled (cancellation): the effect still takes its settlement", () => {
    const report = expectFindings(
      [
        ACCEPT,
        cancelRequested("run-1", 10),
        intent("run-1", "k", "e-1", 1, 20),
        settled("run-1", "e-1", "ok", 30),
        finished("run-1", "aborted", 40),
      ],
      [[2, "cancelled"]],
    );
    expect(report.final.effects).toBe(1);
  });

  it("cancelled: and a finish before that settlement is effects-outstanding", () => {
    expectFindings(
      [
        ACCEPT,
        cancelRequested("run-1", 10),
        intent("run-1", "k", "e-1", 1, 20),
        finished("run-1", "aborted", 30),
      ],
      [
        [2, "cancelled"],
        [3, "effects-outstanding"],
      ],
    );
  });

  it("outcome-unknown (uncertaintyHeld): the held-back effect is pending", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        intent("run-1", "k2", "e-2", 1, 1200),
        settled("run-1", "e-2", "ok", 1300),
        readback("run-1", "e-1", "committed", 1400),
        finished("run-1", "completed", 1500),
      ],
      [[3, "outcome-unknown"]],
    );
  });

  it("attempt-mismatch on a new step (exactlyOnce): the recorded attempt number is kept", () => {
    expectFindings(
      [
        ACCEPT,
        intent("run-1", "k", "e-1", 2, 1000),
        settled("run-1", "e-1", "error", 1400, {
          retryable: true,
          notBefore: 1400 + wait(2, "e-1"),
        }),
        intent("run-1", "k", "e-2", 3, 1400 + wait(2, "e-1")),
      ],
      [[1, "attempt-mismatch"]],
    );
  });

  it("attempt-mismatch on a retry: the wrong number becomes the step's", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        FAIL_1,
        intent("run-1", "k", "e-2", 1, 5000), // attempt 2 was due: applied as attempt 1
        settled("run-1", "e-2", "error", 5100, {
          retryable: true,
          notBefore: 5100 + wait(1, "e-2"),
        }),
        intent("run-1", "k", "e-3", 2, 5100 + wait(1, "e-2")),
      ],
      [[3, "attempt-mismatch"]],
    );
  });

  it("attempt-mismatch with attempt 0: its ladder step and the next number follow from 0", () => {
    const notBefore = 1400 + wait(0, "e-1");
    expectFindings(
      [
        ACCEPT,
        intent("run-1", "k", "e-1", 0, 1000),
        settled("run-1", "e-1", "error", 1400, { retryable: true, notBefore }),
        intent("run-1", "k", "e-2", 1, notBefore),
      ],
      [[1, "attempt-mismatch"]],
    );
  });

  it("step-in-flight (exactlyOnce): the second attempt becomes current, the first settles aside", () => {
    const notBefore = 1300 + wait(2, "e-2");
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        intent("run-1", "k", "e-2", 2, 1100),
        settled("run-1", "e-1", "ok", 1200), // an earlier effect: the step does not move
        settled("run-1", "e-2", "error", 1300, { retryable: true, notBefore }),
        intent("run-1", "k", "e-3", 3, notBefore),
      ],
      [[2, "step-in-flight"]],
    );
  });

  it("step-in-flight: an earlier unknown effect still takes its readback, aside from the step", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        cancelRequested("run-1", 1150),
        intent("run-1", "k", "e-2", 2, 1200), // cancelled, applied over the unknown step
        settled("run-1", "e-2", "ok", 1300),
        readback("run-1", "e-1", "absent", 1400), // resolves e-1 only: the step stays ok
        finished("run-1", "aborted", 1500),
      ],
      [[4, "cancelled"]],
    );
    const report = audit([
      ACCEPT,
      INTENT_1,
      settled("run-1", "e-1", "unknown", 1100),
      cancelRequested("run-1", 1150),
      intent("run-1", "k", "e-2", 2, 1200),
      settled("run-1", "e-2", "ok", 1300),
      readback("run-1", "e-1", "absent", 1400),
    ]);
    expect(report.final.steps).toEqual({ pending: 0, ok: 1, failed: 0, retryWait: 0, unknown: 0 });
  });

  it("step-completed (exactlyOnce): the duplicate attempt still settles", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 1100),
        intent("run-1", "k", "e-2", 2, 1200),
        settled("run-1", "e-2", "ok", 1300),
        finished("run-1", "completed", 1400),
      ],
      [[3, "step-completed"]],
    );
  });

  it("retry-not-allowed (exactlyOnce) after a non-retryable error, and after the last attempt", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "error", 1100),
        intent("run-1", "k", "e-2", 2, 1200),
        settled("run-1", "e-2", "ok", 1300),
        finished("run-1", "completed", 1400),
      ],
      [[3, "retry-not-allowed"]],
    );
    expectFindings(
      [
        accepted("run-1", "chat-A"), // no policy: one attempt
        INTENT_1,
        settled("run-1", "e-1", "error", 1100, { retryable: true }),
        intent("run-1", "k", "e-2", 2, 1200),
        settled("run-1", "e-2", "ok", 1300),
      ],
      [[3, "retry-not-allowed"]],
    );
  });

  it("retry-too-early (retryLadder): one millisecond early is early; the retry then settles", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        FAIL_1,
        intent("run-1", "k", "e-2", 2, RETRY_AT - 1),
        settled("run-1", "e-2", "ok", 2400),
      ],
      [[3, "retry-too-early"]],
    );
    expectFindings([ACCEPT, INTENT_1, FAIL_1, intent("run-1", "k", "e-2", 2, RETRY_AT)], []);
  });

  it("retry-too-early against a notBefore beyond the safe range, compared exactly", () => {
    const top = Number.MAX_SAFE_INTEGER;
    expectFindings(
      [
        accepted("run-1", "chat-A", {
          policy: { maxAttempts: null, baseDelayMs: 2, maxDelayMs: 2 },
        }),
        intent("run-1", "k", "e-1", 1, top - 1),
        settled("run-1", "e-1", "error", top - 1, { retryable: true }),
        intent("run-1", "k", "e-2", 2, top),
      ],
      [[3, "retry-too-early"]],
    );
  });
});

describe("a breaking settlement or readback is applied as what it is", () => {
  it("out-of-order settlement (effectSandwich): applied, so a copy is already-settled", () => {
    expectFindings(
      [ACCEPT, INTENT_1, settled("run-1", "e-1", "ok", 999), settled("run-1", "e-1", "ok", 1200)],
      [
        [2, "out-of-order"],
        [3, "already-settled"],
      ],
    );
  });

  it("out-of-order readback (effectSandwich): applied, an absent one schedules the retry", () => {
    const notBefore = 1099 + wait(1, "e-1");
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        readback("run-1", "e-1", "absent", 1099),
        intent("run-1", "k", "e-2", 2, notBefore - 1),
        intent("run-1", "k2", "e-3", 1, notBefore),
      ],
      [
        [3, "out-of-order"],
        [4, "retry-too-early"],
      ],
    );
  });

  it("no-retry (retryLadder): a notBefore on a success is ignored, the step is ok", () => {
    const report = expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 1100, { notBefore: 2000 }),
        intent("run-1", "k", "e-2", 2, 3000),
      ],
      [
        [2, "no-retry"],
        [3, "step-completed"],
      ],
    );
    expect(report.invariants.retryLadder).toEqual({
      holds: false,
      index: 2,
      op: "run-1",
      effect: "e-1",
    });
  });

  it.each([
    ["a non-retryable error", settled("run-1", "e-1", "error", 1400, { notBefore: RETRY_AT })],
    ["an unknown outcome", settled("run-1", "e-1", "unknown", 1400, { notBefore: RETRY_AT })],
    [
      "retryable: false",
      settled("run-1", "e-1", "error", 1400, { retryable: false, notBefore: RETRY_AT }),
    ],
  ])("no-retry for %s", (_, settlement) => {
    expectFindings([ACCEPT, INTENT_1, settlement], [[2, "no-retry"]]);
  });

  it("no-retry after the last attempt, and for an effect that is not the step's current one", () => {
    const single = accepted("run-1", "chat-A", {
      policy: { maxAttempts: 1, baseDelayMs: 1000, maxDelayMs: 30000 },
    });
    expectFindings(
      [
        single,
        INTENT_1,
        settled("run-1", "e-1", "error", 1400, { retryable: true, notBefore: RETRY_AT }),
      ],
      [[2, "no-retry"]],
    );
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        intent("run-1", "k", "e-2", 2, 1100),
        settled("run-1", "e-1", "error", 1400, { retryable: true, notBefore: RETRY_AT }),
      ],
      [
        [2, "step-in-flight"],
        [3, "no-retry"],
      ],
    );
  });

  it("an unbounded budget always schedules the retry: a notBefore is legal at any attempt", () => {
    const unbounded = accepted("run-1", "chat-A", {
      policy: { maxAttempts: null, baseDelayMs: 1000, maxDelayMs: 30000 },
    });
    const notBefore = 1400 + wait(1, "e-1", 500);
    expectFindings(
      [
        unbounded,
        INTENT_1,
        settled("run-1", "e-1", "error", 1400, { retryable: true, retryAfterMs: 500, notBefore }),
      ],
      [],
    );
  });

  it("ladder-mismatch (retryLadder): the model's own notBefore stands, not the recorded one", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "error", 1400, { retryable: true, notBefore: 3000 }),
        intent("run-1", "k", "e-2", 2, RETRY_AT),
        settled("run-1", "e-2", "error", 2500, { retryable: true }),
        intent("run-1", "k", "e-3", 3, 2500 + wait(2, "e-2") - 1),
      ],
      [
        [2, "ladder-mismatch"],
        [5, "retry-too-early"],
      ],
    );
  });

  it("ladder-mismatch when the hint is longer than the ladder and was left out", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "error", 1400, {
          retryable: true,
          retryAfterMs: 5000,
          notBefore: RETRY_AT,
        }),
        intent("run-1", "k", "e-2", 2, RETRY_AT),
      ],
      [
        [2, "ladder-mismatch"],
        [3, "retry-too-early"],
      ],
    );
  });

  it("misclassified (classification): applied as the settlement it is", () => {
    const report = expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 1100, { response: { stop: "stop" }, class: "tool-use" }),
        intent("run-1", "k", "e-2", 2, 1200),
      ],
      [
        [2, "misclassified"],
        [3, "step-completed"],
      ],
    );
    expect(report.invariants.classification).toEqual({
      holds: false,
      index: 2,
      op: "run-1",
      effect: "e-1",
    });
  });
});

describe("a breaking finish is applied: the op ends with the outcome it records", () => {
  it("effects-outstanding (finality): the op is gone, its strand free", () => {
    const report = expectFindings(
      [
        ACCEPT,
        INTENT_1,
        finished("run-1", "completed", 1100),
        settled("run-1", "e-1", "ok", 1200),
        accepted("run-2", "chat-A"),
      ],
      [
        [2, "effects-outstanding"],
        [3, "operation-finished"],
      ],
    );
    expect(report.final.operations.completed).toBe(1);
    expect(report.final.steps.pending).toBe(0);
  });

  it("effects-outstanding for an unknown effect too", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        finished("run-1", "failed", 1200),
      ],
      [[3, "effects-outstanding"]],
    );
  });

  it("outcome-mismatch (finality): aborted without a cancel, completed after one", () => {
    const report = expectFindings(
      [
        ACCEPT,
        finished("run-1", "aborted", 10),
        cancelRequested("run-1", 20),
        accepted("run-2", "chat-A"),
        cancelRequested("run-2", 30),
        finished("run-2", "completed", 40),
      ],
      [
        [1, "outcome-mismatch"],
        [2, "operation-finished"],
        [5, "outcome-mismatch"],
      ],
    );
    expect(report.final.operations).toEqual({
      running: 0,
      cancelled: 0,
      completed: 1,
      failed: 0,
      aborted: 1,
    });
  });
});

describe("the order of the checks: the first that fails is the one reason", () => {
  it.each<[string, unknown[], [number, Reason][]]>([
    [
      "lifecycle before fencing",
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        finished("run-1", "failed", 1, { epoch: 5 }),
        cancelRequested("run-1", 2, { epoch: 1 }),
      ],
      [[3, "operation-finished"]],
    ],
    [
      "duplicate-operation before fencing",
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        accepted("run-1", "chat-A", { epoch: 1 }),
      ],
      [[2, "duplicate-operation"]],
    ],
    [
      "fencing before the kind's checks",
      [
        lease("chat-A", 5),
        accepted("run-1", "chat-A", { epoch: 5 }),
        cancelRequested("run-1", 1, { epoch: 5 }),
        cancelRequested("run-1", 2, { epoch: 4 }),
      ],
      [[3, "stale-epoch"]],
    ],
    [
      "effect-reused before cancelled",
      [ACCEPT, INTENT_1, cancelRequested("run-1", 1100), intent("run-1", "k2", "e-1", 1, 1200)],
      [[3, "effect-reused"]],
    ],
    [
      "cancelled before outcome-unknown",
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        cancelRequested("run-1", 1150),
        intent("run-1", "k2", "e-2", 1, 1200),
      ],
      [[4, "cancelled"]],
    ],
    [
      "outcome-unknown before the step's own checks",
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "unknown", 1100),
        intent("run-1", "k", "e-2", 2, 1200),
      ],
      [[3, "outcome-unknown"]],
    ],
    [
      "attempt-mismatch before retry-too-early",
      [ACCEPT, INTENT_1, FAIL_1, intent("run-1", "k", "e-2", 3, 1500)],
      [[3, "attempt-mismatch"]],
    ],
    [
      "settleOnce before retryLadder",
      [
        ACCEPT,
        INTENT_1,
        FAIL_1,
        settled("run-1", "e-1", "error", 1500, { retryable: true, notBefore: 1 }),
      ],
      [[3, "already-settled"]],
    ],
    [
      "retryLadder before classification",
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 1100, {
          notBefore: 1,
          response: { stop: "stop" },
          class: "error",
        }),
      ],
      [[2, "no-retry"]],
    ],
    [
      "classification before out-of-order",
      [
        ACCEPT,
        INTENT_1,
        settled("run-1", "e-1", "ok", 10, { response: { stop: "stop" }, class: "error" }),
      ],
      [[2, "misclassified"]],
    ],
    [
      "not-unknown before out-of-order",
      [ACCEPT, INTENT_1, readback("run-1", "e-1", "absent", 10)],
      [[2, "not-unknown"]],
    ],
    [
      "effects-outstanding before outcome-mismatch",
      [ACCEPT, INTENT_1, finished("run-1", "aborted", 1100)],
      [[2, "effects-outstanding"]],
    ],
  ])("%s", (_, records, expected) => {
    expectFindings(records, expected);
  });
});

describe("what is legal", () => {
  it("without a lease, epochs are not looked at", () => {
    expectFindings(
      [
        accepted("run-1", "chat-A", { epoch: 40 }),
        cancelRequested("run-1", 10, { epoch: -3 }),
        finished("run-1", "aborted", 20),
      ],
      [],
    );
  });

  it("a strand's first lease may have any epoch, also once an op runs on it", () => {
    expectFindings(
      [
        ACCEPT,
        lease("chat-A", -7),
        cancelRequested("run-1", 10, { epoch: -7 }),
        lease("chat-B", 0),
      ],
      [],
    );
  });

  it("settlements and readbacks after a cancel", () => {
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        intent("run-1", "k2", "e-2", 1, 1000),
        cancelRequested("run-1", 1100),
        settled("run-1", "e-1", "unknown", 1200),
        settled("run-1", "e-2", "error", 1200, { retryable: true }),
        readback("run-1", "e-1", "absent", 1300),
        finished("run-1", "aborted", 1400),
      ],
      [],
    );
  });

  it("a class judged with the op's control and the intent's request and output limit", () => {
    const request = { provider: "p", model: "m", api: "a" };
    expectFindings(
      [
        ACCEPT,
        intent("run-1", "k", "e-1", 1, 10, { request, outputLimit: 100 }),
        intent("run-1", "k2", "e-2", 1, 10, { request }),
        intent("run-1", "k3", "e-3", 1, 10),
        settled("run-1", "e-1", "ok", 20, {
          response: { stop: "length", outputTokens: 50 },
          class: "overflow",
        }),
        settled("run-1", "e-2", "ok", 20, {
          response: { stop: "deferred", handle: { id: "h", ...request } },
          class: "deferred-valid",
        }),
        settled("run-1", "e-3", "ok", 20, {
          response: { stop: "deferred", handle: { id: "h", ...request } },
          class: "deferred-invalid",
        }),
      ],
      [],
    );
    expectFindings(
      [
        ACCEPT,
        INTENT_1,
        cancelRequested("run-1", 1050),
        settled("run-1", "e-1", "ok", 1100, { response: { stop: "stop" }, class: "cancelled" }),
      ],
      [],
    );
  });

  it("a response without a class is not classified", () => {
    expectFindings(
      [ACCEPT, INTENT_1, settled("run-1", "e-1", "ok", 1100, { response: { stop: "pending" } })],
      [],
    );
  });

  it("a readback found absent on the last attempt fails the step", () => {
    const report = audit([
      accepted("run-1", "chat-A"),
      INTENT_1,
      settled("run-1", "e-1", "unknown", 1100),
      readback("run-1", "e-1", "absent", 1200),
    ]);
    expect(report.conformant).toBe(true);
    expect(report.final.steps).toEqual({ pending: 0, ok: 0, failed: 1, retryWait: 0, unknown: 0 });
  });
});
