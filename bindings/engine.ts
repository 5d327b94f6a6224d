/**
 * `loadEngine()`: the WASM engine, with the reference's API (src/engine.ts) and deep-equal
 * reports. One engine owns one kernel instance and audits one journal at a time; it keeps the
 * last DAG loaded, so auditing many journals over one DAG loads it once.
 */
import {
  type AuditBytesOptions,
  chunksOf,
  type Engine,
  givenDag,
  type JournalBytes,
  UNNAMED_JOURNAL,
} from "../src/engine.js";
import { chooseDag } from "../src/journal/choose-dag.js";
import { JournalError } from "../src/journal/errors.js";
import { readJsonlJournal } from "../src/journal/jsonl.js";
import type { AuditSource } from "../src/model/audit.js";
import type { Dag } from "../src/model/dag.js";
import { LogIntegrityError } from "../src/model/events.js";
import type { Report } from "../src/model/report.js";
import type { EventLog, ModelState, NodeState } from "../src/model/state.js";
import { GATE_MODES, Limit, STATUSES, VALIDATIONS } from "./codes.js";
import { type EncodedEvents, encodeEvents, foldEncoded } from "./fold-records.js";
import {
  instantiateKernel,
  type KernelExports,
  type KernelFlavour,
  type KernelSource,
  supportsSimd,
} from "./kernel.js";
import { packDag } from "./pack-dag.js";
import { type ReportContext, readIntegrityFault, readReport } from "./read-report.js";

export interface LoadEngineOptions {
  /** The kernel module; by default the built file beside this package (fetched in a browser). */
  readonly wasm?: KernelSource;
  /** Which build; by default SIMD where the engine supports it. */
  readonly flavour?: KernelFlavour;
}

export interface WasmEngine extends Engine {
  readonly flavour: KernelFlavour;
  /**
   * The size of the kernel's linear memory, in bytes. WebAssembly memory only grows, so this is
   * the high-water mark of every audit so far: it lets a caller (and the tests) check that memory
   * is O(nodes + distinct surface paths + longest line), independent of journal length.
   */
  memoryBytes(): number;
}

export async function loadEngine(options: LoadEngineOptions = {}): Promise<WasmEngine> {
  const flavour = options.flavour ?? (supportsSimd() ? "simd" : "scalar");
  const kernel = await instantiateKernel(options.wasm, flavour);
  return new KernelEngine(kernel, flavour);
}

const LF = 0x0a;

class KernelEngine implements WasmEngine {
  readonly name = "wasm";
  private loadedDag: Dag | null = null;
  private lastHeader: { readonly line: Uint8Array; readonly dag: Dag } | null = null;

  constructor(
    private readonly kernel: KernelExports,
    readonly flavour: KernelFlavour,
  ) {}

  audit(dag: Dag, events: readonly unknown[], source: AuditSource = {}): Report {
    this.fold(dag, events, UNNAMED_JOURNAL);
    const report = readReport(this.kernel, {
      dag,
      lines: source.lines,
      faultSubject: faultSubjectOf(events),
    });
    return { ...report, tornTail: source.tornTail ?? null };
  }

  replay(dag: Dag, events: readonly unknown[]): ModelState {
    const { surfaces } = this.fold(dag, events, UNNAMED_JOURNAL);
    const fault = readIntegrityFault(this.kernel, {
      dag,
      lines: undefined,
      faultSubject: faultSubjectOf(events),
    });
    if (fault !== null) throw new LogIntegrityError(fault.index, fault.fault);
    const nodes = dag.nodes.map((_, node) => this.nodeState(node, surfaces[node]));
    let log: EventLog = null;
    for (const [index, event] of events.entries()) {
      log = Object.freeze({ event: event as never, length: index + 1, earlier: log });
    }
    return Object.freeze({ dag, nodes: Object.freeze(nodes), log });
  }

  async auditBytes(
    dag: Dag | null,
    bytes: JournalBytes,
    options: AuditBytesOptions = {},
  ): Promise<Report> {
    const file = options.file ?? UNNAMED_JOURNAL;
    const chunks = chunksOf(bytes);
    const { read, firstLine } = await readThroughFirstLine(chunks, bytes instanceof Uint8Array);
    const headerDag = this.headerDag(firstLine, file);
    const chosen = chooseDag(file, headerDag, givenDag(dag, options));
    this.useDag(chosen, file);
    this.check(this.kernel.beginJsonl(headerDag === null ? 0 : 1), file);
    for (const chunk of read) this.feed(chunk, file);
    for await (const chunk of chunks) this.feed(chunk, file);
    this.check(this.kernel.finishJsonl(), file);
    return readReport(this.kernel, { dag: chosen, lines: "kernel" });
  }

