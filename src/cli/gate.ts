import { existsSync, renameSync, writeFileSync } from "node:fs";
import {
  gateViolation,
  type JournalInvariantViolation,
} from "../gate/journal-invariant-violation.js";
import { JournalError } from "../journal/errors.js";
import { ownFormatOf } from "../journal/model-inputs.js";
import { readFileHashed, resumableFile } from "../journal/read-descriptor.js";
import { readFileChunks, readStoredFileBytes } from "../journal/read-file-bytes.js";
import type { TornTail } from "../models/journal-source.js";
import { MODEL_NAMES, type ModelAnswer, type ModelName } from "../models/registry.js";
import { journalReports } from "../models/report-frame.js";
import { journalTitle } from "../report/wording.js";
import { plural } from "../text/format-units.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import {
  type AuditOptions,
  type AuditRun,
  auditJournalFile,
  auditJsonlStream,
  DEFAULT_ENGINE,
  ENGINE_NAMES,
  peekJournalModel,
} from "./engine.js";
import { wordList, wrapHelp } from "./help-columns.js";
import {
  type OneJournal,
  oneJournal,
  STDIN_ARGUMENT,
  standardInputChunks,
} from "./journal-inputs.js";
import { chooseModelFlag, MODEL_FLAG_HELP } from "./model-choice.js";
import {
  givenModelFlags,
  type ModelFlagValues,
  modelFlagOptions,
  modelFlagsHelp,
  modelFlagsUsage,
} from "./model-flags.js";
import { renderJson } from "./render-json.js";
import { openSnapshottingAuditor, type SnapshottingAuditor } from "./snapshotting-auditor.js";

const HELP = `Usage: statefold gate <journal|-> ${modelFlagsUsage()} [--strict] [--snapshot FILE] [--engine NAME]
                      [--model NAME|FILE] [--format text|json]

${wrapHelp(`The boot gate: may a runtime resume from this journal? Exit 0 (resume) when the journal is conformant to its model (strictly, with --strict) — ${wordList(MODEL_NAMES, "or")}, the one its header names or --model's, as for statefold audit; exit 1 (refuse) otherwise, naming the rule that broke first and the entry that broke it.`, 0, 93)}

A torn tail (a last line cut mid-write: no line end, does not parse) does not refuse: the
runtime never committed that entry. The gate warns on stderr with its line and its byte offset,
the length to truncate the journal to before appending to it.

With --snapshot FILE the gate is incremental, for a journal that only grows: when FILE exists,
the journal's prefix it covers is checked (SHA-256) and only what was appended since is audited;
after a conformant audit FILE is written anew (left as it is when no line was completed since it
was taken). A tampered, truncated, version-mismatched or
foreign snapshot, or a journal whose covered prefix changed, is refused (exit 2) — delete the
snapshot to audit the whole journal again. With - (the journal on the standard input) the whole
journal is piped each time: the covered prefix is hashed as it streams by, the rest audited.

Options:
${modelFlagsHelp(20, 93, true)}  --strict          refuse illegal events too
  --snapshot FILE   keep the auditor's state in FILE between runs (JSONL journals of every
                    model, wasm engine)
  --engine NAME     wasm (default) or reference
  --model NAME|FILE the journal's model (by default its header's, else dag): ${wrapHelp(MODEL_FLAG_HELP, 20, 93, 74)}
  --format FORMAT   text (default): one line, resume or refuse; json: {"file", "decision",
                    "strict", "events", "tornTail", "refusal"} (docs/gate.md)
  -h, --help        show this help

