/**
 * A help text's table of names and their descriptions: the descriptions start in one column,
 * two spaces past the longest name, however long a name added later is.
 */
export function helpColumns(
  rows: readonly (readonly [name: string, text: string])[],
  indent: string,
  nameWidth = Math.max(...rows.map(([name]) => name.length)),
): string {
  return rows.map(([name, text]) => `${indent}${name.padEnd(nameWidth + 2)}${text}`).join("\n");
}

/** Words as prose lists them: "a", "a or b", "a, b or c". */
export function wordList(words: readonly string[], conjunction: "and" | "or"): string {
  const last = words.at(-1) ?? "";
  return words.length <= 1 ? last : `${words.slice(0, -1).join(", ")} ${conjunction} ${last}`;
}

/**
 * Prose broken into lines of at most `width` columns: the first continues a line already
 * `firstColumn` columns long, the others start with `indent` spaces.
 */
export function wrapHelp(
  text: string,
  indent: number,
  width: number,
  firstColumn = indent,
): string {
  const lines: string[] = [];
  let line = "";
  let column = firstColumn;
  for (const word of text.split(/\s+/)) {
    const space = line === "" ? 0 : 1;
    if (line !== "" && column + space + word.length > width) {
      lines.push(line);
      line = "";
      column = indent;
    }
    line = line === "" ? word : `${line} ${word}`;
    column += (line === word ? 0 : 1) + word.length;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}

/** The models defined by data that statefold ships, in a sentence for a command's help. */
export function dataModelsSentence(
  models: readonly { readonly name: string; readonly summary: string }[],
): string {
  const each = models.map(
    (model) => `${model.name} (${model.summary}; docs/models/${model.name}.md)`,
  );
  return `Models defined by data: ${wordList(each, "and")}; or a model file of your own, given as --model FILE (docs/models/data.md).`;
}
