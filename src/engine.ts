/**
 * The engine is a parameter of one API, not a second API: the reference model and the WASM kernel
 * (bindings/) both implement a model's engine interface — `Engine` for `dag` here,
 * `OperationsEngine` (operations-engine.ts) and `ExecutiveEngine` (executive-engine.ts) for the
 * others — and their reports are deep-equal. Every model's engine audits bytes the same way,
 * `auditBytes(bytes, options)` (docs/api.md); the dag's DAG is one of its options.
 */

import {
  ArgumentError,
  arrayArgument,
  auditBytesArguments,
  chunkArgument,
  DAG_AUDIT_OPTIONS,
  dagArgument,
  type JournalBytes,
  journalBytesArgument,
  type OptionName,
  optionsArgument,
} from "./engine-arguments.js";
import { concatBytes } from "./journal/bytes.js";
import { chooseModel } from "./journal/choose-model.js";
import { chooseDag, type GivenDag } from "./journal/dag/choose-dag.js";
import { readJsonlJournal } from "./journal/jsonl.js";
import { audit } from "./models/dag/audit.js";
import type { Dag } from "./models/dag/dag.js";
import { replay } from "./models/dag/fold.js";
import type { Report } from "./models/dag/report.js";
import { madeByMakeDag } from "./models/dag/reverse-edges.js";
import type { ModelState } from "./models/dag/state.js";
import type { AuditSource } from "./models/journal-source.js";

export type { JournalBytes } from "./engine-arguments.js";

export type EngineName = "reference" | "wasm";

export interface AuditBytesOptions {
  /** Names the journal in errors. */
  readonly file?: string;
  /** The DAG to audit against (`makeDag(nodes).dag`); the journal header's when not given. */
  readonly dag?: Dag | null;
  /** Names the given DAG in errors (a header that disagrees with it); "the given DAG" by default. */
  readonly dagName?: string;
}

export interface Engine {
  readonly name: EngineName;
  /** The report of docs/models/dag.md for a log of events (any values; the fold judges them). */
  audit(dag: Dag, events: readonly unknown[], source?: AuditSource): Report;
  /** The state the log folds to; a log-integrity fault throws `LogIntegrityError`. */
  replay(dag: Dag, events: readonly unknown[]): ModelState;
  /** Audits a JSONL journal against `options.dag`, or the DAG its header line gives. */
  auditBytes(bytes: JournalBytes, options?: AuditBytesOptions): Promise<Report>;
  /** The older form, still taken: the DAG (null for the header's) before the bytes. */
  auditBytes(dag: Dag | null, bytes: JournalBytes, options?: AuditBytesOptions): Promise<Report>;
}

export const UNNAMED_JOURNAL = "<journal>";

export const referenceEngine: Engine = {
  name: "reference",
  audit(dag: unknown, events: unknown, source?: AuditSource) {
    const call = "audit(dag, events, source)";
    return audit(dagArgument(call, dag), arrayArgument(call, "events", events), source);
  },
  replay(dag: unknown, events: unknown) {
    const call = "replay(dag, events)";
    return replay(dagArgument(call, dag), arrayArgument(call, "events", events));
  },
  async auditBytes(...args: unknown[]) {
    const { bytes, options } = dagAuditBytesArguments(args);
    const file = options.file ?? UNNAMED_JOURNAL;
    const journal = readJsonlJournal(await collectBytes(bytes), file);
    chooseModel(file, journal.header?.model ?? null, "dag", "the dag engine");
    const given = givenDag(options.dag ?? null, options);
    const chosen = chooseDag(file, journal.dag, given, journal.missingHeader);
    return audit(chosen, journal.events, { lines: journal.lines, tornTail: journal.tornTail });
  },
};

/** The bytes and options of a dag engine's `auditBytes`, in either of its forms. */
export function dagAuditBytesArguments(args: readonly unknown[]): {
  readonly bytes: JournalBytes;
  readonly options: AuditBytesOptions;
} {
  if (isDagOrNull(args[0])) {
    const call = "auditBytes(dag, bytes, options)";
    const bytes = journalBytesArgument(call, args[1]);
    return {
      bytes,
      options: withDagArgument<AuditBytesOptions>(call, args[0], args[2], DAG_AUDIT_OPTIONS),
    };
  }
  return auditBytesArguments<AuditBytesOptions>(args[0], args[1], DAG_AUDIT_OPTIONS);
}

/**
 * Where the dag engine's older call forms put the DAG (before the bytes, after a resume's
 * journal) stands a DAG or null; a DAG is never bytes nor options, so the forms cannot be
 * confused.
 */
export function isDagOrNull(value: unknown): value is Dag | null {
  return value === null || madeByMakeDag(value);
}

/** The options of an older dag call form, with its DAG argument moved into them. */
export function withDagArgument<Options extends AuditBytesOptions>(
  call: string,
  dag: Dag | null,
  options: unknown,
  names: readonly OptionName[],
): Options {
  const checked = optionsArgument<Options>(call, options, names);
  if (dag === null) return checked;
  if (checked.dag !== undefined && checked.dag !== null) {
    throw new ArgumentError(call, "options.dag", "absent when the DAG is an argument", "a DAG");
  }
  return { ...checked, dag };
}

export function givenDag(dag: Dag | null, options: AuditBytesOptions): GivenDag | null {
  return dag === null ? null : { dag, name: options.dagName ?? "the given DAG" };
}

/** The chunks of journal bytes, each checked to be bytes as it comes. */
export async function* chunksOf(bytes: JournalBytes): AsyncGenerator<Uint8Array> {
  if (bytes instanceof Uint8Array) {
    yield bytes;
    return;
  }
  let index = 0;
  for await (const chunk of bytes) yield chunkArgument(chunk, index++);
}

export async function collectBytes(bytes: JournalBytes): Promise<Uint8Array> {
  if (bytes instanceof Uint8Array) return bytes;
  const chunks: Uint8Array[] = [];
  for await (const chunk of chunksOf(bytes)) chunks.push(chunk.slice());
  return concatBytes(chunks);
}
