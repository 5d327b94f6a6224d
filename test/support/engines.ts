/**
 * Both builds of the WASM engine, for differential tests that hold each to the reference: the SIMD
 * build and the scalar one (forced, so it is tested even where SIMD is supported).
 */
import { type KernelFlavour, loadEngine, type WasmEngine } from "../../bindings/index.js";

export const FLAVOURS: readonly KernelFlavour[] = ["simd", "scalar"];

export async function loadFlavours(): Promise<readonly WasmEngine[]> {
  return Promise.all(FLAVOURS.map((flavour) => loadEngine({ flavour })));
}
