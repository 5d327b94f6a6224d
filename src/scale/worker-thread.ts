/**
 * A worker thread of `statefold worker --concurrency N`: one loop with its own engine and its
 * own Redis connection (and its own copy of the --model file's model), telling the main thread
 * its lines and figures.
 */
import { parentPort, workerData } from "node:worker_threads";
import { useModelFile } from "../cli/model-choice.js";
import { runWorker, type WorkerOptions } from "./worker-loop.js";

const port = parentPort;
if (port === null) throw new Error("statefold: worker-thread.js runs as a worker thread");
const options = workerData as WorkerOptions;
// The main thread checked the model file before starting threads; each loads it for its own registry.
if (options.modelFile !== undefined) await useModelFile(options.modelFile);
await runWorker(options, {
  line: (text) => port.postMessage({ line: text }),
  figures: (figures) => port.postMessage({ figures }),
});
