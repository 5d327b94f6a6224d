/**
 * One kernel instance and what every use of it shares: the DAG it has loaded (kept across
 * journals), the last header line's DAG (so a campaign's journals parse it once), which journal
 * holds it, and the turn of limit codes into errors.
 */

import { sameBytes } from "../../src/journal/bytes.js";
import { chooseModel } from "../../src/journal/choose-model.js";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlHeader, readJsonlHeaderModel } from "../../src/journal/jsonl.js";
import type { Dag } from "../../src/models/dag/dag.js";
import type { NodeState } from "../../src/models/dag/state.js";
import type { ModelName } from "../../src/models/registry.js";
import type { KernelExports } from "../kernel.js";
import { limitError, type SessionOwner } from "../streamed-session.js";
import { GATE_MODES, HEADER_MODELS, Limit, STATUSES, VALIDATIONS } from "./codes.js";
import { KernelHeaderDag, referenceDag } from "./header-dag.js";
import { packDag } from "./pack-dag.js";

/** A header line's DAG, and the model the line names ("dag", or null when it names none). */
interface HeaderDag {
  readonly dag: Dag | KernelHeaderDag;
  readonly named: ModelName | null;
}

/** What a journal that outgrows the module's memory is told. */
export const DAG_MEMORY_MESSAGE =
  "the WebAssembly memory cannot grow any further (4 GiB): the DAG or the surfaces are too large";

export class KernelHost implements SessionOwner<KernelExports> {
  private loadedDag: Dag | KernelHeaderDag | null = null;
  private lastHeader: {
    readonly line: Uint8Array;
    readonly dag: Dag | KernelHeaderDag;
    /** The model the line names: "dag", or null when it names none. */
    readonly named: ModelName | null;
  } | null = null;
  /**
   * Where the first line `headerModel` left in the kernel, scanned, lies in its memory; null once
   * the kernel did anything else.
   */
  private scannedHeader: { readonly pointer: number; readonly length: number } | null = null;
  /** Bumped whenever a new journal starts, so a session can tell it lost the kernel. */
  generation = 0;

  constructor(readonly kernel: KernelExports) {}

  useDag(dag: Dag | KernelHeaderDag, file: string): void {
    this.scannedHeader = null;
    if (this.loadedDag === dag) return;
    this.loadedDag = null;
    if (!packDag(this.kernel, referenceDag(dag))) this.check(Limit.MEMORY, file);
    this.loadedDag = dag;
  }

  /**
   * The DAG of a header line, or null when the first line is no header. The kernel reads a plain
   * header itself and then holds its DAG; the host reads any other. The last header's DAG is
   * kept: auditing many journals of one campaign parses and loads its DAG once. `firstLine` is
   * the session's own copy, and is kept as it is (a header can be megabytes).
   */
  headerDag(firstLine: Uint8Array, file: string): Dag | KernelHeaderDag | null {
    const last = this.lastHeader;
    if (last !== null && sameBytes(last.line, firstLine)) {
      if (!(last.dag instanceof KernelHeaderDag) || this.loadedDag === last.dag) return last.dag;
    }
    const read = this.readHeaderInKernel(firstLine, file) ?? this.readHeader(firstLine, file);
    if (read === null) return null;
    const { dag, named } = read;
    const line = dag instanceof KernelHeaderDag ? dag.line : firstLine.slice();
    this.lastHeader = { line, dag, named };
    return dag;
  }

  /**
   * The model a journal's first line names, as `readJsonlHeaderModel` answers, the kernel reading
   * a plain header. The line stays in the kernel, scanned: a `headerDag` of the same line next
   * builds its DAG without writing or scanning it again.
   */
  headerModel(firstLine: Uint8Array, file: string): ModelName | null {
    // The last dag header again (a campaign's next journal): writing it would drop the DAG the
    // kernel holds, and the session would build it again.
    const last = this.lastHeader;
    if (last !== null && sameBytes(last.line, firstLine)) return last.named;
    const pointer = this.writeHeader(firstLine);
    if (pointer !== 0) {
      const model = HEADER_MODELS[this.kernel.headerModel()];
      if (model !== undefined) {
        this.scannedHeader = { pointer, length: firstLine.length };
        return model;
      }
    }
    return readJsonlHeaderModel(firstLine, file);
  }

  private readHeaderInKernel(firstLine: Uint8Array, file: string): HeaderDag | null {
    const written = this.isScannedHeader(firstLine) || this.writeHeader(firstLine) !== 0;
    this.scannedHeader = null;
    this.loadedDag = null;
    if (!written) return null;
    // Read before the DAG is loaded: loading it ends the kernel's reading of the line.
    const named = HEADER_MODELS[this.kernel.headerModel()] ?? null;
    if (this.kernel.loadHeader() === 0) return null;
    const dag = new KernelHeaderDag(this.kernel, firstLine, file);
    this.loadedDag = dag;
    return { dag, named };
  }

  private isScannedHeader(firstLine: Uint8Array): boolean {
    const scanned = this.scannedHeader;
    if (scanned === null || scanned.length !== firstLine.length) return false;
    return sameBytes(
      new Uint8Array(this.kernel.memory.buffer, scanned.pointer, scanned.length),
      firstLine,
    );
  }

  /** Writes a first line where the kernel reads headers: where, or 0 when its memory cannot hold it. */
  private writeHeader(firstLine: Uint8Array): number {
    this.loadedDag = null;
    this.scannedHeader = null;
    const pointer = this.kernel.prepareHeader(firstLine.length);
    if (pointer !== 0)
      new Uint8Array(this.kernel.memory.buffer, pointer, firstLine.length).set(firstLine);
    return pointer;
  }

  private readHeader(firstLine: Uint8Array, file: string): HeaderDag | null {
    const header = readJsonlHeader(firstLine, file, "dag");
    if (header === null) return null;
    chooseModel(file, header.model, "dag", "the dag engine");
    return { dag: dagOfHeader(header) as Dag, named: header.model };
  }

  /** Turns a limit code into an error naming `file`; the DAG is loaded again after one. */
  check(limit: number, file: string): void {
    if (limit === Limit.NONE) return;
    this.forgetDag();
    throw limitError(this.kernel, file, limit, DAG_MEMORY_MESSAGE);
  }

  /** Whatever a limit left in the kernel, the next journal loads its DAG again. */
  forgetDag(): void {
    this.loadedDag = null;
  }

  nodeState(node: number, surface: unknown): NodeState {
    const validation = VALIDATIONS[this.kernel.nodeValidation(node)] ?? null;
    const mode = GATE_MODES[this.kernel.nodeMode(node)] as NonNullable<
      NodeState["deposit"]
    >["mode"];
    return Object.freeze({
      status: STATUSES[this.kernel.nodeStatus(node)] as NodeState["status"],
      phase: this.kernel.nodePhase(node),
      deposit:
        validation === null
          ? null
          : Object.freeze({ validation, mode, phase: this.kernel.nodeDepositPhase(node) }),
      surface: surface ?? EMPTY_SURFACE,
    });
  }
}

const EMPTY_SURFACE: readonly string[] = Object.freeze([]);
