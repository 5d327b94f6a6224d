/**
 * A worker thread of `statefold worker --concurrency N`: one loop with its own engine and its
 * own Redis connection, telling the main thread its lines and figures.
 */
import { parentPort, workerData } from "node:worker_threads";
import { runWorker, type WorkerOptions } from "./worker-loop.js";

const port = parentPort;
if (port === null) throw new Error("statefold: worker-thread.js runs as a worker thread");
await runWorker(workerData as WorkerOptions, {
  line: (text) => port.postMessage({ line: text }),
  figures: (figures) => port.postMessage({ figures }),
});
