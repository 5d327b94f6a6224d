/** Where an offset in a text lies, as a person counts: 1-based line, 1-based column in code points. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

export function textPosition(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (let lf = text.indexOf("\n"); lf !== -1 && lf < offset; lf = text.indexOf("\n", lf + 1)) {
    line += 1;
    lineStart = lf + 1;
  }
  let column = 1;
  for (const _ of text.slice(lineStart, offset)) column += 1;
  return { line, column };
}
