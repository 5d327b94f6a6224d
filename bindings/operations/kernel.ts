/**
 * Loading the `operations` kernel (build/statefold-operations*.wasm): the same plain
 * `WebAssembly.instantiate` as the dag kernel's (../kernel.ts), another module.
 */
import { instantiateKernel, type KernelFlavour, type KernelSource } from "../kernel.js";
import type { StreamingKernel } from "../streamed-session.js";

/** Beside what every streamed kernel exports (../streamed-session.ts). */
export interface OperationsKernelExports extends StreamingKernel {
  useHashKey(k0: bigint, k1: bigint): void;
  limitMemory(pages: number): void;
  beginJsonl(skipHeader: number): number;
  snapshotState(): number;
  snapshotLength(): number;
  restoreRoom(bytes: number): number;
  restoreState(pointer: number, length: number): number;
  readonly REPORT_BYTES: WebAssembly.Global;
  readonly REPORT_EVENTS: WebAssembly.Global;
  readonly REPORT_INTEGRITY_INDEX: WebAssembly.Global;
  readonly REPORT_INTEGRITY_LINE: WebAssembly.Global;
  readonly REPORT_INTEGRITY_REASON: WebAssembly.Global;
  readonly REPORT_INTEGRITY_PROBLEM: WebAssembly.Global;
  readonly REPORT_INTEGRITY_FIELD: WebAssembly.Global;
  readonly REPORT_INTEGRITY_EXPECTED: WebAssembly.Global;
  readonly REPORT_INTEGRITY_COMPANION: WebAssembly.Global;
  readonly REPORT_INTEGRITY_KIND_POINTER: WebAssembly.Global;
  readonly REPORT_INTEGRITY_KIND_LENGTH: WebAssembly.Global;
  readonly REPORT_LIMIT: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_LINE: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_OFFSET: WebAssembly.Global;
  readonly REPORT_ILLEGAL: WebAssembly.Global;
  readonly REPORT_ILLEGAL_LISTED: WebAssembly.Global;
  readonly REPORT_FINAL: WebAssembly.Global;
  readonly REPORT_RULES: WebAssembly.Global;
  readonly REPORT_ILLEGAL_LIST: WebAssembly.Global;
  readonly FINDING_BYTES: WebAssembly.Global;
}

export function defaultOperationsKernelUrl(flavour: KernelFlavour): URL {
  return new URL(
    flavour === "simd"
      ? "../../build/statefold-operations.simd.wasm"
      : "../../build/statefold-operations.wasm",
    import.meta.url,
  );
}

export async function instantiateOperationsKernel(
  source: KernelSource | undefined,
  flavour: KernelFlavour,
): Promise<OperationsKernelExports> {
  const kernel = await instantiateKernel(source ?? defaultOperationsKernelUrl(flavour), flavour);
  return kernel as unknown as OperationsKernelExports;
}
