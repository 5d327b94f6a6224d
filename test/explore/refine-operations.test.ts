/**
 * The refinement check of an effect runtime (docs/explore.md, "Refinement of an effect
 * runtime"), against the example runtime of examples/drivers/: the honest one passes, each
 * planted defect is caught by the check the docs name with a 1-minimal schedule, counts and
 * dedup on a tiny configuration worked out by hand, and the same evidence twice.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Driver } from "../../src/explore/driver.js";
import { EFFECT_RUNTIME_DEFAULTS } from "../../src/explore/operations/defaults.js";
import {
  type EffectRuntimeConfiguration,
  failureOfSchedule,
  refineEffectRuntime,
} from "../../src/explore/operations/refine.js";
import { audit } from "../../src/models/operations/audit.js";

const RUNTIME = "node examples/drivers/effect-driver.mjs";
const drivers: Driver[] = [];
afterAll(() => {
  for (const driver of drivers) driver.close();
});

function started(command: string): Driver {
  const driver = Driver.start(command, 10_000);
  drivers.push(driver);
  return driver;
}

const DEFAULTS: EffectRuntimeConfiguration = EFFECT_RUNTIME_DEFAULTS;

describe("the honest effect runtime", () => {
  it("passes at the defaults, every kind of event reached", async () => {
    const refinement = await refineEffectRuntime(
      DEFAULTS,
      EFFECT_RUNTIME_DEFAULTS.depth,
      started(RUNTIME),
    );
    expect(refinement.finding).toBeNull();
    expect(refinement.depthReached).toBe(EFFECT_RUNTIME_DEFAULTS.depth);
    expect(refinement.distinctStates).toBeGreaterThan(500);
  });

  it("passes on a larger configuration: two strands, two steps per op", async () => {
    const larger = { ...DEFAULTS, strands: 2, keys: 2 };
    const refinement = await refineEffectRuntime(larger, 3, started(RUNTIME));
    expect(refinement.finding).toBeNull();
    expect(refinement.depthReached).toBe(3);
  });

  it("gives counts worked out by hand on a tiny configuration, a refused submit deduplicated", async () => {
    // No faults, depth 2. Level 0: submit o1 → accepted, intent, call c1 out. Level 1, from it:
    // submit o2 (refused, the strand is busy: the same world, deduplicated), and c1 answered ok,
    // error, retryable, retryable with a hint, and a cancel: five new worlds. 7 distinct, 7
    // schedules of 1 + 6 × 2 = 13 events; the benign schedule from each new world: 1 (answer
    // c1) + 0 (completed) + 0 (failed) + 2 (tick, answer) + 2 (tick, answer) + 1 (answer, then
    // aborted) = 6 events.
    const tiny = { ...DEFAULTS, faults: 0 };
    const refinement = await refineEffectRuntime(tiny, 2, started(RUNTIME));
    expect(refinement).toMatchObject({
      schedules: 7,
      environmentEvents: 19,
      distinctStates: 7,
      depthReached: 2,
      finding: null,
    });
  });

  it("gives the same evidence twice", async () => {
    const evidence = async () => {
      const { seconds: _, ...rest } = await refineEffectRuntime(DEFAULTS, 2, started(RUNTIME));
      return rest;
    };
    expect(await evidence()).toEqual(await evidence());
  });
});

describe("each planted defect", () => {
  for (const [defect, check, what, events] of [
    ["blind-retry", "journal", "uncertaintyHeld (outcome-unknown)", ["submit", "respond"]],
    ["resend-after-crash", "ledger", "ledger (executed-twice)", ["submit", "crash", "respond"]],
    ["unfenced", "journal", "fencing (stale-epoch)", ["submit", "takeover"]],
    ["hint-ignored", "journal", "retryLadder (ladder-mismatch)", ["submit", "respond"]],
    ["forgets-retry-waits", "progress", "progress (no-progress)", ["submit", "respond", "crash"]],
  ] as const) {
    it(`${defect} is caught at the defaults by the ${check} check, with a 1-minimal schedule`, async () => {
      const driver = started(`${RUNTIME} --defect ${defect}`);
      const { finding } = await refineEffectRuntime(
        DEFAULTS,
        EFFECT_RUNTIME_DEFAULTS.depth,
        driver,
      );
      expect(finding).toMatchObject({ check, what });
      const schedule = finding?.schedule ?? [];
      expect(schedule.map((event) => Object.keys(event)[0])).toEqual(events);
      // The schedule replayed shows the failure; with any one event removed it does not.
      const progress = check === "progress";
      const replayed = (events: typeof schedule) =>
        failureOfSchedule(DEFAULTS, driver, events, progress);
      expect((await replayed(schedule))?.what).toBe(what);
      for (const [i] of schedule.entries()) {
        const fewer = schedule.filter((_, j) => j !== i);
        expect((await replayed(fewer))?.what, `without event ${i + 1}`).not.toBe(what);
      }
    });
  }

  it("resend-after-crash leaves a journal strictly conformant: only the ledger sees it", async () => {
    const driver = started(`${RUNTIME} --defect resend-after-crash`);
    const { finding } = await refineEffectRuntime(DEFAULTS, 3, driver);
    expect(finding?.check).toBe("ledger");
    expect(audit(finding?.journal ?? []).strictlyConformant).toBe(true);
  });
});
