/**
 * A worker thread of `AuditPool`: it owns one engine (for the WASM engine, one kernel instance,
 * loaded once) and audits whole journal files, one request at a time, as the pool sends them.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { AuditReply, AuditRequest, AuditWorkerData } from "./audit-worker-protocol.js";
import { PROGRESS_INTERVAL_MS } from "./audit-worker-protocol.js";
import { auditFileOutcome } from "./journal-outcome.js";

const port = parentPort;
if (port === null) throw new Error("statefold: audit-worker.js runs as a worker thread");
const options = workerData as AuditWorkerData;

port.on("message", (request: AuditRequest) => {
  void audit(request).then((reply) => port.postMessage(reply satisfies AuditReply));
});

async function audit({ path, progress }: AuditRequest): Promise<AuditReply> {
  let reportedAt = Number.NEGATIVE_INFINITY;
  const onProgress = (bytes: number, events: number | null) => {
    const now = performance.now();
    if (now - reportedAt < PROGRESS_INTERVAL_MS) return;
    reportedAt = now;
    port?.postMessage({ kind: "progress", bytes, events } satisfies AuditReply);
  };
  try {
    const outcome = await auditFileOutcome(path, {
      ...options,
      onProgress: progress ? onProgress : undefined,
    });
    return { kind: "done", outcome };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "failed", message };
  }
}
