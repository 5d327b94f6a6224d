/**
 * Loading the kernel. Its exports are numbers and pointers only, so plain
 * `WebAssembly.instantiate` is all the glue it needs: no loader, no generated bindings (see the
 * README for the measured comparison). The SIMD build is chosen when the engine validates a
 * one-instruction SIMD module, the scalar build otherwise.
 */

export interface KernelExports {
  readonly memory: WebAssembly.Memory;
  useHashKey(k0: bigint, k1: bigint): void;
  prepareDag(nodes: number, edges: number, idBytes: number): number;
  loadDag(): number;
  prepareHeader(length: number): number;
  headerModel(): number;
  loadHeader(): number;
  nodes(): number;
  nodeIdPointer(node: number): number;
  nodeIdLength(node: number): number;
  beginJsonl(skipHeader: number): number;
  writePointer(): number;
  writeCapacity(): number;
  consume(length: number): number;
  finishJsonl(): number;
  beginRecords(): number;
  recordRoom(bytes: number): number;
  foldRecords(bytes: number, pathCount: number): number;
  finishRecords(): void;
  reportPointer(): number;
  /** The first tampered node from `node` on, or -1. */
  nextTampered(node: number): number;
  nodeStatus(node: number): number;
  nodePhase(node: number): number;
  nodeValidation(node: number): number;
  nodeMode(node: number): number;
  nodeDepositPhase(node: number): number;
  prefixBytes(): number;
  prefixLineNumber(): number;
  isHeaderPending(): number;
  resumeJsonlAt(offset: number, line: number, headerPending: number): void;
  nodeStatesPointer(): number;
  pathCountNow(): number;
  pathPointer(path: number): number;
  pathStartsPointer(): number;
  surfaceLengthsPointer(): number;
  surfaceMalformedPointer(): number;
  surfaceStartsPointer(): number;
  surfaceArenaPointer(): number;
  restoreRoom(bytes: number): number;
  restorePaths(bytes: number, ends: number, count: number): number;
  restoreSurfaces(lengths: number, ids: number, malformedMark: number): number;
  readonly RESTORED: WebAssembly.Global;
  readonly RESTORE_MEMORY: WebAssembly.Global;
  readonly RESTORE_DUPLICATE_PATH: WebAssembly.Global;
  adoptRestoredReport(subjectLength: number): number;
  readonly REPORT_BYTES: WebAssembly.Global;
  readonly LINE_BYTES_MAX: WebAssembly.Global;
  readonly REPORT_EVENTS: WebAssembly.Global;
  readonly REPORT_INTEGRITY_INDEX: WebAssembly.Global;
  readonly REPORT_INTEGRITY_LINE: WebAssembly.Global;
  readonly REPORT_INTEGRITY_REASON: WebAssembly.Global;
  readonly REPORT_INTEGRITY_DETAIL: WebAssembly.Global;
  readonly REPORT_SUBJECT_POINTER: WebAssembly.Global;
  readonly REPORT_SUBJECT_LENGTH: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_LINE: WebAssembly.Global;
  readonly REPORT_TORN_TAIL_OFFSET: WebAssembly.Global;
  readonly REPORT_ILLEGAL: WebAssembly.Global;
  readonly REPORT_ILLEGAL_LISTED: WebAssembly.Global;
  readonly REPORT_STEP_INVARIANTS: WebAssembly.Global;
  readonly STEP_INVARIANT_BYTES: WebAssembly.Global;
  readonly REPORT_STATUS_COUNTS: WebAssembly.Global;
  readonly REPORT_ILLEGAL_LIST: WebAssembly.Global;
  readonly ILLEGAL_ENTRY_BYTES: WebAssembly.Global;
}

/** Where the module comes from: bytes, a URL to fetch, or (in Node) the built files by default. */
export type KernelSource = BufferSource | URL | string | Response;

export type KernelFlavour = "simd" | "scalar";

/** A module whose only function returns `v128.const 0`: it validates exactly where SIMD is supported. */
const SIMD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type section: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x16,
  0x01,
  0x14,
  0x00,
  0xfd,
  0x0c, // code section: no locals, v128.const
  ...new Array<number>(16).fill(0),
  0x0b, // end
]);

export function supportsSimd(): boolean {
  return WebAssembly.validate(SIMD_PROBE);
}

export function defaultKernelUrl(flavour: KernelFlavour): URL {
  return new URL(
    flavour === "simd" ? "../build/statefold.simd.wasm" : "../build/statefold.wasm",
    import.meta.url,
  );
}

export async function instantiateKernel(
  source: KernelSource | undefined,
  flavour: KernelFlavour,
): Promise<KernelExports> {
  const bytes = await kernelBytes(source ?? defaultKernelUrl(flavour));
  const { instance } = await WebAssembly.instantiate(bytes, {
    env: {
      abort: (_message: number, _file: number, line: number, column: number) => {
        throw new Error(`statefold kernel aborted at ${line}:${column}`);
      },
    },
  });
  const kernel = instance.exports as unknown as KernelExports;
  // A kernel whose tables hash ids (dag, operations) gets a fresh key: a journal cannot
  // aim collisions at one it does not know. The executive kernel hashes nothing.
  if (typeof kernel.useHashKey === "function") {
    const key = new BigUint64Array(2);
    globalThis.crypto.getRandomValues(key);
    kernel.useHashKey(key[0] as bigint, key[1] as bigint);
  }
  return kernel;
}

async function kernelBytes(source: KernelSource): Promise<BufferSource> {
  if (!(source instanceof URL) && typeof source !== "string") {
    // Asked only here: in Node the first look at `Response` loads its fetch (~10-20 ms a thread).
    if (typeof Response !== "undefined" && source instanceof Response) return source.arrayBuffer();
    return source as BufferSource;
  }
  const url = typeof source === "string" ? URL.parse(source, globalThis.location?.href) : source;
  if (url === null || url.protocol === "file:") {
    // A file: a URL, or in Node a plain path.
    const { readFile } = await import("node:fs/promises");
    return readFile(url ?? (source as string));
  }
  const response = await fetch(url);
  if (!response.ok)
    throw new Error(`statefold: cannot load the kernel from ${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}