Exit status: 0 resume, 1 refuse, 2 bad usage or unreadable input.
`;

const GATE_FORMATS = ["text", "json"] as const;

export const gateCommand: Command = {
  name: "gate",
  help: HELP,
  run: runGate,
};

async function runGate(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(gateCommand, args, output, {
    ...modelFlagOptions(),
    strict: { type: "boolean", default: false },
    snapshot: { type: "string" },
    engine: { type: "string", default: DEFAULT_ENGINE },
    model: { type: "string" },
    format: { type: "string", default: "text" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  const [given, ...extra] = positionals;
  if (given === undefined || extra.length > 0) {
    throw new UsageError(`gate takes one journal, found ${positionals.length}`, "gate");
  }
  const format = oneOf("gate", "--format", values.format, GATE_FORMATS);
  const engine = oneOf("gate", "--engine", values.engine, ENGINE_NAMES);
  const { model } = await chooseModelFlag("gate", values.model);
  const modelFlags = givenModelFlags(values);
  const source = oneJournal(given);
  const journal = source.path;
  const { events, tornTail, violation } =
    values.snapshot === undefined
      ? gated(
          (await auditOneJournal(source, { modelFlags, engine, model })).report,
          journal,
          values.strict,
        )
      : await auditWithSnapshot(source, values.snapshot, modelFlags, engine, values.strict, model);
  if (tornTail !== null) output.stderr(`statefold: ${tornTailWarning(journal, tornTail)}\n`);
  output.stdout(
    format === "json"
      ? renderJson(gateJson(journal, { events, tornTail, violation }, values.strict))
      : gateLine(journal, { events, tornTail, violation }, values.strict),
  );
  return violation === null ? ExitCode.conformant : ExitCode.notConformant;
}

function auditOneJournal(source: OneJournal, options: AuditOptions): Promise<AuditRun> {
  return source.kind === "file"
    ? auditJournalFile(source.path, options)
    : auditJsonlStream(source.path, standardInputChunks(), options);
}

/** `resume: …` or `refuse: …`, the one line a shell script reads. */
function gateLine(
  journal: string,
  { events, tornTail, violation }: Gated,
  strict: boolean,
): string {
  if (violation !== null) {
    const { file, message } = violation;
    return `refuse: ${message.replace(`${file}: refusing to resume: `, `${file}: `)}\n`;
  }
  const conformant = strict ? "strictly conformant" : "conformant";
  const torn = tornTail === null ? "" : `, with a torn tail at line ${tornTail.line}`;
  return `resume: ${journal} is ${conformant} (${plural(events, "event")})${torn}\n`;
}

/**
 * The torn tail, for whoever appends next: a runtime that appends after the cut line would glue
 * its next entry onto it, so the journal must be cut back to where that line starts (docs/gate.md,
 * "The torn tail").
 */
function tornTailWarning(journal: string, tornTail: TornTail): string {
  const { line, offset } = tornTail;
  const detail = `warning: torn tail: the last line was cut mid-write (no line end, it does not parse) and is left out; truncate the journal to ${offset} bytes before appending to it`;
  return new JournalError(journal, detail, line).message;
}

/** The gate's decision as JSON (docs/gate.md, "JSON output"). */
function gateJson(
  journal: string,
  { events, tornTail, violation }: Gated,
  strict: boolean,
): unknown {
  return {
    file: journal,
    decision: violation === null ? "resume" : "refuse",
    strict,
    events,
    tornTail,
    refusal:
      violation === null
        ? null
        : {
            rule: violation.rule,
            index: violation.event?.index ?? null,
            line: violation.event?.line ?? null,
            message: violation.message,
          },
  };
}

/** What the gate says of a journal: its size, its torn tail, and null to resume, else why it refuses. */
interface Gated {
  readonly events: number;
  readonly tornTail: TornTail | null;
  readonly violation: JournalInvariantViolation | null;
}

/**
 * A stream split into journals (docs/models/data.md, "A stream of journals") is refused at the
 * breach that comes first in the file, whichever journal it is in: that is where a runtime
 * resuming from it would have gone wrong first. Its torn tail is the stream's, in every report.
 */
function gated(answer: ModelAnswer, journal: string, strict: boolean): Gated {
  const reports = journalReports(answer);
  const place = (violation: JournalInvariantViolation) =>
    violation.event?.line ?? violation.event?.index ?? Number.POSITIVE_INFINITY;
  let violation: JournalInvariantViolation | null = null;
  for (const report of reports) {
    const found = gateViolation(report, journalTitle(journal, report), strict);
    if (found !== null && (violation === null || place(found) < place(violation)))
      violation = found;
  }
  const events = reports.reduce((sum, report) => sum + report.events, 0);
  return { events, tornTail: reports[0]?.tornTail ?? null, violation };
}

/** Resumes from the snapshot when there is one, and leaves a new one behind a journal that passes. */
async function auditWithSnapshot(
  source: OneJournal,
  snapshotPath: string,
  modelFlags: ModelFlagValues,
  engineName: (typeof ENGINE_NAMES)[number],
  strict: boolean,
  model: ModelName | undefined,
): Promise<Gated> {
  const journal = source.path;
  if (engineName !== "wasm") throw new UsageError("--snapshot needs the wasm engine", "gate");
  if (ownFormatOf(journal) !== null)
    throw new UsageError("--snapshot works on JSONL journals", "gate");
  if (snapshotPath === STDIN_ARGUMENT) {
    throw new UsageError("--snapshot names a file: the standard input (-) cannot hold one", "gate");
  }
  if (snapshotPath === journal || Object.values(modelFlags).includes(snapshotPath)) {
    throw new UsageError(
      "--snapshot must not name the journal or the DAG file: it is overwritten",
      "gate",
    );
  }
  // A resume of a file has the prefix it checks hashed by a thread reading the journal, started
  // first: the snapshot is read and its state restored meanwhile. A first snapshot of a file
  // hashes the whole journal: its reader does, on its own thread. The standard input is read
  // once, from its start: a resume hashes its prefix as it streams by.
  let peekedChunks: AsyncIterable<Uint8Array> | null = null;
  const fromStart = () => peekedChunks as AsyncIterable<Uint8Array>;
  const resuming = existsSync(snapshotPath);
  const resumable = resuming && source.kind === "file" ? resumableFile(journal, fromStart) : null;
  let auditor: SnapshottingAuditor;
  try {
    const snapshotBytes = resuming ? readStoredFileBytes(snapshotPath) : null;
    const hashed = !resuming && source.kind === "file" ? readFileHashed(journal) : null;
    const chunks =
      source.kind === "stdin" ? standardInputChunks() : (hashed?.chunks ?? readFileChunks(journal));
    const peeked = await peekJournalModel(chunks, journal, "wasm", model);
    peekedChunks = peeked.chunks;
    const resume =
      snapshotBytes === null ? null : { bytes: snapshotBytes, journal: resumable ?? fromStart() };
    const opened = await openSnapshottingAuditor(peeked.model, resume, {
      file: journal,
      modelFlags,
      model,
      snapshotFile: snapshotPath,
      digests: hashed?.digests,
    });
    auditor = resume === null ? await fed(opened, peeked.chunks) : opened;
  } finally {
    resumable?.close();
    // A resume reads the journal's start only as far as its header: the file is closed here.
    await peekedChunks?.[Symbol.asyncIterator]().return?.();
  }
  // Nothing appended but a partial line: the snapshot on disk covers the same lines, and stands.
  const taken = auditor.advancedSinceResume() ? auditor.snapshot() : null;
  const result = gated(auditor.finish(), journal, strict);
  if (result.violation === null && taken !== null) writeAtomically(snapshotPath, taken);
  return result;
}

async function fed<A extends { write(chunk: Uint8Array): void }>(
  auditor: A,
  chunks: AsyncIterable<Uint8Array>,
): Promise<A> {
  for await (const chunk of chunks) auditor.write(chunk);
  return auditor;
}

/** A reader never sees half a snapshot: write beside it, then rename over it. */
function writeAtomically(path: string, bytes: Uint8Array): void {
  const partial = `${path}.partial`;
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, path);
  } catch (error) {
    throw new JournalError(path, `cannot write the snapshot: ${(error as Error).message}`);
  }
}
