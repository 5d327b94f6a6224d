/**
 * The progress bar of `statefold audit`: one line on stderr, redrawn in place ten times a second —
 * bytes done of the total, events per second, the time left, journals done (of several). For a
 * person at a terminal only: never when stderr is piped or a file, in CI, with NO_COLOR or with
 * --quiet.
 */

import {
  byteScale,
  formatBytes,
  formatCount,
  formatDuration,
  formatNumber,
  formatRate,
} from "../text/format-units.js";
import type { AuditTally, TallyTotals } from "./audit-tally.js";

/** The terminal stderr is, when it is one (process.stderr's `isTTY` and `columns`). */
export interface ProgressTerminal {
  readonly write: (text: string) => void;
  readonly columns: () => number;
}

export function wantsProgress(
  stderrIsTTY: boolean | undefined,
  env: NodeJS.ProcessEnv,
  quiet: boolean,
): boolean {
  const set = (name: string) => (env[name] ?? "") !== "";
  return stderrIsTTY === true && !quiet && !set("CI") && !set("NO_COLOR");
}

const REDRAW_INTERVAL_MS = 100;
const BAR_CELLS = 16;
/** Erases from the cursor to the end of the line. */
const ERASE_LINE = "\r\u001b[K";

export class ProgressBar {
  private readonly timer: NodeJS.Timeout;
  private shown = false;

  constructor(
    private readonly terminal: ProgressTerminal,
    private readonly tally: AuditTally,
  ) {
    this.timer = setInterval(() => this.draw(), REDRAW_INTERVAL_MS);
    this.timer.unref();
  }

  /** Writes around the bar: it is erased first and drawn again at the next tick. */
  interrupt(write: () => void): void {
    this.erase();
    write();
  }

  stop(): void {
    clearInterval(this.timer);
    this.erase();
  }

  private draw(): void {
    this.terminal.write(
      `${ERASE_LINE}${progressLine(this.tally.totals(), this.terminal.columns())}`,
    );
    this.shown = true;
  }

  private erase(): void {
    if (!this.shown) return;
    this.terminal.write(ERASE_LINE);
    this.shown = false;
  }
}

/** The bar's text for these totals, cut to the terminal's width. */
export function progressLine(totals: TallyTotals, columns: number): string {
  const seconds = totals.elapsedMs / 1000;
  const parts: string[] = [];
  const { bytes, bytesTotal } = totals;
  if (bytesTotal === null || bytesTotal === 0) {
    parts.push(formatBytes(bytes));
  } else {
    const share = Math.min(1, bytes / bytesTotal);
    const filled = Math.round(share * BAR_CELLS);
    const scale = byteScale(bytesTotal);
    const done = formatNumber(bytes / 1000 ** scale);
    parts.push(
      `▕${"█".repeat(filled)}${"░".repeat(BAR_CELLS - filled)}▏ ${String(Math.floor(share * 100)).padStart(3)}%`,
      `${done}/${formatBytes(bytesTotal, scale)}`,
    );
  }
  if (seconds > 0) parts.push(`${formatRate(totals.events / seconds)} events/s`);
  if (bytesTotal !== null && bytes > 0 && seconds > 0) {
    parts.push(`ETA ${formatDuration(((bytesTotal - bytes) * seconds) / bytes)}`);
  }
  if (totals.journals > 1)
    parts.push(`${formatCount(totals.journalsDone)}/${formatCount(totals.journals)} journals`);
  return [...parts.join("  ")].slice(0, Math.max(0, columns - 1)).join("");
}
