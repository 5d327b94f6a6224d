/**
 * Loading the data kernel (build/statefold-data*.wasm): the same plain `WebAssembly.instantiate`
 * as every kernel's (../kernel.ts), another module.
 */
import { instantiateKernel, type KernelFlavour, type KernelSource } from "../kernel.js";
import type { StreamingKernel } from "../streamed-session.js";

/** Beside what every streamed kernel exports (../streamed-session.ts). */
export interface DataKernelExports extends StreamingKernel {
  useHashKey(k0: bigint, k1: bigint): void;
  limitMemory(pages: number): void;
  prepareModel(bytes: number): number;
  loadModel(): number;
  beginJsonl(skipHeader: number): number;
  beginElements(): number;
  elementRoom(bytes: number, line: number): number;
  auditElement(length: number, line: number): number;
  finishElements(): number;
  reportListOffset(): number;
  stateCountsPointer(): number;
  countersPointer(): number;
  registersPointer(): number;
  snapshotState(): number;
  snapshotLength(): number;
  restoreRoom(bytes: number): number;
  restoreState(pointer: number, length: number): number;
  /** A split stream's (assembly/data/journals.ts): its reports, and which one is read. */
  journalCount(): number;
  useJournal(journal: number): void;
  journalKeyPointer(): number;
  readonly FINDING_BYTES: WebAssembly.Global;
  readonly REPORT_EVENTS: WebAssembly.Global;
  readonly REPORT_ILLEGAL: WebAssembly.Global;
  readonly REPORT_ILLEGAL_LISTED: WebAssembly.Global;
  readonly REPORT_INTEGRITY_FIELD: WebAssembly.Global;
  readonly REPORT_INTEGRITY_INDEX: WebAssembly.Global;
  readonly REPORT_INTEGRITY_LINE: WebAssembly.Global;
  readonly REPORT_INTEGRITY_PROBLEM: WebAssembly.Global;
  readonly REPORT_LIMIT: WebAssembly.Global;
  readonly REPORT_LIMIT_LINE: WebAssembly.Global;
  readonly REPORT_RULES: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_LINE: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_OFFSET: WebAssembly.Global;
}

export function defaultDataKernelUrl(flavour: KernelFlavour): URL {
  return new URL(
    flavour === "simd" ? "../../build/statefold-data.simd.wasm" : "../../build/statefold-data.wasm",
    import.meta.url,
  );
}

export async function instantiateDataKernel(
  source: KernelSource | undefined,
  flavour: KernelFlavour,
): Promise<DataKernelExports> {
  const kernel = await instantiateKernel(source ?? defaultDataKernelUrl(flavour), flavour);
  return kernel as unknown as DataKernelExports;
}
