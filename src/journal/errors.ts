/**
 * `JournalError`: a journal or DAG file that cannot be read as one (docs/journals.md, "Bad input"). Its message
 * names where (`file:line:column:`, as compilers print it, so editors can jump there) and then
 * what was expected and what was found.
 */
export class JournalError extends Error {
  override readonly name = "JournalError";
  constructor(
    readonly file: string,
    /** What was expected and what was found, without the location. */
    readonly detail: string,
    /** 1-based; absent when the problem is with the file as a whole. */
    readonly line?: number,
    /** 1-based, in code points; only where it helps to find the spot within the line. */
    readonly column?: number,
  ) {
    super(`${formatLocation(file, line, column)}: ${detail}`);
  }
}

function formatLocation(file: string, line?: number, column?: number): string {
  if (line === undefined) return file;
  return column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`;
}