  memoryBytes(): number {
    return this.kernel.memory.buffer.byteLength;
  }

  /**
   * The DAG of a header line, or null when the first line is no header. The last header's DAG is
   * kept: auditing many journals of one campaign parses and loads its DAG once.
   */
  private headerDag(firstLine: Uint8Array, file: string): Dag | null {
    if (this.lastHeader !== null && sameBytes(this.lastHeader.line, firstLine))
      return this.lastHeader.dag;
    const dag = readJsonlJournal(firstLine, file).dag;
    if (dag !== null) this.lastHeader = { line: firstLine.slice(), dag };
    return dag;
  }

  private fold(dag: Dag, events: readonly unknown[], file: string): EncodedEvents {
    const encoded = encodeEvents(dag, events);
    this.useDag(dag, file);
    this.check(foldEncoded(this.kernel, encoded), file);
    return encoded;
  }

  private useDag(dag: Dag, file: string): void {
    if (this.loadedDag === dag) return;
    this.loadedDag = null;
    if (!packDag(this.kernel, dag)) this.check(Limit.MEMORY, file);
    this.loadedDag = dag;
  }

  /** Copies bytes into the kernel's line buffer as room allows, auditing the lines they complete. */
  private feed(bytes: Uint8Array, file: string): void {
    for (let at = 0; at < bytes.length; ) {
      const length = Math.min(this.kernel.writeCapacity(), bytes.length - at);
      new Uint8Array(this.kernel.memory.buffer, this.kernel.writePointer(), length).set(
        bytes.subarray(at, at + length),
      );
      at += length;
      this.check(this.kernel.consume(length), file);
    }
  }

  private check(limit: number, file: string): void {
    if (limit === Limit.NONE) return;
    this.loadedDag = null;
    const lineBytesMax = (this.kernel.LINE_BYTES_MAX.value as number) / 2 ** 20;
    throw new JournalError(
      file,
      limit === Limit.LINE_LENGTH
        ? `expected lines of at most ${lineBytesMax} MiB, found a longer one`
        : "the WebAssembly memory cannot grow any further (4 GiB): the DAG or the surfaces are too large",
    );
  }

  private nodeState(node: number, surface: unknown): NodeState {
    const validation = VALIDATIONS[this.kernel.nodeValidation(node)] ?? null;
    return Object.freeze({
      status: STATUSES[this.kernel.nodeStatus(node)] as NodeState["status"],
      phase: this.kernel.nodePhase(node),
      deposit:
        validation === null
          ? null
          : Object.freeze({
              validation,
              mode: GATE_MODES[this.kernel.nodeMode(node)] as NonNullable<
                NodeState["deposit"]
              >["mode"],
              phase: this.kernel.nodeDepositPhase(node),
            }),
      surface: surface ?? EMPTY_SURFACE,
    });
  }
}

const EMPTY_SURFACE: readonly string[] = Object.freeze([]);

/** The id or kind an unknown-node or unknown-kind fault names, straight from the event. */
function faultSubjectOf(events: readonly unknown[]): ReportContext["faultSubject"] {
  return (index, reason) => {
    const { kind, id } = events[index] as { kind: string; id: string };
    return reason === "unknown-node" ? id : kind;
  };
}

/**
 * Reads chunks until they hold the first non-blank line with its line feed (or the input ends),
 * so the reference reader can recognise a header before the kernel starts. Returns the chunks
 * read, untouched, and the bytes up to the end of that first line.
 */
async function readThroughFirstLine(
  chunks: AsyncGenerator<Uint8Array>,
  chunksStayValid: boolean,
): Promise<{ read: Uint8Array[]; firstLine: Uint8Array }> {
  const read: Uint8Array[] = [];
  let length = 0;
  let firstLineEnd = -1;
  let seenContent = false;
  while (firstLineEnd < 0) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = next.value;
    for (let at = 0; at < chunk.length && firstLineEnd < 0; ) {
      const lineFeed = chunk.indexOf(LF, at);
      const end = lineFeed < 0 ? chunk.length : lineFeed;
      seenContent ||= !isBlank(chunk, at, end);
      if (lineFeed >= 0 && seenContent) firstLineEnd = length + lineFeed + 1;
      at = end + 1;
    }
    read.push(chunksStayValid ? chunk : chunk.slice()); // a stream may reuse its buffer
    length += chunk.length;
  }
  return { read, firstLine: concatenate(read, firstLineEnd < 0 ? length : firstLineEnd) };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const byte = bytes[at];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

/** The first `length` bytes of the chunks, copied only when they span more than one chunk. */
function concatenate(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const first = chunks[0] ?? new Uint8Array(0);
  if (first.length >= length) return first.subarray(0, length);
  const joined = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    const part = chunk.subarray(0, length - at);
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
