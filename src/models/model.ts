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
import type { ModelReplay } from "../cli/model-replay.js";
import type { ModelCommand } from "../cli/run-cli.js";
import type { JournalOptions, ModelEngine } from "../engine.js";
import type { ExploreFacet } from "../explore/facet.js";
import type { ModelGate } from "../gate/violation.js";
import type { ModelGenerator } from "../generate/model-generator.js";
import type { JsonOrigin } from "../journal/json-value-error.js";
import type { ModelCommandLine } from "../journal/model-command-line.js";
import type { ModelHtml } from "../report/model-html.js";
import type { ModelText } from "../report/model-text.js";
import type { AnyReport, AuditAnswer } from "./report-frame.js";

export interface Model<
  Name extends string = string,
  Report extends AnyReport = AnyReport,
  Options extends JournalOptions = JournalOptions,
  HeaderFields = unknown,
  /** What its engines answer: its report, or — a model that splits streams — a report per journal. */
  Answer extends AuditAnswer<Report> = AuditAnswer<Report>,
> {
  // Who it is
  /** The name a journal's header gives (`"model"`), `--model` and the API's `model` option. */
  readonly name: Name;
  /** What the model checks, in one line: the help's list of models, the page's model choice. */
  readonly summary: string;

  // How its journals are read
  /**
   * Reads the model's own fields of a journal's header (docs/journals.md, "The header"): what its
   * engines take from it (a dag's DAG, an executive's spec and budget). A field missing or wrong
   * is a `JournalError` naming its path in the header.
   */
  readHeaderFields(header: Readonly<Record<string, unknown>>, origin: JsonOrigin): HeaderFields;
  /**
   * Whether a value looks like one of the model's records: a journal of another model that has
   * no header and starts with one is asked whether this model was meant. The default model's
   * journals need no header, so it has none.
   */
  readonly recognisesRecord?: (value: object) => boolean;
  /** Its flags of the commands that audit, and the journal formats it reads itself beside JSONL. */
  readonly commandLine: ModelCommandLine<Report, Options>;

  // Its engines
  /** The reference engine: plain TypeScript, the definition of correct. */
  reference(): Promise<ModelEngine<Answer, Options>>;
  /** The WebAssembly engine, instantiated anew on each call. */
  kernel(options?: KernelOptions): Promise<KernelEngine<Answer, Options>>;
  /** The `KernelOptions` its kernel takes; `loadEngine` refuses the others for it. */
  readonly kernelOptions: readonly (keyof KernelOptions)[];

  // What its report says, and to whom
  /** Its words in the text output, inside the frame every model's report shares. */
  readonly text: ModelText<Report>;
  /** Its view of a journal in the HTML report, and the body of that journal's section. */
  readonly html: ModelHtml<Report>;
  /** The boot gate's candidates for a refusal: the rules its report says broke. */
  readonly gate: ModelGate<Report>;

  // Its commands
  /** How `statefold replay` prints the state a journal of this model folds to. */
  readonly replay: ModelReplay;
  /**
   * `statefold gen`'s generator of this model's journals: its flags, help and faults. A model
   * defined by data has none (docs/models/data.md).
   */
  gen?(): Promise<ModelGenerator>;
  /**
   * Its part in `statefold explore`: its flags and help, and its explorer (loaded lazily). A
   * model defined by data has none: explore enumerates a program's actions.
   */
  readonly explore?: ExploreFacet;
  /** The CLI commands of this model's own (`layers`, `executive`), beside the shared ones. */
  readonly commands: readonly ModelCommand[];
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
