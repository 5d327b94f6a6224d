/**
 * The engine is a parameter of one API, not a second API: the reference model and the WASM kernel
 * (bindings/) both implement a model's engine interface — `Engine` for `dag` here,
 * `OperationsEngine` for `operations` (operations-engine.ts) — and their reports are deep-equal.
 */
import { concatBytes } from "./journal/bytes.js";
import { chooseDag, type GivenDag } from "./journal/choose-dag.js";
import { chooseModel } from "./journal/choose-model.js";
import { readJsonlJournal } from "./journal/jsonl.js";
import { audit } from "./models/dag/audit.js";
import type { Dag } from "./models/dag/dag.js";
import { replay } from "./models/dag/fold.js";
import type { Report } from "./models/dag/report.js";
import type { ModelState } from "./models/dag/state.js";
import type { AuditSource } from "./models/journal-source.js";

export type EngineName = "reference" | "wasm";

/**
 * JSONL bytes: all at once, or as a stream of chunks of any size. A chunk need only stay valid
 * until the next is requested (engines copy what they keep).
 */
export type JournalBytes = Uint8Array | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface AuditBytesOptions {
  /** Names the journal in errors. */
  readonly file?: string;
  /** Names the given DAG in errors (a header that disagrees with it); "the given DAG" by default. */
  readonly dagName?: string;
}

export interface Engine {
  readonly name: EngineName;
  /** The report of docs/models/dag.md for a log of events (any values; the fold judges them). */
  audit(dag: Dag, events: readonly unknown[], source?: AuditSource): Report;
  /** The state the log folds to; a log-integrity fault throws `LogIntegrityError`. */
  replay(dag: Dag, events: readonly unknown[]): ModelState;
  /** Audits a JSONL journal; the DAG may come from its header line instead (`dag` null). */
  auditBytes(dag: Dag | null, bytes: JournalBytes, options?: AuditBytesOptions): Promise<Report>;
}

export const UNNAMED_JOURNAL = "<journal>";

export const referenceEngine: Engine = {
  name: "reference",
  audit,
  replay,
  async auditBytes(dag, bytes, options = {}) {
    const file = options.file ?? UNNAMED_JOURNAL;
    const journal = readJsonlJournal(await collectBytes(bytes), file);
    chooseModel(file, journal.header?.model ?? null, "dag", "the dag engine");
    const chosen = chooseDag(file, journal.dag, givenDag(dag, options), journal.missingHeader);
    return audit(chosen, journal.events, { lines: journal.lines, tornTail: journal.tornTail });
  },
};

export function givenDag(dag: Dag | null, options: AuditBytesOptions): GivenDag | null {
  return dag === null ? null : { dag, name: options.dagName ?? "the given DAG" };
}

export async function* chunksOf(bytes: JournalBytes): AsyncGenerator<Uint8Array> {
  if (bytes instanceof Uint8Array) {
    yield bytes;
    return;
  }
  for await (const chunk of bytes) yield chunk;
}

export async function collectBytes(bytes: JournalBytes): Promise<Uint8Array> {
  if (bytes instanceof Uint8Array) return bytes;
  const chunks: Uint8Array[] = [];
  for await (const chunk of chunksOf(bytes)) chunks.push(chunk.slice());
  return concatBytes(chunks);
}
