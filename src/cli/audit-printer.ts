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
import type { AuditedJournal } from "./engine.js";
import { formatBytes, formatNumber } from "./format-units.js";
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

export class AuditPrinter {
  private printed = 0;

  constructor(
    private readonly options: PrinterOptions,
    private readonly write: (text: string) => void,
  ) {}

  journal(journal: AuditedJournal): void {
    this.write(this.render(journal));
    this.printed += 1;
  }

  /** The end: `given` journals were asked for, `audited` of them could be read. */
  finish(given: number, audited: readonly AuditedJournal[], tally: AuditTally): void {
    const { format, single, strict } = this.options;
    switch (format) {
      case "json":
        if (!single) this.write(this.printed === 0 ? "[]\n" : "\n]\n");
        return;
      case "text":
        if (single || audited.length === 0) return;
        this.write(
          `\n${totalsLine(audited.length, tally, strict)}\n${renderSummary(given, audited, strict).trimStart()}`,
        );
        return;
      case "ndjson":
        return;
      default: {
        const unreachable: never = format;
        throw new Error(`statefold: no closing for the format ${unreachable}`);
      }
    }
  }

  private render(journal: AuditedJournal): string {
    const { format, single, strict, colour } = this.options;
    switch (format) {
      case "json": {
        if (single) return renderJson(journal.report);
        const { file, report } = journal;
        const element = JSON.stringify({ file, report }, null, 2).replaceAll("\n", "\n  ");
        return `${this.printed === 0 ? "[\n" : ",\n"}  ${element}`;
      }
      case "text": {
        const block = renderAuditText([journal], { strict, colour });
        return this.printed === 0 ? block : `\n${block}`;
      }
      case "ndjson":
        return `${JSON.stringify({ file: journal.file, report: journal.report })}\n`;
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
    `${audited} ${audited === 1 ? "journal" : "journals"}`,
    `${totals.events} events`,
    `${totals.failing} ${verdict}`,
    `${formatBytes(totals.bytes)} in ${formatNumber(seconds)} s (${formatNumber(rate)} MB/s)`,
  ].join(", ");
}
