/**
 * Exploring the operations model (docs/explore.md, "The operations model"): counts on a tiny
 * configuration against counts worked out by hand, nothing found against the reference with
 * both engines agreeing, determinism, the commits the exploration reaches, the state
 * invariants on a fold that applies a breach, the effect faults on journals worked out by hand,
 * and shrinking.
 */
import { describe, expect, it } from "vitest";
import { loadEngine } from "../../bindings/index.js";
import { explore } from "../../src/explore/explore.js";
import { emptySensitivity } from "../../src/explore/faults.js";
import { shrinkFailure } from "../../src/explore/operations/counterexample.js";
import { OPERATIONS_DEFAULTS } from "../../src/explore/operations/defaults.js";
import { injectOperationsFaults, OPERATIONS_FAULTS } from "../../src/explore/operations/faults.js";
import { STATE_INVARIANTS } from "../../src/explore/operations/invariants.js";
import { operationsSubject, recordsOf } from "../../src/explore/operations/subject.js";
import { foldRecord } from "../../src/models/operations/fold.js";
import { readRecord } from "../../src/models/operations/read-record.js";
import { initialState, type OperationsState } from "../../src/models/operations/state.js";

const ONE_ATTEMPT = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 };
const TINY = { strands: 1, ops: 1, keys: 1, attempts: 1, leases: 0, policy: ONE_ATTEMPT };

function folded(records: readonly Record<string, unknown>[]): OperationsState {
  let state = initialState();
  for (const record of records) {
    const read = readRecord(record);
    if (!read.ok) throw new Error(`malformed ${JSON.stringify(record)}`);
    state = foldRecord(state, read.record).state;
  }
  return state;
}

