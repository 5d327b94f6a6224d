import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEngine } from "../../bindings/index.js";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { audit, type Dag, dagLayers, type NodeState, replay } from "../../src/models/dag/index.js";
import { buildJournalView, linesToQuote } from "../../src/report/dag/build-journal-view.js";
import {
  type EventFinding,
  type JournalContext,
  LAYER_ROWS_MAX,
} from "../../src/report/dag/journal-view.js";
import { viewOfNodeState } from "../../src/report/dag/node-state-view.js";
import type { QuotedLine } from "../../src/report/quote-lines.js";
import { dagWithRawLogArbitrary } from "../support/arbitraries.js";
import { dagOf } from "../support/fixtures.js";

const DIAMOND = dagOf(["A"], ["B", "A"], ["C", "A"], ["D", "B", "C"]);

/** A view built with no journal file: events are quoted as JSON. */
function viewOf(dag: Dag, events: readonly unknown[]) {
  const report = audit(dag, events);
  return buildJournalView({ file: "mem", report, dag, events }, new Map(), referenceEngine);
}

function gathered(view: ReturnType<typeof viewOf>): JournalContext {
  if (!view.context.gathered) throw new Error(`context omitted: ${view.context.why}`);
  return view.context;
}

const PROVE_A = [
  { kind: "dispatched", id: "A" },
  { kind: "landed", id: "A" },
  { kind: "gate-checked", id: "A", result: "pass" },
];

