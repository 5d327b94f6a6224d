/**
 * Worker entry (bundled by test/support/watchdog.ts): audits journals with both builds of the WASM
 * engine, off the test's thread, so the test can stop a kernel that does not finish. Each request
 * is a journal and a chunking; the answer is each build's outcome, whole and chunked.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadEngine } from "../../bindings/index.js";
import { type DagNode, makeDag } from "../../src/models/dag/dag.js";
import { FLAVOURS } from "./engines.js";
import { type Chunking, chunked } from "./jsonl-encoding.js";
import { asyncOutcomeOf, type Outcome } from "./outcome.js";

export interface AuditRequest {
  readonly id: number;
  /** The DAG given beside the journal, as its node list (a Dag does not cross threads); null: none. */
  readonly dagNodes: readonly DagNode[] | null;
  readonly bytes: Uint8Array;
  readonly chunking: Chunking;
}

export interface AuditAnswer {
  readonly id: number;
  readonly outcomes: Readonly<Record<string, Outcome<unknown>>>;
}

export interface EngineWorkerData {
  /** file: URLs of the kernel builds, by flavour. */
  readonly wasm: Readonly<Record<string, string>>;
}

const port = parentPort;
if (port === null) throw new Error("engine-worker: not started as a worker");
const { wasm } = workerData as EngineWorkerData;
const engines = await Promise.all(
  FLAVOURS.map((flavour) => loadEngine({ flavour, wasm: new URL(wasm[flavour] as string) })),
);

port.on("message", async (request: AuditRequest) => {
  const made = request.dagNodes === null ? null : makeDag(request.dagNodes);
  if (made !== null && !made.ok) throw new Error("engine-worker: the given DAG is not a DAG");
  const dag = made === null ? null : made.dag;
  const outcomes: Record<string, Outcome<unknown>> = {};
  for (const engine of engines) {
    outcomes[`${engine.flavour}, whole`] = await asyncOutcomeOf(() =>
      engine.auditBytes(dag, request.bytes),
    );
    outcomes[`${engine.flavour}, chunked`] = await asyncOutcomeOf(() =>
      engine.auditBytes(dag, chunked(request.bytes, request.chunking)),
    );
  }
  port.postMessage({ id: request.id, outcomes } satisfies AuditAnswer);
});
port.postMessage("ready");
