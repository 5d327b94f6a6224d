/**
 * The refinement check of an executive host (docs/explore.md, "Refinement of an executive"),
 * against the example host of examples/drivers/: the honest one passes at the default bound,
 * restarts included; the one that restores its last checkpoint's snapshot is caught with the
 * shortest actions that show it.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Driver } from "../../src/explore/driver.js";
import { EXECUTIVE_DEFAULTS, EXECUTIVE_HOST_DEPTH } from "../../src/explore/executive/defaults.js";
import { refineExecutive } from "../../src/explore/executive/refine.js";
import { runOf } from "../../src/explore/executive/subject.js";

const HOST = "node examples/drivers/executive-driver.mjs";
const RUN = runOf(EXECUTIVE_DEFAULTS.spec, EXECUTIVE_DEFAULTS.budget);
const drivers: Driver[] = [];
afterAll(() => {
  for (const driver of drivers) driver.close();
});

function started(command: string): Driver {
  const driver = Driver.start(command, 10_000);
  drivers.push(driver);
  return driver;
}

describe("the executive host", () => {
  it("passes at the default bound, a restart explored from every state", async () => {
    const refinement = await refineExecutive(RUN, EXECUTIVE_HOST_DEPTH, started(HOST));
    expect(refinement.divergence).toBeNull();
    expect(refinement.distinctStates).toBeGreaterThan(100);
  });

  it("with its planted defect — a restart restores the last checkpoint — is caught, shrunk", async () => {
    const { divergence } = await refineExecutive(
      RUN,
      EXECUTIVE_HOST_DEPTH,
      started(`${HOST} --with-defect`),
    );
    expect(divergence).toMatchObject({
      actions: [
        { observation: { tag: "start", now: 0 } },
        { restart: true },
        { observation: { tag: "start", now: 0 } },
      ],
      expected: {
        journal: [
          {
            observation: { tag: "start", now: 0 },
            decision: { tag: "reject", reason: "already-started" },
          },
        ],
      },
      why: "the host journaled another decision than the machine's",
    });
  });
});
