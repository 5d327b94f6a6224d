/**
 * Text written in one turn of the event loop goes out in one write: `statefold audit` on a
 * directory of 10 000 small journals prints a line per journal, and a write call per line (each
 * a system call when stdout is a pipe or a file) cost a fifth of the whole audit. A batch leaves
 * at the end of the turn, or sooner once it holds 64 KiB, so output still appears as it is made.
 */

const BATCH_CHARS = 64 * 1024;

export class CoalescedWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private flushScheduled = false;

  constructor(private readonly writeOut: (text: string) => void) {}

  write(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= BATCH_CHARS) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
  }

  /** Writes what is pending now: before anything else reaches the same terminal, and at exit. */
  flush(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    this.writeOut(text);
  }
}
