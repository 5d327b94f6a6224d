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
 */
import type { AuditTally } from "./audit-tally.js";
import { formatBytes, formatCount, formatNumber, plural } from "./format-units.js";
import { renderJson } from "./render-json.js";
import { renderAuditText, renderSummary, type TextJournal } from "./render-text.js";

export const AUDIT_FORMATS = ["text", "json", "ndjson"] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

export interface PrinterOptions {
  readonly format: AuditFormat;
  /** One journal was asked for (a file or `-`, not a directory): it is printed bare. */
  readonly single: boolean;
  readonly strict: boolean;
  readonly colour: boolean;
}

/**
 * One journal's output in the chosen format, without what separates it from the journal before:
 * rendered where the journal was audited (a worker thread renders its own, so that this thread
 * only writes), printed in turn by `AuditPrinter`.
 */
export function renderJournalOutput(journal: TextJournal, options: PrinterOptions): string {
  const { format, single, strict, colour } = options;
  const { file, report } = journal;
  switch (format) {
    case "json":
      if (single) return renderJson(report);
      return JSON.stringify({ file, report }, null, 2).replaceAll("\n", "\n  ");
    case "text":
      return renderAuditText([journal], { strict, colour });
    case "ndjson":
      return `${JSON.stringify({ file, report })}\n`;
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

  /**
   * The end: `given` journals were asked for, `readable` of them could be read, and the tally
   * counted those that failed.
   */
  finish(given: number, readable: number, tally: AuditTally): void {
    const { format, single, strict } = this.options;
    switch (format) {
      case "json":
        if (!single) this.write(this.printed === 0 ? "[]\n" : "\n]\n");
        return;
      case "text": {
        if (single || readable === 0) return;
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
