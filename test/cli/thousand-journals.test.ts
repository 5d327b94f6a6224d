/**
 * Must show (issue 4): 1,000 small journals audited in one call, every verdict right. Each is a
 * generated campaign with a seeded mix of injected faults; the audit of their directory, on two
 * worker threads, must report for each exactly what was injected.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { FAULT_KINDS, type FaultKind } from "../../src/generate/dag/fault-kinds.js";
import type { FaultRequest, InjectedFault } from "../../src/generate/dag/faults.js";
import { syntheticJournal } from "../../src/generate/dag/synthetic-journal.js";
import { FaultPlacementError } from "../../src/generate/fault-placement-error.js";
import { Random } from "../../src/generate/random.js";
import type { Report } from "../../src/models/dag/report.js";
import { eventsIn, expectReportOfFaults } from "../support/fault-verdict.js";
import { statefold, tempFiles } from "./cli-process.js";

const JOURNALS = 1000;

interface Generated {
  readonly faults: readonly InjectedFault[];
  readonly events: number;
}

/** A journal with up to three kinds of fault; faults the campaign has no place for are dropped. */
function writeJournal(path: string, index: number, random: Random): Generated {
  const campaign = {
    nodes: 3 + random.below(25),
    events: 40 + random.below(400),
    seed: index,
    maxDeps: random.below(4),
    parallelism: 1 + random.below(10),
  };
  let requests: FaultRequest[] = Array.from({ length: random.below(4) }, () => {
    const kind = FAULT_KINDS[random.below(FAULT_KINDS.length)] as FaultKind;
    return { kind, count: kind === "torn-tail" ? 1 : 1 + random.below(2) };
  });
  requests = requests.filter(
    (request, at) =>
      request.kind !== "torn-tail" || requests.findIndex((r) => r.kind === "torn-tail") === at,
  );
  while (true) {
    const faults: InjectedFault[] = [];
    try {
      const text = [
        ...syntheticJournal({ campaign, faults: requests, onInjected: (f) => faults.push(f) }),
      ].join("");
      writeFileSync(path, text);
      return { faults, events: eventsIn(text) };
    } catch (error) {
      if (!(error instanceof FaultPlacementError)) throw error;
      requests = requests.slice(1);
    }
  }
}

it(`audits ${JOURNALS} journals in one call, every verdict the one injected`, async () => {
  const root = tempFiles({});
  const random = new Random(2026);
  const expected = new Map<string, Generated>();
  for (let index = 0; index < JOURNALS; index++) {
    const dir = join(root, `batch-${Math.floor(index / 100)}`);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `journal-${String(index).padStart(4, "0")}.jsonl`);
    expected.set(path, writeJournal(path, index, random));
  }
  const kinds = [...expected.values()].flatMap(({ faults }) => [
    ...new Set(faults.map((fault) => fault.kind)),
  ]);
  for (const kind of FAULT_KINDS) {
    expect(kinds.filter((k) => k === kind).length, kind).toBeGreaterThan(50);
  }
  expect([...expected.values()].filter(({ faults }) => faults.length === 0).length).toBeGreaterThan(
    100,
  );

  const run = await statefold(["audit", "--format", "ndjson", "--jobs", "2", root]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(1);
  const results = run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { file: string; report: Report });
  expect(results.map((result) => result.file)).toEqual([...expected.keys()]);
  for (const { file, report } of results) {
    const { faults, events } = expected.get(file) as Generated;
    expectReportOfFaults(report, faults, events);
  }
}, 180_000);
