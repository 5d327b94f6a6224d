/**
 * `statefold audit --html FILE`: writes one self-contained HTML report for every journal the audit
 * read (src/report/). A model whose view replays the journal does so on its WASM engine whichever
 * engine audited — both give the same states, and the reference is far too slow to replay a large
 * journal's prefixes. The page is a by-product: it never changes the audit's exit status, but a target
 * that is one of the audit's inputs is refused rather than overwritten.
 */
import { statSync, writeFileSync } from "node:fs";
import { JournalError } from "../journal/errors.js";
import type { ModelFlagValues } from "../journal/model-command-line.js";
import { gatherJournalView, verdictsOnlyView } from "../report/gather-journal-view.js";
import { renderHtmlReport } from "../report/render-html-report.js";
import type { ReportedJournal, UnreadableJournal } from "../report/views.js";
import { UsageError } from "./command.js";
import type { AuditedJournal } from "./engine.js";
import { writeFailureReason } from "./file-sink.js";
import { packageVersion } from "./version.js";

export interface AuditHtmlOptions {
  /** The models' flags given (`--dag FILE`): their files are inputs too. */
  readonly modelFlags: ModelFlagValues;
  readonly strict: boolean;
  /** The paths the audit was given (journals, directories, `-`), besides the files it read. */
  readonly inputs: readonly string[];
  /** How the audit names a journal it read from standard input, if it reads one. */
  readonly stdinName?: string;
}

/** Every journal, audited or unreadable (a row of the summary), in the order they were given. */
export async function writeAuditHtml(
  target: string,
  journals: readonly (AuditedJournal | UnreadableJournal)[],
  options: AuditHtmlOptions,
): Promise<void> {
  const files = journals
    .map((journal) => journal.file)
    .filter((file) => file !== options.stdinName);
  const inputs = [...options.inputs, ...files, ...Object.values(options.modelFlags)];
  refuseToOverwriteAnInput(target, inputs);
  const views: ReportedJournal[] = [];
  // One journal at a time: each is read whole, so memory is bounded by the largest, not the sum.
  for (const journal of journals) {
    if ("error" in journal) {
      views.push(journal);
      continue;
    }
    views.push(
      journal.file === options.stdinName
        ? verdictsOnlyView(
            journal,
            "The journal came from standard input, which cannot be read twice",
          )
        : await gatherJournalView(journal, options.modelFlags),
    );
  }
  const html = renderHtmlReport(views, {
    strict: options.strict,
    generator: `statefold ${packageVersion()}`,
  });
  try {
    writeFileSync(target, html);
  } catch (error) {
    throw new JournalError(target, `cannot write the HTML report: ${writeFailureReason(error)}`);
  }
}

/** The same file, however it is named (relative, absolute, through a link or a hard link). */
function refuseToOverwriteAnInput(target: string, inputs: readonly (string | undefined)[]): void {
  const written = statSync(target, { throwIfNoEntry: false });
  if (written === undefined) return;
  for (const input of inputs) {
    if (input === undefined || input === "-") continue;
    const read = statSync(input, { throwIfNoEntry: false });
    if (read !== undefined && read.dev === written.dev && read.ino === written.ino) {
      throw new UsageError(
        `--html ${target} is ${input}, an input of the audit: refusing to overwrite it`,
        "audit",
      );
    }
  }
}
