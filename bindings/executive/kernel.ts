/**
 * Loading the `executive` kernel (build/statefold-executive*.wasm): the same plain
 * `WebAssembly.instantiate` as the other models' kernels (../kernel.ts), another module.
 */
import { instantiateKernel, type KernelFlavour, type KernelSource } from "../kernel.js";
import type { StreamingKernel } from "../streamed-session.js";

/** Beside what every streamed kernel exports (../streamed-session.ts). */
export interface ExecutiveKernelExports extends StreamingKernel {
  limitMemory(pages: number): void;
  specRoom(bytes: number): number;
  loadSpec(): number;
  prepareHeader(length: number): number;
  loadHeader(): number;
  packedSpecPointer(): number;
  packedSpecLength(): number;
  resetRun(): void;
  observe(
    tag: number,
    seq: number,
    now: number,
    ok: number,
    retryable: number,
    bytes: number,
    detailLength: number,
  ): void;
  observeUnreadable(reason: number): void;
  step(): number;
  decisionSeqValue(): number;
  decisionReasonCode(): number;
  decisionBudgetCode(): number;
  decisionStepIndex(): number;
  decisionAttemptValue(): number;
  stateI32(field: number): number;
  stateI64(field: number): number;
  setStateI32(field: number, value: number): void;
  setStateI64(field: number, value: number): void;
  lastDetailPointer(): number;
  hostDetailPointer(): number;
  setLastDetail(length: number): void;
  frameSubStepOf(frame: number): number;
  frameLimitOf(frame: number, limit: number): number;
  frameUsedOf(frame: number, counter: number): number;
  frameDoneCountOf(frame: number): number;
  frameDoneStep(frame: number, i: number): number;
  restoreFrame(subStep: number): void;
  restoreLimit(frame: number, limit: number, value: number): void;
  restoreUsed(frame: number, counter: number, value: number): void;
  restoreDone(frame: number, step: number): void;
  saveState(): number;
  savedLength(): number;
  loadRoom(): number;
  loadState(length: number): void;
  beginJsonl(skipHeader: number): number;
  restoreReport(from: number): void;
  recordedRoom(listed: number, length: number): number;
  readonly REPORT_BYTES: WebAssembly.Global;
  readonly STATE_STATUS: WebAssembly.Global;
  readonly STATE_FAILURE_REASON: WebAssembly.Global;
  readonly STATE_FAILURE_BUDGET: WebAssembly.Global;
  readonly STATE_FRAME_COUNT: WebAssembly.Global;
  readonly STATE_OUTSTANDING: WebAssembly.Global;
  readonly STATE_OUTSTANDING_STEP: WebAssembly.Global;
  readonly STATE_HAS_NOW: WebAssembly.Global;
  readonly STATE_DETAIL_LENGTH: WebAssembly.Global;
  readonly STATE_SEQ: WebAssembly.Global;
  readonly STATE_NOW: WebAssembly.Global;
  readonly STATE_SINCE_CHECKPOINT: WebAssembly.Global;
  readonly STATE_OUTSTANDING_SEQ: WebAssembly.Global;
  readonly STATE_ATTEMPT: WebAssembly.Global;
  readonly REPORT_EVENTS: WebAssembly.Global;
  readonly REPORT_INTEGRITY_INDEX: WebAssembly.Global;
  readonly REPORT_INTEGRITY_LINE: WebAssembly.Global;
  readonly REPORT_INTEGRITY_PROBLEM: WebAssembly.Global;
  readonly REPORT_LIMIT: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_LINE: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_OFFSET: WebAssembly.Global;
  readonly REPORT_DECISIONS_MATCH: WebAssembly.Global;
  readonly REPORT_TERMINAL_RESPECTED: WebAssembly.Global;
  readonly REPORT_MISMATCHES: WebAssembly.Global;
  readonly REPORT_MISMATCHES_LISTED: WebAssembly.Global;
  readonly REPORT_MISMATCH_LIST: WebAssembly.Global;
  readonly MISMATCH_BYTES: WebAssembly.Global;
}

export function defaultExecutiveKernelUrl(flavour: KernelFlavour): URL {
  return new URL(
    flavour === "simd"
      ? "../../build/statefold-executive.simd.wasm"
      : "../../build/statefold-executive.wasm",
    import.meta.url,
  );
}

export async function instantiateExecutiveKernel(
  source: KernelSource | undefined,
  flavour: KernelFlavour,
): Promise<ExecutiveKernelExports> {
  const kernel = await instantiateKernel(source ?? defaultExecutiveKernelUrl(flavour), flavour);
  return kernel as unknown as ExecutiveKernelExports;
}

/** The value of one of the kernel's exported offsets. */
export function offsetOf(
  kernel: ExecutiveKernelExports,
  name: keyof ExecutiveKernelExports,
): number {
  return (kernel[name] as WebAssembly.Global).value as number;
}
