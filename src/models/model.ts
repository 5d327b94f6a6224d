/**
 * The model contract (docs/architecture.md, "The model contract"): a model is one value of this
 * interface, registered once in registry.ts. Everything outside a model's folders — readers,
 * commands, the worker pool, snapshots, the gate, the report's frame and pages, the browser page,
 * the benchmarks — takes a model from the registry and never names one. A field a model must
 * provide is required here, so a model that lacks it does not compile.
 *
 * A model value is light: its engines, generators and explorers are imported when first asked
 * for, so a process auditing one model never loads another's.
 */

import type { KernelFlavour, KernelSource } from "../../bindings/kernel.js";
import type { ModelCommandLine } from "../cli/model-command-line.js";
import type { JournalOptions, ModelEngine } from "../engine.js";
import type { ModelGate } from "../gate/violation.js";
import type { AnyReport } from "./report-frame.js";

export interface Model<
  Name extends string = string,
  Report extends AnyReport = AnyReport,
  Options extends JournalOptions = JournalOptions,
> {
  /** The name a journal's header gives (`"model"`), `--model` and the API's `model` option. */
  readonly name: Name;
  /** What the model checks, in one line: the help's list of models, the page's model choice. */
  readonly summary: string;
  /** The reference engine: plain TypeScript, the definition of correct. */
  reference(): Promise<ModelEngine<Report, Options>>;
  /** The WebAssembly engine, instantiated anew on each call. */
  kernel(options?: KernelOptions): Promise<KernelEngine<Report, Options>>;
  /** The `KernelOptions` its kernel takes; `loadEngine` refuses the others for it. */
  readonly kernelOptions: readonly (keyof KernelOptions)[];
  /** Its flags of the commands that audit, and the journal formats it reads itself beside JSONL. */
  readonly commandLine: ModelCommandLine<Report, Options>;
  /** The boot gate's candidates for a refusal: the rules its report says broke. */
  readonly gate: ModelGate<Report>;
}

/** How a model's kernel is loaded (docs/api.md, `loadEngine`). */
export interface KernelOptions {
  /** The module itself, instead of the built file of that flavour. */
  readonly wasm?: KernelSource;
  /** Which build; by default SIMD where the engine supports it. */
  readonly flavour?: KernelFlavour;
  /**
   * The most memory the kernel may grow to, in bytes (rounded down to 64 KiB pages); 4 GiB by
   * default. A journal that needs more is a reported limit.
   */
  readonly memoryLimitBytes?: number;
}

/** A model's WebAssembly engine: the shared calls, and what only a kernel can tell. */
export interface KernelEngine<Report, Options extends JournalOptions = JournalOptions>
  extends ModelEngine<Report, Options> {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** The kernel's linear memory, in bytes: it grows and never shrinks (a high-water mark). */
  memoryBytes(): number;
}
