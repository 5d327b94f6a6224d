/**
 * A model's engines as the benchmarks run them, taken from the model registry
 * (src/models/registry.ts): its WASM engine and its reference, each auditing a journal file's
 * JSONL as it streams from the file (`auditBytes`). The colours are the charts': every model's
 * WASM engine in the same red, its reference in the same green.
 */
import { readFileChunks } from "../src/journal/read-file-bytes.js";
import { modelNamed, type ProgramModelName } from "../src/models/registry.js";
import type { Run } from "./bench-model.js";

export const WASM_COLOR = "#d62728";
export const REFERENCE_COLOR = "#2ca02c";

/** The model's WASM engine on the file, loaded once before the runs. */
export async function kernelRun(model: ProgramModelName, path: string): Promise<Run> {
  const engine = await modelNamed(model).kernel();
  return async () => ({ report: await engine.auditBytes(readFileChunks(path), { file: path }) });
}

/**
 * The model's WASM engine on the file, a fresh engine each run: for an engine that keeps what it
 * read of the last header and would skip it in the next run. The next engine is loaded after each
 * run, as the other engines load theirs once, before it is timed.
 */
export function freshKernelRun(model: ProgramModelName, path: string): Run {
  const load = () => modelNamed(model).kernel();
  let next = load();
  return async () => {
    const engine = await next;
    const report = await engine.auditBytes(readFileChunks(path), { file: path });
    next = load();
    // Awaited by the next run; a rejection after the last run is no failure of this one.
    next.catch(() => undefined);
    return { report };
  };
}

/** The model's reference engine on the file. */
export async function referenceRun(model: ProgramModelName, path: string): Promise<Run> {
  const engine = await modelNamed(model).reference();
  return async () => ({ report: await engine.auditBytes(readFileChunks(path), { file: path }) });
}
