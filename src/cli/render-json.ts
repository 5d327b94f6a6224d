/**
 * JSON output. A report is printed indented, as any JSON tool would; lists of records (replay's
 * nodes, the layers) are printed one record per line, so that a long list stays readable and
 * `grep` finds a node with everything about it on one line. Both are plain JSON.
 */

export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `{"<key>":[` then one item per line, then `]}`. */
export function renderJsonList(key: string, items: readonly unknown[]): string {
  if (items.length === 0) return `{${JSON.stringify(key)}:[]}\n`;
  const lines = items.map((item) => `  ${JSON.stringify(item)}`);
  return `{${JSON.stringify(key)}:[\n${lines.join(",\n")}\n]}\n`;
}
