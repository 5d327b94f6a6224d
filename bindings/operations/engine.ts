/**
 * The `operations` model's WebAssembly engine (docs/models/operations.md): a JSONL journal
 * streamed through the kernel in chunks of any size, giving the report the reference's
 * `audit(records, { lines, tornTail })` gives for the same bytes.
 *
 * Bytes are held back until the first non-blank line is complete, so the header can be told
 * (header.ts) before the kernel starts; then every chunk is copied into the kernel's line buffer
 * as room allows.
 */
import { chunksOf, type JournalBytes, UNNAMED_JOURNAL } from "../../src/engine.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { JournalError } from "../../src/journal/errors.js";
import { FirstLineHold } from "../../src/journal/first-line.js";
import { readJsonlHeader } from "../../src/journal/jsonl.js";
import type { OperationsReport } from "../../src/models/operations/index.js";
import type { OperationsEngine } from "../../src/operations-engine.js";
import { type KernelFlavour, type KernelSource, supportsSimd } from "../kernel.js";
import { Limit } from "./codes.js";
import { instantiateOperationsKernel, type OperationsKernelExports } from "./kernel.js";
import { readOperationsReport } from "./read-report.js";

export interface LoadOperationsEngineOptions {
  /** The SIMD build where the engine supports it (the default), or the scalar build. */
  readonly flavour?: KernelFlavour;
  /** The module itself, instead of the built file of that flavour. */
  readonly wasm?: KernelSource;
  /**
   * The most memory the kernel may grow to, in bytes (rounded down to 64 KiB pages); the module's
   * own maximum, 4 GiB, by default. A journal that needs more is a reported limit.
   */
  readonly memoryLimitBytes?: number;
}

export interface OperationsAuditOptions {
  /** Names the journal in errors. */
  readonly file?: string;
}

export interface WasmOperationsEngine extends OperationsEngine {
  readonly name: "wasm";
  readonly flavour: KernelFlavour;
  /** The kernel's linear memory, in bytes (it grows and never shrinks). */
  memoryBytes(): number;
}

const PAGE_BYTES = 65536;

export async function loadOperationsEngine(
  options: LoadOperationsEngineOptions = {},
): Promise<WasmOperationsEngine> {
  const flavour = options.flavour ?? (supportsSimd() ? "simd" : "scalar");
  const kernel = await instantiateOperationsKernel(options.wasm, flavour);
  if (options.memoryLimitBytes !== undefined) {
    kernel.limitMemory(Math.floor(options.memoryLimitBytes / PAGE_BYTES));
  }
  return new OperationsKernelEngine(kernel, flavour);
}

class OperationsKernelEngine implements WasmOperationsEngine {
  readonly name = "wasm";

  constructor(
    private readonly kernel: OperationsKernelExports,
    readonly flavour: KernelFlavour,
  ) {}

  async auditBytes(
    bytes: JournalBytes,
    options: OperationsAuditOptions = {},
  ): Promise<OperationsReport> {
    const session = new Session(this.kernel, options.file ?? UNNAMED_JOURNAL);
    for await (const chunk of chunksOf(bytes)) session.write(chunk);
    return session.finish();
  }

  memoryBytes(): number {
    return this.kernel.memory.buffer.byteLength;
  }
}

class Session {
  /** The first chunks, until the first non-blank line is complete; null once the kernel has started. */
  private held: FirstLineHold | null = new FirstLineHold();

  constructor(
    private readonly kernel: OperationsKernelExports,
    private readonly file: string,
  ) {}

  write(chunk: Uint8Array): void {
    if (this.held === null) this.feed(chunk);
    else if (this.held.hold(chunk)) this.start(this.held);
  }

  finish(): OperationsReport {
    if (this.held !== null) this.start(this.held);
    this.check(this.kernel.finishJsonl());
    return readOperationsReport(this.kernel);
  }

  /** The first non-blank line is complete (or the input ended): tell the header, start, feed what was held. */
  private start(held: FirstLineHold): void {
    this.held = null;
    const header = readJsonlHeader(held.firstLine(), this.file);
    if (header !== null)
      chooseModel(this.file, header.model, "operations", "the operations engine");
    this.check(this.kernel.beginJsonl(header === null ? 0 : 1));
    for (const chunk of held.chunks) this.feed(chunk);
  }

  private feed(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      const length = Math.min(this.kernel.writeCapacity(), bytes.length - at);
      new Uint8Array(this.kernel.memory.buffer, this.kernel.writePointer(), length).set(
        bytes.subarray(at, at + length),
      );
      at += length;
      this.check(this.kernel.consume(length));
    }
  }

  private check(limit: number): void {
    if (limit === Limit.NONE) return;
    const view = new DataView(this.kernel.memory.buffer);
    const base = this.kernel.reportPointer();
    const line = view.getFloat64(base + (this.kernel.REPORT_LIMIT_LINE.value as number), true);
    const lineBytesMax = (this.kernel.LINE_BYTES_MAX.value as number) / 2 ** 20;
    throw new JournalError(
      this.file,
      limit === Limit.LINE_LENGTH
        ? `expected lines of at most ${lineBytesMax} MiB, found a longer one`
        : "the WebAssembly memory cannot grow any further: the journal's op ids, effect ids and live steps do not fit",
      line > 0 ? line : undefined,
    );
  }
}