describe("buildJournalView", () => {
  it("gives an unproven dispatch its rules, the events before it, and D's state around it", () => {
    const events = [...PROVE_A, { kind: "dispatched", id: "B" }, { kind: "dispatched", id: "D" }];
    const [finding] = gathered(viewOf(DIAMOND, events)).findings as EventFinding[];
    expect(finding).toMatchObject({
      kind: "event",
      index: 4,
      eventKind: "dispatched",
      node: "D",
      broken: [
        { rule: "invariant", name: "scheduleCorrect" },
        { rule: "illegal", reason: "dependencies-not-proven" },
      ],
      dependencies: [
        { id: "B", status: "dispatched" },
        { id: "C", status: "queued" },
      ],
    });
    expect(finding?.quoted.map((quoted) => quoted.index)).toEqual([1, 2, 3, 4]);
    expect(finding?.quoted[3]?.text).toBe('{"kind":"dispatched","id":"D"}');
    expect(finding?.before?.status).toBe("queued");
    expect(finding?.after?.status).toBe("dispatched");
  });

  it("shows no state after an integrity error, where the fold stops", () => {
    const events = [...PROVE_A, { kind: "discharged", id: "B", result: "pass" }];
    const context = gathered(viewOf(DIAMOND, events));
    expect(context.findings).toMatchObject([
      {
        kind: "event",
        index: 3,
        node: "B",
        broken: [{ rule: "integrity", reason: "discharge-without-deposit" }],
        before: { status: "queued" },
        after: null,
        surfaceChange: null,
      },
    ]);
    expect(context.dag.beforeIntegrityError).toBe(true);
  });

  it("names no node state for an event naming a node the DAG lacks", () => {
    const [finding] = gathered(viewOf(DIAMOND, [{ kind: "dispatched", id: "E" }])).findings;
    expect(finding).toMatchObject({ node: "E", before: null, after: null });
  });

  it("lists the paths a surface event dropped", () => {
    const events = [
      { kind: "dispatched", id: "A" },
      { kind: "surface-widened", id: "A", surface: ["a", "b"] },
      { kind: "surface-widened", id: "A", surface: ["b", "c"] },
    ];
    const [finding] = gathered(viewOf(DIAMOND, events)).findings as EventFinding[];
    expect(finding?.surfaceChange).toEqual({
      added: ["c"],
      addedTotal: 1,
      dropped: ["a"],
      droppedTotal: 1,
    });
  });

  it("draws the DAG by Kahn layers with each node's final status", () => {
    const { dag } = gathered(viewOf(DIAMOND, [...PROVE_A, { kind: "dispatched", id: "C" }]));
    expect(dag.drawn).toBe(true);
    if (!dag.drawn) return;
    expect(dag.layers.map((layer) => layer.map((node) => node.id))).toEqual(dagLayers(DIAMOND));
    expect(dag.layers.flat().map((node) => [node.id, node.status])).toEqual([
      ["A", "proven"],
      ["B", "queued"],
      ["C", "dispatched"],
      ["D", "queued"],
    ]);
    expect(dag.layers[2]?.[0]?.deps).toEqual(["B", "C"]);
  });

  it("summarises a DAG too large to draw as status counts per layer, the last row for the rest", () => {
    // A chain of 400 nodes: 400 layers of one node each.
    const chain = Array.from({ length: 400 }, (_, i) =>
      i === 0 ? (["n0"] as [string]) : ([`n${i}`, `n${i - 1}`] as [string, string]),
    );
    const { dag } = gathered(
      viewOf(
        dagOf(...chain),
        PROVE_A.map((e) => ({ ...e, id: "n0" })),
      ),
    );
    expect(dag).toMatchObject({ drawn: false, nodes: 400, layers: 400 });
    const rows = dag.drawn ? [] : dag.rows;
    expect(rows).toHaveLength(LAYER_ROWS_MAX);
    expect(rows[0]).toMatchObject({ first: 1, last: 1, counts: { proven: 1, queued: 0 } });
    expect(rows[1]).toMatchObject({ first: 2, last: 2, counts: { proven: 0, queued: 1 } });
    expect(rows.at(-1)).toMatchObject({
      first: LAYER_ROWS_MAX,
      last: 400,
      counts: { queued: 400 - LAYER_ROWS_MAX + 1 },
    });
  });

  it("quotes journal lines as written, and says so when the journal changed since the audit", () => {
    const text =
      '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"B","deps":["A"]}]}}\n' +
      '{"kind":"dispatched", "id":"B", "ts":1}\n';
    const journal = readJsonlJournal(new TextEncoder().encode(text), "j.jsonl");
    const dag = dagOfHeader(journal.header) as Dag;
    const report = audit(dag, journal.events, { lines: journal.lines });
    const quoted = new Map<number, QuotedLine>([
      [2, { text: '{"kind":"dispatched", "id":"B", "ts":1}', cut: false }],
    ]);
    expect(linesToQuote(report, journal.lines)).toEqual([2]);
    const view = buildJournalView({ file: "j", report, ...journal, dag }, quoted, referenceEngine);
    const [finding] = (view.context as JournalContext).findings as EventFinding[];
    expect(finding?.quoted).toEqual([
      { index: 0, line: 2, text: '{"kind":"dispatched", "id":"B", "ts":1}', cut: false },
    ]);

    const grown = buildJournalView(
      { file: "j", report, dag, events: [...journal.events, PROVE_A[0]] },
      quoted,
      referenceEngine,
    );
    expect(grown.context).toEqual({
      gathered: false,
      why: "The journal now holds 2 events, not the 1 audited: it changed since the audit, so only the verdicts are shown.",
    });
  });

  it("gives each node the state that replaying the whole prefix gives it (the fold is per node)", async () => {
    const wasm = await loadEngine();
    let compared = 0;
    fc.assert(
      fc.property(dagWithRawLogArbitrary(), ({ dag, events }) => {
        const view = buildJournalView(
          { file: "mem", report: audit(dag, events), dag, events },
          new Map(),
          wasm,
        );
        for (const finding of gathered(view).findings) {
          if (finding.kind !== "event" || finding.before === null) continue;
          const position = dag.positionById.get(finding.node as string) as number;
          const stateAt = (k: number) =>
            viewOfNodeState(replay(dag, events.slice(0, k)).nodes[position] as NodeState);
          expect(finding.before).toEqual(stateAt(finding.index));
          compared += 1;
          if (finding.after !== null) expect(finding.after).toEqual(stateAt(finding.index + 1));
          for (const dependency of finding.dependencies ?? []) {
            const state = replay(dag, events.slice(0, finding.index));
            const at = dag.positionById.get(dependency.id) as number;
            expect(dependency.status).toBe(state.nodes[at]?.status);
          }
        }
      }),
      { numRuns: 300 },
    );
    // Not vacuous: most generated logs break a rule at an event of a known node.
    expect(compared).toBeGreaterThan(150);
  });
});
