/**
 * `AuditPrinter`: the output of `statefold audit`, written journal by journal as verdicts arrive
 * (in the order the journals were given), so that the first verdicts show while later journals
 * are still being audited and nothing is held for the end but the closing summary.
 *
 * - text: a block per journal, blocks separated by a blank line; for several journals, the
 *   totals and the closing verdict line;
 * - json: the report of a single journal, or an array of {"file","report"} — the same bytes as
 *   `JSON.stringify(array, null, 2)`, written an element at a time;
 * - ndjson: one {"file","report"} per line per journal, for pipelines.
 *
 * A journal that could not be read is a {"file","error"} in its turn in json and ndjson, so that
 * a pipeline sees every journal it gave; text names it on stderr (the caller does) and counts it
 * in the closing verdict line.
 */

import type { ModelAnswer } from "../models/registry.js";
import { journalReports } from "../models/report-frame.js";
import type { FindingNumbers } from "../report/model-text.js";
import type { UnreadableJournal } from "../report/views.js";
import { formatBytes, formatCount, formatNumber, plural } from "../text/format-units.js";
import type { AuditTally } from "./audit-tally.js";
import { renderJson } from "./render-json.js";
import { renderAuditText, renderSummary } from "./render-text.js";

export const AUDIT_FORMATS = ["text", "json", "ndjson"] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export interface PrinterOptions {
  readonly format: AuditFormat;
  /** One journal was asked for (a file or `-`, not a directory): it is printed bare. */
  readonly single: boolean;
  readonly strict: boolean;
  readonly colour: boolean;
}

/** A file's audit to render, and the numbers behind each of its journals' findings when gathered. */
export interface RenderedRun {
  readonly file: string;
  /** Its report, or a report per journal when its model splits the stream. */
  readonly report: ModelAnswer;
  /** Per journal, in the answer's order. */
  readonly numbers?: readonly FindingNumbers[];
}

/**
 * One file's output in the chosen format, without what separates it from the file before:
 * rendered where the file was audited (a worker thread renders its own, so that this thread
 * only writes), printed in turn by `AuditPrinter`. A stream split into journals is printed as a
 * directory's journals are, one after another (docs/models/data.md, "A stream of journals"); a
 * single one in json is its answer, `{"journals": [...]}`.
 */
export function renderJournalOutput(run: RenderedRun, options: PrinterOptions): string {
  const { format, single, strict, colour } = options;
  const { file } = run;
  const journals = journalReports(run.report);
  switch (format) {
    case "json":
      if (single) return renderJson(run.report);
      return journals
        .map((report) => JSON.stringify({ file, report }, null, 2).replaceAll("\n", "\n  "))
        .join(",\n  ");
    case "text": {
      const texts = journals.map((report, index) => ({
        file,
        report,
        numbers: run.numbers?.[index],
      }));
      return renderAuditText(texts, { strict, colour });
    }
    case "ndjson":
      return journals.map((report) => `${JSON.stringify({ file, report })}\n`).join("");
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}

/** A journal that could not be read, as json and ndjson give it; text prints nothing for it. */
function renderUnreadableOutput(journal: UnreadableJournal, options: PrinterOptions): string {
  const { format, single } = options;
  const entry = { file: journal.file, error: journal.error };
  switch (format) {
    case "json":
      if (single) return renderJson(entry);
      return JSON.stringify(entry, null, 2).replaceAll("\n", "\n  ");
    case "text":
      return "";
    case "ndjson":
      return `${JSON.stringify(entry)}\n`;
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}

export class AuditPrinter {
  private printed = 0;

  constructor(
    private readonly options: PrinterOptions,
    private readonly write: (text: string) => void,
  ) {}

  /** A journal's output, from `renderJournalOutput`. */
  journal(output: string): void {
    this.write(this.separated(output));
    this.printed += 1;
  }

  /** A journal that could not be read, in its turn. */
  unreadable(journal: UnreadableJournal): void {
    if (this.options.format !== "text") this.journal(renderUnreadableOutput(journal, this.options));
  }

  /**
   * The end: `given` journals were found (each journal of a stream split by its model counted),
   * `readable` of them could be read, and the tally counted those that failed.
   */
  finish(given: number, readable: number, tally: AuditTally): void {
    const { format, single, strict } = this.options;
    switch (format) {
      case "json":
        if (!single) this.write(this.printed === 0 ? "[]\n" : "\n]\n");
        return;
      case "text": {
        // One file is printed bare, unless its model split it into several journals.
        if ((single && given === 1) || readable === 0) return;
        const passing = readable - tally.totals().failing;
        this.write(
          `\n${totalsLine(readable, tally, strict)}\n${renderSummary(given, readable, passing, strict).trimStart()}`,
        );
        return;
      }
      case "ndjson":
        return;
      default: {
        const unreachable: never = format;
        throw new Error(`statefold: no closing for the format ${unreachable}`);
      }
    }
  }

  private separated(output: string): string {
    const { format, single } = this.options;
    const first = this.printed === 0;
    switch (format) {
      case "json":
        if (single) return output;
        return `${first ? "[\n" : ",\n"}  ${output}`;
      case "text":
        return first ? output : `\n${output}`;
      case "ndjson":
        return output;
      default: {
        const unreachable: never = format;
        return unreachable;
      }
    }
  }
}

/** Journals, events, how many failed, and the throughput: `3 journals, 39 events, …`. */
function totalsLine(audited: number, tally: AuditTally, strict: boolean): string {
  const totals = tally.totals();
  const seconds = totals.elapsedMs / 1000;
  const rate = seconds > 0 ? totals.bytes / 1e6 / seconds : 0;
  const verdict = strict ? "not strictly conformant" : "not conformant";
  return [
    plural(audited, "journal"),
    plural(totals.events, "event"),
    `${formatCount(totals.failing)} ${verdict}`,
    `${formatBytes(totals.bytes)} in ${formatNumber(seconds)} s (${formatNumber(rate)} MB/s)`,
  ].join(", ");
}
