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
