/**
 * The SHA-256 of a journal's complete lines, known to whatever read them: a reader that hashes
 * as it reads hands these to the auditor, which then does not hash the lines again (a snapshot
 * covers exactly the complete lines audited).
 */
export interface JournalDigests {
  /**
   * The hex SHA-256 of the journal's first `bytes` — the complete lines of the chunks handed over
   * so far, which is what an auditor that audited them all asks for. Throws for any other length.
   */
  hex(bytes: number): string;
}
