/**
 * Flat memory (README, "How it is built": O(nodes + distinct surface paths), independent of journal length): once
 * a journal has warmed a fresh engine, a journal ten times longer over the same DAG and the same
 * surface paths leaves the kernel's memory exactly as large, through auditBytes and through audit.
 * And a line longer than the kernel's initial 1 MiB line buffer, fed in small chunks, still audits
 * as the reference says.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type KernelFlavour, loadEngine, type WasmEngine } from "../../bindings/index.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import {
  type Dag,
  initialState,
  LogIntegrityError,
  loggedEvents,
  type ModelState,
  transitionEvent,
} from "../../src/models/dag/index.js";
import {
  dagArbitrary,
  happyPathOpsArbitrary,
  SURFACE_PATHS,
  wellFormedEventArbitrary,
} from "../support/arbitraries.js";
import { encode } from "../support/bytes.js";
import { FLAVOURS } from "../support/engines.js";
import { dagOf } from "../support/fixtures.js";
import {
  ByteSink,
  chunked,
  type EncodingStyle,
  encodeJournal,
  encodingStyleArbitrary,
  PLAIN_STYLE,
} from "../support/jsonl-encoding.js";
import { runOps } from "../support/run-ops.js";

const MiB = 2 ** 20;

/** The log without the events the fold would stop at, so every event of a long log is audited. */
function withoutFaults(dag: Dag, events: readonly unknown[]): unknown[] {
  let state: ModelState = initialState(dag);
  const kept: unknown[] = [];
  for (const event of events) {
    try {
      state = transitionEvent(state, event);
      kept.push(event);
    } catch (error) {
      if (!(error instanceof LogIntegrityError)) throw error;
    }
  }
  return kept;
}

function journalBytes(dag: Dag, events: readonly unknown[], style: EncodingStyle): Uint8Array {
  return encodeJournal(dag, events, style, { header: false, bom: false, tail: "terminated" });
}

/** A legal run (300–500 calls, about a quarter accepted) with illegal but well-formed events spliced in. */
function logPieceArbitrary(dag: Dag): fc.Arbitrary<unknown[]> {
  return fc
    .tuple(
      happyPathOpsArbitrary(dag, { minLength: 300, maxLength: 500 }),
      fc.array(fc.tuple(fc.nat(), wellFormedEventArbitrary(dag)), { maxLength: 20 }),
    )
    .map(([ops, insertions]) => {
      const log: unknown[] = loggedEvents(runOps(dag, ops).final);
      for (const [at, event] of insertions) log.splice(at % (log.length + 1), 0, event);
      return log;
    });
}

/**
 * A short log (hundreds of events) naming every path of the shared pool, and a log at least ten
 * times longer that starts with it and goes on with fresh events over the same DAG and pool; neither
 * has a fault, so the fold runs to the end. Thousands of events: even a few bytes kept per event
 * would cross a 64 KiB page.
 */
const shortAndLongLogArbitrary = dagArbitrary().chain((dag) =>
  fc
    .tuple(
      fc.array(logPieceArbitrary(dag), { minLength: 3, maxLength: 3 }),
      fc.array(logPieceArbitrary(dag), { minLength: 30, maxLength: 30 }),
    )
    .map(([first, more]) => {
      const allPaths = { kind: "surface-widened", id: dag.nodes[0]?.id, surface: SURFACE_PATHS };
      const short = withoutFaults(dag, [allPaths, ...first.flat()]);
      let long = withoutFaults(dag, [...short, ...more.flat()]);
      while (long.length < 10 * short.length) long = [...long, ...short];
      return { dag, short, long };
    }),
);

/** A failing memory case is reported as found: shrinking thousands of events takes minutes. */
const MEMORY_CASES_ARE_TOO_BIG_TO_SHRINK = true;

async function freshEngine(flavour: KernelFlavour): Promise<WasmEngine> {
  return loadEngine({ flavour });
}

