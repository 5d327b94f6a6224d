/**
 * The dag model's engine interface (docs/models/dag.md) and its reference engine; the kernel's is
 * bindings/dag/engine.ts. Beside the shared calls (src/engine.ts) it keeps `audit` and `replay` of
 * parsed events, and the older call forms that put the DAG before the bytes.
 */
import {
  collectBytes,
  type JournalOptions,
  type ModelEngine,
  UNNAMED_JOURNAL,
} from "../../engine.js";
import {
  ArgumentError,
  arrayArgument,
  auditBytesArguments,
  type JournalBytes,
  journalBytesArgument,
  type OptionRules,
  optionsArgument,
} from "../../engine-arguments.js";
import { chooseModel } from "../../journal/choose-model.js";
import { chooseDag, type GivenDag } from "../../journal/dag/choose-dag.js";
import { dagOfHeader } from "../../journal/dag/header.js";
import { readJsonlJournal } from "../../journal/jsonl.js";
import { referenceAuditing } from "../../reference-auditor.js";
import type { AuditSource } from "../journal-source.js";
import { audit } from "./audit.js";
import type { Dag } from "./dag.js";
import { replay } from "./fold.js";
import { DAG_AUDIT_OPTIONS, DAG_AUDITOR_OPTIONS, dagArgument } from "./option-rules.js";
import type { Report } from "./report.js";
import { madeByMakeDag } from "./reverse-edges.js";
import type { ModelState } from "./state.js";

export interface AuditBytesOptions extends JournalOptions {
  /** The DAG to audit against (`makeDag(nodes).dag`); the journal header's when not given. */
  readonly dag?: Dag | null;
  /** Names the given DAG in errors (a header that disagrees with it); "the given DAG" by default. */
  readonly dagName?: string;
}

export interface Engine extends ModelEngine<Report, AuditBytesOptions> {
  /** The report of docs/models/dag.md for a log of events (any values; the fold judges them). */
  audit(dag: Dag, events: readonly unknown[], source?: AuditSource): Report;
  /** The state the log folds to; a log-integrity fault throws `LogIntegrityError`. */
  replay(dag: Dag, events: readonly unknown[]): ModelState;
  /** Audits a JSONL journal against `options.dag`, or the DAG its header line gives. */
  auditBytes(bytes: JournalBytes, options?: AuditBytesOptions): Promise<Report>;
  /** The older form, still taken: the DAG (null for the header's) before the bytes. */
  auditBytes(dag: Dag | null, bytes: JournalBytes, options?: AuditBytesOptions): Promise<Report>;
}

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
    return auditWhole(await collectBytes(bytes), options);
  },
  ...referenceAuditing("dag", auditWhole, DAG_AUDITOR_OPTIONS),
};

function auditWhole(bytes: Uint8Array, options: AuditBytesOptions): Report {
  const file = options.file ?? UNNAMED_JOURNAL;
  const journal = readJsonlJournal(bytes, file);
  chooseModel(file, journal.header?.model ?? null, "dag", "the dag engine");
  const given = givenDag(options.dag ?? null, options);
  const chosen = chooseDag(file, dagOfHeader(journal.header), given, journal.missingHeader);
  return audit(chosen, journal.events, { lines: journal.lines, tornTail: journal.tornTail });
}

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
  rules: OptionRules,
): Options {
  const checked = optionsArgument<Options>(call, options, rules);
  if (dag === null) return checked;
  if (checked.dag !== undefined && checked.dag !== null) {
    throw new ArgumentError(call, "options.dag", "absent when the DAG is an argument", "a DAG");
  }
  return { ...checked, dag };
}

export function givenDag(dag: Dag | null, options: AuditBytesOptions): GivenDag | null {
  return dag === null ? null : { dag, name: options.dagName ?? "the given DAG" };
}
