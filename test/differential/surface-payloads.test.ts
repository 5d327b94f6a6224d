/**
 * Surface payloads that are missing, null or malformed, in every position — on a fresh node, after
 * a valid surface, after a malformed one, on a terminal node — with the verdict the model gives
 * (docs/models/dag.md, "Surfaces"): a missing or null payload is the empty list; a malformed stored
 * surface is compared as stored, so no payload keeps it. Each case is checked on the reference, on
 * both WASM builds (JSONL bytes, whole and byte by byte, and the object API, snapshot and resume
 * at every line), and on the plain-JavaScript auditor of bench/.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { JsAuditor } from "../../bench/dag/js-auditor/index.js";
import type { WasmEngine } from "../../bindings/index.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { IllegalityReason, Report } from "../../src/models/dag/index.js";
import { dagWithRawLogArbitrary } from "../support/arbitraries.js";
import { encode } from "../support/bytes.js";
import { loadFlavours } from "../support/engines.js";
import { dagOf } from "../support/fixtures.js";
import { chunked } from "../support/jsonl-encoding.js";

let engines: readonly WasmEngine[];
beforeAll(async () => {
  engines = await loadFlavours();
});

const dag = dagOf(["A"]);

interface Case {
  readonly name: string;
  /** Journal lines after `{"kind":"dispatched","id":"A"}` (line 1). */
  readonly lines: readonly string[];
  /** The reason of each illegal line, by 1-based line number. */
  readonly illegal: Readonly<Record<number, IllegalityReason>>;
  /** The line where surfaceMonotonic first fails, or null when it holds. */
  readonly surfaceMonotonicLine: number | null;
}

const widen = (surface?: string) =>
  surface === undefined
    ? '{"kind":"surface-widened","id":"A"}'
    : `{"kind":"surface-widened","id":"A","surface":${surface}}`;