describe("kernel memory", () => {
  it("stays flat for a journal ten times longer (auditBytes, both builds)", async () => {
    await fc.assert(
      fc.asyncProperty(shortAndLongLogArbitrary, encodingStyleArbitrary, async (logs, style) => {
        const { dag, short, long } = logs;
        const shortBytes = journalBytes(dag, short, style);
        const longBytes = journalBytes(dag, long, style);
        const expected = await referenceEngine.auditBytes(dag, longBytes);
        expect(expected.integrity).toBeNull();
        for (const flavour of FLAVOURS) {
          const engine = await freshEngine(flavour);
          await engine.auditBytes(dag, shortBytes);
          const warmed = engine.memoryBytes();
          expect(await engine.auditBytes(dag, longBytes)).toEqual(expected);
          expect(engine.memoryBytes(), flavour).toBe(warmed);
        }
      }),
      { numRuns: 12, endOnFailure: MEMORY_CASES_ARE_TOO_BIG_TO_SHRINK },
    );
  });

  it("stays flat for a log ten times longer (audit, both builds)", async () => {
    await fc.assert(
      fc.asyncProperty(shortAndLongLogArbitrary, async ({ dag, short, long }) => {
        const expected = referenceEngine.audit(dag, long);
        for (const flavour of FLAVOURS) {
          const engine = await freshEngine(flavour);
          engine.audit(dag, short);
          const warmed = engine.memoryBytes();
          expect(engine.audit(dag, long)).toEqual(expected);
          expect(engine.memoryBytes(), flavour).toBe(warmed);
        }
      }),
      { numRuns: 12, endOnFailure: MEMORY_CASES_ARE_TOO_BIG_TO_SHRINK },
    );
  });

  it("stays flat over thousands of distinct paths once a journal has grown the tables", async () => {
    // Surfaces grow to 3000 distinct paths: the path table, path bytes, payload list and surface
    // arena all grow during the first journal; the same journal ten times over grows nothing.
    const dag = dagOf(["A"], ["B", "A"], ["C"]);
    const paths = Array.from({ length: 3000 }, (_, i) => `src/module-${i}/file-${i % 7}.ts`);
    const events: unknown[] = [];
    for (let size = 100; size <= paths.length; size += 100) {
      events.push({ kind: "surface-widened", id: "A", surface: paths.slice(0, size) });
      events.push({ kind: "surface-widened", id: "C", surface: paths.slice(paths.length - size) });
    }
    events.push({ kind: "dispatched", id: "A" }, { kind: "landed", id: "A" });
    const short = journalBytes(dag, events, PLAIN_STYLE);
    const sink = new ByteSink();
    for (let i = 0; i < 10; i++) sink.push(short);
    const long = sink.bytes();
    const expected = await referenceEngine.auditBytes(dag, long);
    expect(expected.legality.illegal).toBeGreaterThan(0); // each repetition starts by shrinking
    const repeatedEvents = Array.from({ length: 10 }, () => events).flat();
    const expectedObjects = referenceEngine.audit(dag, repeatedEvents);
    for (const flavour of FLAVOURS) {
      const engine = await freshEngine(flavour);
      const initial = engine.memoryBytes();
      await engine.auditBytes(dag, short);
      const warmed = engine.memoryBytes();
      expect(warmed).toBeGreaterThan(initial);
      expect(await engine.auditBytes(dag, long)).toEqual(expected);
      expect(engine.memoryBytes(), flavour).toBe(warmed);

      const objects = await freshEngine(flavour);
      objects.audit(dag, events);
      const objectsWarmed = objects.memoryBytes();
      expect(objects.audit(dag, repeatedEvents)).toEqual(expectedObjects);
      expect(objects.memoryBytes(), flavour).toBe(objectsWarmed);
    }
  });
});

