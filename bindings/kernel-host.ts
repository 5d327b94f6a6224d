/**
 * One kernel instance and what every use of it shares: the DAG it has loaded (kept across
 * journals), the last header line's DAG (so a campaign's journals parse it once), the turn of
 * limit codes into errors, and the copy of bytes into its line buffer.
 */

import { sameBytes } from "../src/journal/bytes.js";
import { chooseModel } from "../src/journal/choose-model.js";
import { JournalError } from "../src/journal/errors.js";
import { readJsonlHeader } from "../src/journal/jsonl.js";
import type { Dag } from "../src/models/dag/dag.js";
import type { NodeState } from "../src/models/dag/state.js";
import { GATE_MODES, Limit, STATUSES, VALIDATIONS } from "./codes.js";
import type { KernelExports } from "./kernel.js";
import { packDag } from "./pack-dag.js";

export class KernelHost {
  private loadedDag: Dag | null = null;
  private lastHeader: { readonly line: Uint8Array; readonly dag: Dag } | null = null;
  /** Bumped whenever a new journal starts, so a session can tell it lost the kernel. */
  journalGeneration = 0;

  constructor(readonly kernel: KernelExports) {}

  useDag(dag: Dag, file: string): void {
    if (this.loadedDag === dag) return;
    this.loadedDag = null;
    if (!packDag(this.kernel, dag)) this.check(Limit.MEMORY, file);
    this.loadedDag = dag;
  }

  /**
   * The DAG of a header line, or null when the first line is no header. The last header's DAG is
   * kept: auditing many journals of one campaign parses and loads its DAG once.
   */
  headerDag(firstLine: Uint8Array, file: string): Dag | null {
    if (this.lastHeader !== null && sameBytes(this.lastHeader.line, firstLine))
      return this.lastHeader.dag;
    const header = readJsonlHeader(firstLine, file);
    if (header === null) return null;
    chooseModel(file, header.model, "dag", "the dag engine");
    const dag = header.dag as Dag;
    this.lastHeader = { line: firstLine.slice(), dag };
    return dag;
  }

  /** Copies bytes into the kernel's line buffer as room allows, auditing the lines they complete. */
  feed(bytes: Uint8Array, file: string): void {
    for (let at = 0; at < bytes.length; ) {
      const length = Math.min(this.kernel.writeCapacity(), bytes.length - at);
      new Uint8Array(this.kernel.memory.buffer, this.kernel.writePointer(), length).set(
        bytes.subarray(at, at + length),
      );
      at += length;
      this.check(this.kernel.consume(length), file);
    }
  }

  check(limit: number, file: string): void {
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
