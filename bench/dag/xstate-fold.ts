/**
 * What a TypeScript user would otherwise pick: the node lifecycle as an XState machine, one actor
 * per DAG node, fed the events of `JSON.parse`d lines. It folds only — no integrity checks beyond
 * a known node, no legality, no invariants — so it does a small part of an audit's work.
 *
 * The transitions are the fold's (src/models/dag/fold.ts), written at the machine's root so that they
 * apply in every state: the model's fold applies an illegal event too (a machine that ignored
 * events its state does not expect would fold a different history). Its final counts are checked
 * against the auditors' in every benchmark run.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { type AnyActorRef, assign, createActor, setup } from "xstate";
import { STATUSES, type Status } from "../../src/models/dag/state.js";

interface Deposit {
  readonly validation: "pending" | "proven" | "failed";
  readonly mode: "gated" | "degraded";
  readonly phase: number;
}

interface NodeContext {
  readonly phase: number;
  readonly deposit: Deposit | null;
  readonly surface: unknown;
}

type NodeEvent =
  | { type: "dispatched" | "landed" | "quarantined" | "skipped" | "escalated" }
  | { type: "gate-checked" | "discharged"; result?: unknown }
  | { type: "surface-widened"; surface?: unknown };

const passed = (event: NodeEvent) => "result" in event && event.result === "pass";

const nodeLifecycle = setup({
  types: { context: {} as NodeContext, events: {} as NodeEvent },
  guards: { passed: ({ event }) => passed(event) },
  actions: {
    land: assign({
      deposit: ({ context }) => ({ validation: "pending", mode: "gated", phase: context.phase }),
    }),
    gateCheck: assign(({ context, event }) => {
      const phase = context.phase + 1;
      const validation = passed(event) ? "proven" : "failed";
      return { phase, deposit: { validation, mode: "gated", phase } };
    }),
    quarantine: assign(({ context }) => {
      const phase = context.phase + 1;
      return { phase, deposit: { validation: "pending", mode: "degraded", phase } };
    }),
    discharge: assign(({ context, event }) => {
      const phase = context.phase + 1;
      const mode = context.deposit?.mode ?? "gated";
      return { phase, deposit: { validation: passed(event) ? "proven" : "failed", mode, phase } };
    }),
    widen: assign({
      surface: ({ event }) => ("surface" in event ? (event.surface ?? []) : []),
    }),
  },
}).createMachine({
  id: "node",
  initial: "queued",
  context: { phase: 0, deposit: null, surface: [] },
  states: {
    queued: {},
    dispatched: {},
    landed: {},
    proven: {},
    quarantined: {},
    rework: {},
    skipped: {},
    escalated: {},
  },
  on: {
    dispatched: ".dispatched",
    landed: { target: ".landed", actions: "land" },
    "gate-checked": [
      { guard: "passed", target: ".proven", actions: "gateCheck" },
      { target: ".rework", actions: "gateCheck" },
    ],
    quarantined: { target: ".quarantined", actions: "quarantine" },
    discharged: [
      { guard: "passed", target: ".proven", actions: "discharge" },
      { target: ".rework", actions: "discharge" },
    ],
    skipped: ".skipped",
    escalated: ".escalated",
    "surface-widened": { actions: "widen" },
  },
});

interface ParsedEvent {
  readonly kind: NodeEvent["type"];
  readonly id: string;
  readonly result?: unknown;
  readonly surface?: unknown;
}

/** Folds a JSONL journal whose first line is its header; returns the final status counts. */
export async function xstateFold(path: string): Promise<Record<Status, number>> {
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  let actors: Map<string, AnyActorRef> | null = null;
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.length === 0) continue;
    if (actors === null) {
      actors = startActors(JSON.parse(line) as { dag: { nodes: { id: string }[] } });
      continue;
    }
    const event = JSON.parse(line) as ParsedEvent;
    const actor = actors.get(event.id);
    if (actor === undefined) throw new Error(`no node ${JSON.stringify(event.id)} in the DAG`);
    actor.send({ type: event.kind, result: event.result, surface: event.surface });
  }
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<
    Status,
    number
  >;
  for (const actor of actors?.values() ?? []) {
    counts[actor.getSnapshot().value as Status] += 1;
    actor.stop();
  }
  return counts;
}

function startActors(header: { dag: { nodes: { id: string }[] } }): Map<string, AnyActorRef> {
  const actors = new Map<string, AnyActorRef>();
  for (const node of header.dag.nodes) actors.set(node.id, createActor(nodeLifecycle).start());
  return actors;
}
