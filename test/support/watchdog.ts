/**
 * A watchdog for the kernel: the WASM engine runs in a worker thread, and a journal it has not
 * audited within the time limit counts as a hang — the worker is terminated (a synchronous loop
 * in WebAssembly cannot be interrupted any other way) and a fresh one takes the next journal.
 *
 * The worker is test/support/engine-worker.ts bundled with Vite into one ES module in a temporary
 * directory (a worker thread cannot load TypeScript).
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { build, type Rollup } from "vite";
import { defaultKernelUrl } from "../../bindings/kernel.js";
import type { AuditAnswer, AuditRequest, EngineWorkerData } from "./engine-worker.js";
import { FLAVOURS } from "./engines.js";
import { testTempDir } from "./temp-dirs.js";

export class KernelHang extends Error {
  override readonly name = "KernelHang";
}

export class EngineWatchdog {
  private worker: Worker | null = null;
  private nextId = 0;

  private constructor(
    private readonly workerFile: string,
    private readonly directory: string,
  ) {}

  static async start(): Promise<EngineWatchdog> {
    const directory = testTempDir("statefold-watchdog-");
    const workerFile = join(directory, "engine-worker.mjs");
    await writeFile(workerFile, await bundleWorker());
    const watchdog = new EngineWatchdog(workerFile, directory);
    await watchdog.ensureWorker();
    return watchdog;
  }

  /** Audits on every build in the worker; rejects with KernelHang after `timeoutMs`. */
  async audit(
    request: Omit<AuditRequest, "id">,
    timeoutMs: number,
  ): Promise<AuditAnswer["outcomes"]> {
    const worker = await this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.worker = null;
        void worker.terminate();
        reject(
          new KernelHang(
            `the kernel did not finish a ${request.bytes.length}-byte journal within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      const onMessage = (answer: AuditAnswer) => {
        if (answer.id !== id) return;
        cleanup();
        resolve(answer.outcomes);
      };
      const onError = (error: Error) => {
        cleanup();
        this.worker = null;
        reject(error);
      };
      const cleanup = () => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
      };
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.postMessage({ ...request, id } satisfies AuditRequest);
    });
  }

  async stop(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
    await rm(this.directory, { recursive: true, force: true });
  }

  private async ensureWorker(): Promise<Worker> {
    if (this.worker !== null) return this.worker;
    const wasm = Object.fromEntries(
      FLAVOURS.map((flavour) => [flavour, defaultKernelUrl(flavour).href]),
    );
    const worker = new Worker(this.workerFile, { workerData: { wasm } satisfies EngineWorkerData });
    await new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
    });
    this.worker = worker;
    return worker;
  }
}

async function bundleWorker(): Promise<string> {
  const entry = fileURLToPath(new URL("./engine-worker.ts", import.meta.url));
  const result = await build({
    configFile: false,
    logLevel: "silent",
    build: {
      ssr: entry,
      write: false,
      minify: false,
      target: "node20",
      // One file: loadEngine imports the other models' bindings only when asked for.
      rollupOptions: { output: { codeSplitting: false } },
    },
    ssr: { noExternal: true }, // the temporary directory has no node_modules: inline the packages
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item) => item.type === "chunk");
  if (chunks.length !== 1)
    throw new Error(`watchdog: expected one bundled chunk, got ${chunks.length}`);
  return (chunks[0] as Rollup.OutputChunk).code;
}
