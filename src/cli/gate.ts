import { existsSync, renameSync, writeFileSync } from "node:fs";
import {
  gateViolation,
  type JournalInvariantViolation,
} from "../gate/journal-invariant-violation.js";
import { JournalError } from "../journal/errors.js";
import { isLispExprJournal } from "../journal/index.js";
import { peekModel } from "../journal/peek-model.js";
import { readFileHashed, resumableFile } from "../journal/read-descriptor.js";
import { readFileBytes, readFileChunks } from "../journal/read-file-bytes.js";
import { MODEL_NAMES, type ModelName, type ModelReport } from "../models/registry.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommand,
  UsageError,
} from "./command.js";
import { auditJournalFile, DEFAULT_ENGINE, ENGINE_NAMES, headerModelReader } from "./engine.js";
import { openSnapshottingAuditor, type SnapshottingAuditor } from "./snapshotting-auditor.js";

const HELP = `Usage: statefold gate <journal> [--dag FILE] [--strict] [--snapshot FILE] [--engine NAME]
                      [--model NAME]

The boot gate: may a runtime resume from this journal? Exit 0 (resume) when the journal is
conformant (strictly, with --strict); exit 1 (refuse) otherwise, naming the rule that broke first
and the event that broke it.

With --snapshot FILE the gate is incremental, for a journal that only grows: when FILE exists,
the journal's prefix it covers is checked (SHA-256) and only what was appended since is audited;
after a conformant audit FILE is written anew (left as it is when no line was completed since it
was taken). A tampered, truncated, version-mismatched or
foreign snapshot, or a journal whose covered prefix changed, is refused (exit 2) — delete the
snapshot to audit the whole journal again.

Options:
  --dag FILE        the DAG for a journal without a header line
  --strict          refuse illegal events too
  --snapshot FILE   keep the auditor's state in FILE between runs (JSONL journals of every
                    model, wasm engine)
  --engine NAME     wasm (default) or reference
  --model NAME      the journal's model: dag, operations or executive (by default its
                    header's, else dag)
  -h, --help        show this help

Exit status: 0 resume, 1 refuse, 2 bad usage or unreadable input.
`;

export const gateCommand: Command = {
  name: "gate",
  help: HELP,
  run: runGate,
};

async function runGate(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(gateCommand, args, output, {
    dag: { type: "string" },
    strict: { type: "boolean", default: false },
    snapshot: { type: "string" },
    engine: { type: "string", default: DEFAULT_ENGINE },
    model: { type: "string" },
  });
  if (parsed === null) return ExitCode.conformant;
  const { values, positionals } = parsed;
  const [journal, ...extra] = positionals;
  if (journal === undefined || extra.length > 0) {
    throw new UsageError(`gate takes one journal, found ${positionals.length}`, "gate");
  }
  const engine = oneOf("gate", "--engine", values.engine, ENGINE_NAMES);
  const model: ModelName | undefined =
    values.model === undefined ? undefined : oneOf("gate", "--model", values.model, MODEL_NAMES);
  const { report, violation } =
    values.snapshot === undefined
      ? gated(
          (await auditJournalFile(journal, { dagPath: values.dag, engine, model })).report,
          journal,
          values.strict,
        )
      : await auditWithSnapshot(journal, values.snapshot, values.dag, engine, values.strict, model);
  if (violation !== null) {
    output.stdout(
      `refuse: ${violation.message.replace(`${journal}: refusing to resume: `, `${journal}: `)}\n`,
    );
    return ExitCode.notConformant;
  }
  output.stdout(
    `resume: ${journal} is ${values.strict ? "strictly conformant" : "conformant"} (${report.events} events)\n`,
  );
  return ExitCode.conformant;
}

/** A report with the gate's verdict on it: null to resume, else why it refuses. */
interface Gated {
  readonly report: ModelReport;
  readonly violation: JournalInvariantViolation | null;
}

function gated(report: ModelReport, journal: string, strict: boolean): Gated {
  return { report, violation: gateViolation(report, journal, strict) };
}

/** Resumes from the snapshot when there is one, and leaves a new one behind a journal that passes. */
async function auditWithSnapshot(
  journal: string,
  snapshotPath: string,
  dagPath: string | undefined,
  engineName: (typeof ENGINE_NAMES)[number],
  strict: boolean,
  model: ModelName | undefined,
): Promise<Gated> {
  if (engineName !== "wasm") throw new UsageError("--snapshot needs the wasm engine", "gate");
  if (isLispExprJournal(journal))
    throw new UsageError("--snapshot works on JSONL journals", "gate");
  if (snapshotPath === journal || snapshotPath === dagPath) {
    throw new UsageError(
      "--snapshot must not name the journal or the DAG file: it is overwritten",
      "gate",
    );
  }
  // A resume has the prefix it checks hashed by a thread reading the journal, started first: the
  // snapshot is read and its state restored meanwhile. A first snapshot hashes the whole journal:
  // its reader does, on its own thread.
  let peekedChunks: AsyncIterable<Uint8Array> | null = null;
  const resumable = existsSync(snapshotPath)
    ? resumableFile(journal, () => peekedChunks as AsyncIterable<Uint8Array>)
    : null;
  let auditor: SnapshottingAuditor;
  try {
    const snapshot =
      resumable === null ? null : { bytes: readFileBytes(snapshotPath), journal: resumable };
    const hashed = snapshot === null ? readFileHashed(journal) : null;
    const peeked = await peekModel(
      hashed?.chunks ?? readFileChunks(journal),
      journal,
      headerModelReader("wasm"),
    );
    peekedChunks = peeked.chunks;
    const opened = await openSnapshottingAuditor(peeked.model, snapshot, {
      file: journal,
      dagPath,
      model,
      snapshotFile: snapshotPath,
      digests: hashed?.digests,
    });
    auditor = snapshot === null ? await fed(opened, peeked.chunks) : opened;
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
