/**
 * A scale-out command's progress line: one line on stderr redrawn in place, for a person at a
 * terminal only (as audit's progress bar: never piped, in CI, with NO_COLOR or --quiet). Log
 * lines are written above it.
 */
import type { ProgressTerminal } from "../cli/progress-bar.js";

const ERASE_LINE = "\r\u001b[K";
const REDRAW_INTERVAL_MS = 200;

export class StatusLine {
  private text = "";
  private drawnAt = 0;

  constructor(private readonly terminal: ProgressTerminal | null) {}

  /** Shows `text` as the progress line (at most five times a second). */
  show(text: string): void {
    this.text = text.slice(0, Math.max(10, (this.terminal?.columns() ?? 80) - 1));
    const now = Date.now();
    if (this.terminal === null || now - this.drawnAt < REDRAW_INTERVAL_MS) return;
    this.drawnAt = now;
    this.terminal.write(`${ERASE_LINE}${this.text}`);
  }

  /** Writes a line above the progress line. */
  line(write: () => void): void {
    if (this.terminal === null) {
      write();
      return;
    }
    this.terminal.write(ERASE_LINE);
    write();
    this.terminal.write(this.text);
  }

  stop(): void {
    this.terminal?.write(ERASE_LINE);
  }
}