const CASES: readonly Case[] = [
  {
    name: "a missing payload on a fresh node is legal",
    lines: [widen()],
    illegal: {},
    surfaceMonotonicLine: null,
  },
  {
    name: "a null payload on a fresh node is legal",
    lines: [widen("null")],
    illegal: {},
    surfaceMonotonicLine: null,
  },
  {
    name: "a missing payload after a valid surface shrinks it",
    lines: [widen('["src/a.ts"]'), widen()],
    illegal: { 3: "surface-shrinks" },
    surfaceMonotonicLine: 3,
  },
  {
    name: "a null payload after a valid surface shrinks it",
    lines: [widen('["src/a.ts"]'), widen("null")],
    illegal: { 3: "surface-shrinks" },
    surfaceMonotonicLine: 3,
  },
  {
    name: "a missing payload empties the surface, so a widening after it is legal",
    lines: [widen(), widen('["src/a.ts"]'), widen('["src/a.ts","src/b.ts"]')],
    illegal: {},
    surfaceMonotonicLine: null,
  },
  {
    name: "after a shrinking null payload the surface is empty, and the next widening is legal",
    lines: [widen('["src/a.ts"]'), widen("null"), widen('["src/b.ts"]')],
    illegal: { 3: "surface-shrinks" },
    surfaceMonotonicLine: 3,
  },
  {
    name: "a mixed array, then the empty list: the malformed surface is not empty",
    lines: [widen('["x",3]'), widen("[]")],
    illegal: { 2: "invalid-surface", 3: "surface-shrinks" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "a mixed array, then its own strings: still not a superset",
    lines: [widen('["x",3]'), widen('["x"]'), widen('["x","y"]')],
    illegal: { 2: "invalid-surface", 3: "surface-shrinks" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "a bare string, then an array holding it",
    lines: [widen('"src/a.ts"'), widen('["src/a.ts"]')],
    illegal: { 2: "invalid-surface", 3: "surface-shrinks" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "a malformed surface, then a missing and a null payload",
    lines: [widen('{"paths":["a"]}'), widen(), widen("null")],
    illegal: { 2: "invalid-surface", 3: "surface-shrinks" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "a malformed surface, then another malformed payload",
    lines: [widen("7"), widen('["y",false]')],
    illegal: { 2: "invalid-surface", 3: "invalid-surface" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "a malformed surface, then a valid one, then a superset of it: legal again",
    lines: [widen("true"), widen('["a"]'), widen('["a","b"]')],
    illegal: { 2: "invalid-surface", 3: "surface-shrinks" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "a malformed surface on a node that then turns terminal",
    lines: [widen('["x",3]'), '{"kind":"skipped","id":"A"}', widen("[]"), widen()],
    illegal: { 2: "invalid-surface", 4: "already-terminal", 5: "already-terminal" },
    surfaceMonotonicLine: 2,
  },
  {
    name: "missing and null payloads on a terminal node",
    lines: ['{"kind":"escalated","id":"A"}', widen(), widen("null")],
    illegal: { 3: "already-terminal", 4: "already-terminal" },
    surfaceMonotonicLine: null,
  },
];

function journalOf(testCase: Case): Uint8Array {
  return encode(`${['{"kind":"dispatched","id":"A"}', ...testCase.lines].join("\n")}\n`);
}

function expectVerdict(report: Report, testCase: Case, engine: string): void {
  const reasons = Object.fromEntries(
    report.legality.first.map((entry) => [entry.line ?? entry.index + 1, entry.reason]),
  );
  expect(reasons, engine).toEqual(testCase.illegal);
  const surfaceMonotonic = report.invariants.surfaceMonotonic;
  const line = surfaceMonotonic.holds
    ? null
    : (surfaceMonotonic.line ?? surfaceMonotonic.index + 1);
  expect(line, engine).toBe(testCase.surfaceMonotonicLine);
}

describe("surface payloads that are missing, null or malformed", () => {
  it.each(CASES)("$name", async (testCase) => {
    const bytes = journalOf(testCase);
    const expected = await referenceEngine.auditBytes(dag, bytes);
    expectVerdict(expected, testCase, "reference");
    expect(await new JsAuditor().auditBytes(dag, bytes), "plain-JS auditor").toEqual(expected);
    const events = new TextDecoder()
      .decode(bytes)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    const fromObjects = referenceEngine.audit(dag, events);
    expectVerdict(fromObjects, testCase, "reference, object API");
    for (const engine of engines) {
      expect(await engine.auditBytes(dag, bytes), engine.flavour).toEqual(expected);
      expect(
        await engine.auditBytes(dag, chunked(bytes, { sizes: [1], feed: "reused-buffer" })),
        `${engine.flavour} byte by byte`,
      ).toEqual(expected);
      expect(engine.audit(dag, events), `${engine.flavour} object API`).toEqual(fromObjects);
      expect(engine.replay(dag, events), `${engine.flavour} replay`).toEqual(
        referenceEngine.replay(dag, events),
      );
    }
  });

  it.each(CASES)("$name — the same after a snapshot at every line", async (testCase) => {
    const bytes = journalOf(testCase);
    const expected = await referenceEngine.auditBytes(dag, bytes);
    const lineEnds = [...bytes.keys()].filter((at) => bytes[at] === 0x0a).map((at) => at + 1);
    for (const engine of engines) {
      for (const end of lineEnds) {
        const auditor = engine.openAuditor(dag, { snapshots: true });
        auditor.write(bytes.subarray(0, end));
        const resumed = await engine.resume(auditor.snapshot(), bytes, dag);
        expect(resumed.finish(), `${engine.flavour} resumed after byte ${end}`).toEqual(expected);
      }
    }
  });
});

describe("the raw logs the differential tests draw", () => {
  it("widen surfaces again after missing, null and malformed payloads, in a good share of logs", () => {
    const kinds = { missing: 0, null: 0, malformed: 0 };
    const logs = fc.sample(dagWithRawLogArbitrary(), { numRuns: 400, seed: 7 });
    for (const { events } of logs) {
      const pending = new Map<string, keyof typeof kinds>();
      const seen = new Set<keyof typeof kinds>();
      for (const event of events) {
        if (typeof event !== "object" || event === null) continue;
        const { kind, id, surface } = event as Record<string, unknown>;
        if (kind !== "surface-widened" || typeof id !== "string") continue;
        const earlier = pending.get(id);
        if (earlier !== undefined) seen.add(earlier);
        if (!("surface" in (event as object))) pending.set(id, "missing");
        else if (surface === null) pending.set(id, "null");
        else if (!Array.isArray(surface) || surface.some((path) => typeof path !== "string")) {
          pending.set(id, "malformed");
        } else pending.delete(id);
      }
      for (const kind of seen) kinds[kind] += 1;
    }
    for (const [kind, count] of Object.entries(kinds)) {
      expect(count / logs.length, `logs with a widening after a ${kind} payload`).toBeGreaterThan(
        0.05,
      );
    }
  });
});
