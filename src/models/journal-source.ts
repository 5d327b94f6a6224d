/**
 * What a journal reader hands every model beside the parsed entries: where each entry stood in
 * the file, the torn tail, and the lines that were not JSON at all (docs/journals.md).
 */

/**
 * A journal line that is not JSON at all. Readers put one in the log in place of the line so
 * that the model's fold, not the reader, reports it — at the right index.
 */
export class UnparseableLine {
  constructor(readonly problem: "invalid-utf8" | "invalid-json") {}
}

export interface TornTail {
  /** 1-based line number of the unterminated final line. */
  readonly line: number;
  /** Byte offset of its first byte in the file. */
  readonly offset: number;
}

export interface AuditSource {
  /** 1-based journal line of each entry, when the entries come from a file. */
  readonly lines?: readonly number[];
  readonly tornTail?: TornTail | null;
}
