/**
 * `auditJournals`: the body of `statefold audit` — every journal audited, files on worker threads
 * when there are several and `--jobs` allows, the standard input on this thread, each verdict
 * printed in the order the journals were given as soon as it and those before it are in.
 * Unreadable journals are reported in their turn and do not stop the others.
 */
import { availableParallelism } from "node:os";
import type { ModelName } from "../models/registry.js";
import { journalReports } from "../models/report-frame.js";
import type { UnreadableJournal } from "../report/views.js";
import { AuditPool } from "./audit-pool.js";
import { AuditPrinter, type PrinterOptions } from "./audit-printer.js";
import { AuditTally } from "./audit-tally.js";
import type { CliOutput } from "./command.js";
import type { AuditedJournal, EngineName } from "./engine.js";
import {
  type FileAuditor,
  type FileAuditorOptions,
  InProcessAuditor,
  type ProgressListener,
} from "./file-auditor.js";
import type { JournalInput } from "./journal-inputs.js";
import type { JournalOutcome } from "./journal-outcome.js";
import { type ModelFlagValues, readModelFlagFiles } from "./model-flags.js";
import { ProgressBar, type ProgressTerminal } from "./progress-bar.js";

export interface AuditJournalsOptions {
  readonly engine: EngineName;
  readonly modelFlags: ModelFlagValues;
  readonly model: ModelName | undefined;
  /** The model file `model` was loaded from, for worker threads to load too. */
  readonly modelFile?: string | undefined;
  /** Worker threads at most (1 audits on this thread); null for the default, see `workerCount`. */
  readonly jobs: number | null;
  /** Where to draw the progress bar; null for none. */
  readonly progress: ProgressTerminal | null;
  readonly printer: PrinterOptions;
  /** Whether the reports are kept and returned (for an HTML report); else only counted. */
  readonly keepReports: boolean;
  /** Where the standard input's bytes come from, when `-` is among the inputs. */
  readonly stdin: () => AsyncIterable<Uint8Array>;
}

export interface AuditedJournals {
  /** Every journal, audited or unreadable, in input order, when `keepReports`; else empty. */
  readonly journals: readonly (AuditedJournal | UnreadableJournal)[];
  readonly unreadable: number;
  /** Journals read that do not pass (strictly, under the printer's `strict`). */
  readonly failing: number;
}

export async function auditJournals(
  inputs: readonly JournalInput[],
  options: AuditJournalsOptions,
  output: CliOutput,
): Promise<AuditedJournals> {
  // A DAG file that cannot be read is one error, not the same error once per journal.
  await readModelFlagFiles(options.modelFlags);
  const { engine, modelFlags, model, modelFile } = options;
  const auditorOptions: FileAuditorOptions = {
    engine,
    modelFile,
    modelFlags,
    model,
    printer: options.printer,
    keepReport: options.keepReports,
  };
  const inProcess = new InProcessAuditor(auditorOptions);
  const workers = workerCount(inputs, options);
  const fileAuditor: FileAuditor =
    workers > 1 ? new AuditPool(workers - 1, auditorOptions, inProcess) : inProcess;
  const tally = new AuditTally(inputs.length, bytesTotal(inputs));
  const bar = options.progress === null ? null : new ProgressBar(options.progress, tally);
  const say = (write: () => void) => (bar === null ? write() : bar.interrupt(write));
  const printer = new AuditPrinter(options.printer, (text) => say(() => output.stdout(text)));
  const journals: (AuditedJournal | UnreadableJournal)[] = [];
  let readable = 0;
  let unreadable = 0;
  try {
    const pending = inputs.map((input, index) => {
      const listener: ProgressListener | undefined =
        bar === null ? undefined : (progress) => tally.progress(index, progress);
      return startAudit(input, listener, { files: fileAuditor, stdin: inProcess }, options);
    });
    // Awaited in order below; a bug that fails a later one must not go unhandled meanwhile.
    for (const audit of pending) audit.catch(() => {});
    for (const [index, audit] of pending.entries()) {
      const outcome = await audit;
      if ("unreadable" in outcome) {
        unreadable += 1;
        tally.finish(index, 0, null, 0);
        say(() => output.stderr(`statefold: ${outcome.unreadable}\n`));
        const journal = { file: outcome.file, error: outcome.unreadable };
        printer.unreadable(journal);
        if (options.keepReports) journals.push(journal);
        continue;
      }
      readable += outcome.journals;
      tally.finish(index, outcome.bytesRead, outcome.events, outcome.failing);
      const { file, report } = outcome;
      if (report !== null)
        journals.push(...journalReports(report).map((one) => ({ file, report: one })));
      printer.journal(outcome.output);
    }
    printer.finish(readable + unreadable, readable, tally);
  } finally {
    bar?.stop();
    await Promise.all([fileAuditor.close(), inProcess.close()]);
  }
  return { journals, unreadable, failing: tally.totals().failing };
}

/**
 * Starting a worker thread and its engine costs about as much as the kernel auditing a few tens
 * of megabytes (0.1-0.5 s measured on a loaded 2-core machine), so by default a worker is started
 * per 32 MB of input, up to the number of cores; the reference engine, ~100 times slower per
 * byte, is worth a worker at a hundredth of that. An explicit --jobs is taken as it is.
 */
const WORKER_INPUT_BYTES_MIN = 32e6;

function workerCount(inputs: readonly JournalInput[], options: AuditJournalsOptions): number {
  const files = inputs.filter((input) => input.kind === "file");
  if (options.jobs !== null) return Math.min(options.jobs, files.length);
  const bytes = files.reduce((sum, file) => sum + (file.bytes ?? 0), 0);
  const perWorker =
    options.engine === "reference" ? WORKER_INPUT_BYTES_MIN / 100 : WORKER_INPUT_BYTES_MIN;
  return Math.min(availableParallelism(), files.length, Math.ceil(bytes / perWorker));
}

function bytesTotal(inputs: readonly JournalInput[]): number | null {
  let total = 0;
  for (const input of inputs) {
    if (input.kind === "stdin") return null;
    if (input.kind === "file") {
      if (input.bytes === null) return null;
      total += input.bytes;
    }
  }
  return total;
}

interface Auditors {
  readonly files: FileAuditor;
  readonly stdin: InProcessAuditor;
}

function startAudit(
  input: JournalInput,
  onProgress: ProgressListener | undefined,
  auditors: Auditors,
  options: AuditJournalsOptions,
): Promise<JournalOutcome> {
  switch (input.kind) {
    case "file":
      return auditors.files.audit(input.path, input.bytes, onProgress);
    case "stdin":
      return auditors.stdin.auditStream(input.path, options.stdin(), onProgress);
    case "unreadable":
      return Promise.resolve({ file: input.path, unreadable: input.message });
    default: {
      const unreachable: never = input;
      return unreachable;
    }
  }
}
