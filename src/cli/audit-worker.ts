/**
 * A worker thread of `AuditPool`: it owns one engine (for the WASM engine, one kernel instance,
 * loaded once) and audits whole journal files, one at a time, in the order the pool sends them.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { AuditReply, AuditRequest, AuditWorkerData } from "./audit-worker-protocol.js";
import { PROGRESS_INTERVAL_MS } from "./audit-worker-protocol.js";
import { auditFileOutcome, type JournalOutcome } from "./journal-outcome.js";
import { useModelFile } from "./model-choice.js";

const port = parentPort;
if (port === null) throw new Error("statefold: audit-worker.js runs as a worker thread");
const options = workerData as AuditWorkerData;

// The pool may send more before these are done: requests are audited in turn, by one engine,
// once the model file the command was given (if any) is loaded here too.
let previous: Promise<unknown> =
  options.modelFile === undefined ? Promise.resolve() : useModelFile(options.modelFile);
port.on("message", (request: AuditRequest) => {
  previous = previous.then(() => auditAll(request));
});

/**
 * Audits the request's journals in order, answering for their outcomes in one reply; the outcomes
 * due are sent before a progress report or a failure, so that each reply is about the oldest
 * journals not yet answered for.
 */
async function auditAll({ journals, progress }: AuditRequest): Promise<void> {
  let outcomes: JournalOutcome[] = [];
  const sendOutcomes = () => {
    if (outcomes.length > 0) port?.postMessage({ kind: "done", outcomes } satisfies AuditReply);
    outcomes = [];
  };
  const send = (reply: AuditReply) => {
    sendOutcomes();
    port?.postMessage(reply);
  };
  for (const { path, bytes } of journals) {
    let reportedAt = Number.NEGATIVE_INFINITY;
    const onProgress = (bytes: number, events: number | null) => {
      const now = performance.now();
      if (now - reportedAt < PROGRESS_INTERVAL_MS) return;
      reportedAt = now;
      send({ kind: "progress", bytes, events });
    };
    try {
      const outcome = await auditFileOutcome(path, bytes, {
        ...options,
        onProgress: progress ? onProgress : undefined,
      });
      outcomes.push(outcome);
    } catch (error) {
      send({ kind: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  }
  sendOutcomes();
}
