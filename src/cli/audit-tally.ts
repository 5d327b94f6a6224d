/**
 * `AuditTally`: the running totals of one `statefold audit` call — journals, events and bytes
 * done, and how far each journal still being audited has come — for the progress bar and the
 * closing summary.
 */

/** How far an audit has come, for a progress bar. */
export interface JournalProgress {
  readonly bytes: number;
  /** Events audited so far; null where the engine cannot tell before it is done. */
  readonly events: number | null;
}

export interface TallyTotals {
  readonly journals: number;
  readonly journalsDone: number;
  /** Every byte read so far, of finished journals and of those in flight. */
  readonly bytes: number;
  /** Null when the total is not known in advance (the standard input is among the journals). */
  readonly bytesTotal: number | null;
  readonly events: number;
  readonly failing: number;
  readonly elapsedMs: number;
}

export class AuditTally {
  private readonly startedMs = performance.now();
  private readonly inFlight = new Map<number, JournalProgress>();
  private journalsDone = 0;
  private bytesDone = 0;
  private eventsDone = 0;
  private failing = 0;

  constructor(
    private readonly journals: number,
    private readonly bytesTotal: number | null,
  ) {}

  progress(journal: number, progress: JournalProgress): void {
    this.inFlight.set(journal, progress);
  }

  /**
   * A journal given is done: `events` is null when it could not be read; `failing` counts the
   * journals in it that do not pass (a stream split by its model holds several).
   */
  finish(journal: number, bytes: number, events: number | null, failing: number): void {
    this.inFlight.delete(journal);
    this.journalsDone += 1;
    this.bytesDone += bytes;
    this.eventsDone += events ?? 0;
    this.failing += failing;
  }

  totals(): TallyTotals {
    let bytes = this.bytesDone;
    let events = this.eventsDone;
    for (const progress of this.inFlight.values()) {
      bytes += progress.bytes;
      events += progress.events ?? 0;
    }
    return {
      journals: this.journals,
      journalsDone: this.journalsDone,
      bytes,
      bytesTotal: this.bytesTotal,
      events,
      failing: this.failing,
      elapsedMs: performance.now() - this.startedMs,
    };
  }
}