describe("kernel memory as tables double", () => {
  it("reuses the blocks that doubling tables leave behind (both builds)", async () => {
    // 300 000 distinct paths, 3 000 per node: the path table, its bytes and the surface arena
    // double over and over. The copies each doubling leaves would add as much again as the live
    // tables (50 MiB grown here); cut into by the reservations after them, the kernel grows by
    // less than twice what it keeps.
    const nodeCount = 100;
    const pathsPerNode = 3000;
    const dag = dagOf(...Array.from({ length: nodeCount }, (_, node): [string] => [`n${node}`]));
    const events: unknown[] = [];
    let pathBytes = 0;
    for (let node = 0; node < nodeCount; node++) {
      const surface: string[] = [];
      for (let k = 0; k < pathsPerNode; k++) {
        const path = `src/n${node}/part-${k}.ts`;
        surface.push(path);
        pathBytes += path.length;
        if (k % 500 === 499)
          events.push({ kind: "surface-widened", id: `n${node}`, surface: [...surface] });
      }
    }
    const pathCount = nodeCount * pathsPerNode;
    let tableCapacity = 256;
    while (tableCapacity < pathCount) tableCapacity *= 2;
    // Per path slot: its table entry and tag (two slots per path), start and mark; per path held:
    // its id in a surface block that may be twice its length.
    const kept = pathBytes + 24 * tableCapacity + 8 * pathCount;
    const bytes = journalBytes(dag, events, PLAIN_STYLE);
    for (const flavour of FLAVOURS) {
      const engine = await freshEngine(flavour);
      const initial = engine.memoryBytes();
      const report = await engine.auditBytes(dag, bytes);
      expect(report.conformant, flavour).toBe(true);
      expect(engine.memoryBytes() - initial, flavour).toBeLessThan(2 * kept);
    }
  });
});

describe("lines longer than the initial line buffer", () => {
  const dag = dagOf(["A"], ["B", "A"]);
  const blob = (bytes: number) => "x".repeat(bytes);
  const threeMB = 3 * MiB;
  const nested = 1_500_000;
  const cases: Record<string, Uint8Array> = {
    "a 3 MB extra string field": encode(
      `{"kind":"dispatched","id":"A","blob":"${blob(threeMB)}"}\n{"kind":"landed","id":"A"}\n`,
    ),
    "a 3 MB line with non-ASCII text and an invalid byte at its very end": (() => {
      const sink = new ByteSink();
      sink.push(encode(`{"kind":"dispatched","id":"A","blob":"é${blob(threeMB)}`));
      sink.push([0xff]);
      sink.push(encode(`"}\n{"kind":"landed","id":"A"}\n`));
      return sink.bytes();
    })(),
    "a 3 MB line that turns out not to be JSON at its end": encode(
      `{"kind":"dispatched","id":"A","blob":"${blob(threeMB)}",}\n{"kind":"landed","id":"A"}\n`,
    ),
    "a surface of 150 000 paths on one line": encode(
      `${JSON.stringify({
        kind: "surface-widened",
        id: "A",
        surface: Array.from({ length: 150_000 }, (_, i) => `p/${i}`),
      })}\n{"kind":"surface-widened","id":"A","surface":["p/1"]}\n`,
    ),
    // Not the first line: the bindings parse the first line on the host to look for a header.
    "1.5 million nested arrays in an extra field": encode(
      `{"kind":"skipped","id":"B"}\n{"kind":"dispatched","x":${"[".repeat(nested)}${"]".repeat(nested)},"id":"A"}\n`,
    ),
    "a 3 MB torn tail": encode(
      `{"kind":"dispatched","id":"A"}\n{"kind":"landed","blob":"${blob(threeMB)}`,
    ),
    "a 3 MB unterminated final line that parses": encode(
      `{"kind":"dispatched","id":"A"}\n{"kind":"landed","id":"A","blob":"${blob(threeMB)}"}`,
    ),
  };

  for (const [name, bytes] of Object.entries(cases)) {
    it(`audits ${name} as the reference does, fed in small chunks (both builds)`, async () => {
      const expected = await referenceEngine.auditBytes(dag, bytes);
      for (const flavour of FLAVOURS) {
        const engine = await freshEngine(flavour);
        const chunks = chunked(bytes, {
          sizes: [4096, 1, 65_537, 333],
          feed: "async-reused-buffer",
        });
        expect(await engine.auditBytes(dag, chunks), flavour).toEqual(expected);
        const grown = engine.memoryBytes();
        expect(grown).toBeGreaterThan(bytes.length); // the line buffer grew to hold the line
        expect(grown).toBeLessThan(64 * MiB);
        // The same journal again reuses the memory the first audit grew.
        expect(await engine.auditBytes(dag, bytes), flavour).toEqual(expected);
        expect(engine.memoryBytes(), flavour).toBe(grown);
      }
    });
  }
});
