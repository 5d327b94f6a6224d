/**
 * Text from a journal in HTML: every string a journal can carry (ids, kinds, paths, whole lines)
 * goes through here before it reaches the page. Pure.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Safe in element content and in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] as string);
}

/**
 * C0 controls and DEL as their Control Pictures (U+2400–U+2421), so that a control character in
 * a journal line is seen rather than swallowed; a tab stays a tab.
 */
export function showControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, (character) => {
    const code = character.charCodeAt(0);
    return String.fromCharCode(code === 0x7f ? 0x2421 : 0x2400 + code);
  });
}

/** Journal text as written, visible and escaped. */
export function escapeJournalText(text: string): string {
  return escapeHtml(showControls(text));
}

/**
 * An id quoted as the text output quotes it (JSON: quotes, escapes, lone surrogates spelled out),
 * then escaped.
 */
export function escapeQuotedId(id: string): string {
  return escapeHtml(JSON.stringify(id));
}