describe("explore on the operations model", () => {
  it("counts one strand, one op of one step, one attempt, depth 3 as worked out by hand", () => {
    // Depth 1: the op accepted. Depth 2: an intent, a cancel, a finish completed or failed
    // (aborted needs a cancel): 4 new. Depth 3, from the pending intent: ok, a final error, a
    // retryable error with and without a hint (no attempts left, so the same state as the final
    // error), unknown, cancel — 6 transitions, 4 new; from the cancelled op: only the aborted
    // finish; the finished ops take nothing. 1 + 1 + 4 + 5 = 11 states, 1 + 4 + 7 transitions.
    const result = explore(operationsSubject(TINY), 3);
    expect(result).toMatchObject({
      initialStates: 1,
      states: 13,
      distinctStates: 11,
      transitions: 12,
      depthReached: 3,
      findings: [],
    });
  });

  it("finds nothing at the default bound, both engines agreeing, and explores the same twice", async () => {
    const wasm = await loadEngine({ model: "operations" });
    const kinds = new Set<string>();
    const result = explore(
      operationsSubject(OPERATIONS_DEFAULTS, wasm),
      OPERATIONS_DEFAULTS.depth,
      {
        onDistinct: (state) => {
          for (const record of recordsOf(state)) {
            const { kind, attempt, outcome, found, retryAfterMs } = record as Record<
              string,
              unknown
            >;
            const retry = attempt === 2 ? "retry" : "";
            const hint = retryAfterMs === undefined ? "" : "hint";
            kinds.add([kind, retry, outcome, found, hint].filter(Boolean).join(" "));
          }
        },
      },
    );
    expect(result.findings).toEqual([]);
    expect(result.depthReached).toBe(OPERATIONS_DEFAULTS.depth);
    // Not vacuous: retries, lost answers read back both ways, hints, cancels, aborts, leases.
    for (const reached of [
      "intent retry",
      "settled unknown",
      "readback committed",
      "readback absent",
      "settled error hint",
      "cancel-requested",
      "finished aborted",
      "lease",
    ]) {
      expect(kinds, reached).toContain(reached);
    }
    const again = explore(operationsSubject(OPERATIONS_DEFAULTS), OPERATIONS_DEFAULTS.depth);
    expect({ ...again, seconds: 0 }).toEqual({ ...result, seconds: 0 });
  });

  it("holds the fold to the state's shape: a breach it applies shows", () => {
    const policy = ONE_ATTEMPT;
    const busy = folded([
      { kind: "accepted", op: "o1", strand: "s1", policy },
      { kind: "accepted", op: "o2", strand: "s1", policy },
    ]);
    // The second accept broke strand-busy, and the fold applied what the runtime did.
    expect(STATE_INVARIANTS.oneOpAtATime?.(initialState(), busy)).toBe("o1");
    const leased = folded([{ kind: "lease", strand: "s1", epoch: 2 }]);
    const lower = folded([{ kind: "lease", strand: "s1", epoch: 1 }]);
    expect(STATE_INVARIANTS.epochsRise?.(leased, lower)).toBe("s1");
    expect(STATE_INVARIANTS.epochsRise?.(lower, leased)).toBeNull();
  });

  it("tallies the effect faults of one-attempt journals as worked out by hand", () => {
    // Of the 11 journals, two settle an effect (ok, a final error): each lost answer leaves an
    // unknown effect the journal never finishes with — a journal the model allows; read back,
    // it is as good. No journal has a lease or a retry.
    const sensitivity = emptySensitivity(OPERATIONS_FAULTS);
    explore(operationsSubject(TINY), 3, {
      onDistinct: (state) => injectOperationsFaults(sensitivity, recordsOf(state), TINY.keys),
    });
    const { faults } = sensitivity;
    expect(faults["lost-response"]).toMatchObject({ made: 2, caught: 0, masked: 2 });
    expect(faults["lost-response"].smallestMasked).toMatchObject([
      { kind: "accepted" },
      { kind: "intent" },
      { kind: "settled", outcome: "unknown" },
    ]);
    expect(faults["lost-response-read-back"]).toMatchObject({ made: 2, caught: 0, masked: 2 });
    expect(faults["stale-owner"].made).toBe(0);
    expect(faults["conflicting-retry"].made).toBe(0);
    expect(faults.duplicate.made).toBe(faults.lost.made);
  });

  it("catches a stale owner by fencing, and masks a retry restarted under a fresh key", () => {
    const sensitivity = emptySensitivity(OPERATIONS_FAULTS);
    const policy = { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 1000 };
    injectOperationsFaults(
      sensitivity,
      [
        { kind: "accepted", op: "o1", strand: "s1", policy },
        { kind: "intent", op: "o1", key: "k1", effect: "e1", attempt: 1, at: 0 },
        { kind: "settled", op: "o1", effect: "e1", outcome: "error", retryable: true, at: 0 },
        { kind: "lease", strand: "s1", epoch: 1 },
        { kind: "intent", op: "o1", key: "k1", effect: "e2", attempt: 2, at: 5000, epoch: 1 },
      ],
      1,
    );
    const { faults } = sensitivity;
    // The retry re-stamped without an epoch; and the failure's settlement landing after the lease
    // without one, which proves nothing and so is not applied: the retry then finds its step
    // still in flight.
    expect(faults["stale-owner"]).toMatchObject({ made: 2, caught: 2 });
    expect(faults["stale-owner"].byRule).toEqual({
      "fencing (epoch-mismatch)": 2,
      "exactlyOnce (step-in-flight)": 1,
    });
    // Attempt 1 of a new key is a fresh step to the model: it cannot tell it is the same work.
    expect(faults["conflicting-retry"]).toMatchObject({ made: 1, caught: 0, masked: 1 });
  });

  it("shrinks a finding to the records that cause it", async () => {
    const policy = ONE_ATTEMPT;
    const journal = await shrinkFailure([
      { kind: "lease", strand: "s2", epoch: 1 },
      { kind: "accepted", op: "o1", strand: "s1", policy },
      { kind: "cancel-requested", op: "o1", at: 0 },
      { kind: "accepted", op: "o2", strand: "s1", policy },
      { kind: "finished", op: "o1", outcome: "aborted", at: 0 },
    ]);
    expect(journal).toEqual([
      { kind: "accepted", op: "o1", strand: "s1", policy },
      { kind: "accepted", op: "o2", strand: "s1", policy },
    ]);
  });
});
