/**
 * Text from a journal in HTML: every string a journal can carry (ids, kinds, paths, whole lines,
 * messages quoting them) goes through here before it reaches the page, and is bounded here: past
 * `PAGE_TEXT_CHARS_MAX` characters it is cut and says its length, as a quoted line is cut at
 * `QUOTED_LINE_BYTES_MAX` bytes — a 50 MB event kind was once copied whole into the page, twice.
 * Pure.
 */
import { plural } from "../text/format-units.js";
import { QUOTED_LINE_BYTES_MAX } from "./quote-lines.js";

/** Characters shown of one string: as many as a quoted line's bytes. */
export const PAGE_TEXT_CHARS_MAX = QUOTED_LINE_BYTES_MAX;

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Safe in element content and in a quoted attribute value; bounded. */
export function escapeHtml(text: string): string {
  const { shown, rest } = bounded(text);
  return escapeEntities(shown) + rest;
}

function escapeEntities(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] as string);
}

/** The text as shown, and what to say of the rest: `… (52 428 800 characters in all)`, or nothing. */
function bounded(text: string): { readonly shown: string; readonly rest: string } {
  if (text.length <= PAGE_TEXT_CHARS_MAX) return { shown: text, rest: "" };
  // Half a surrogate pair at the cut would show as a character the journal does not hold.
  const end = isHighSurrogate(text.charCodeAt(PAGE_TEXT_CHARS_MAX - 1))
    ? PAGE_TEXT_CHARS_MAX - 1
    : PAGE_TEXT_CHARS_MAX;
  return { shown: text.slice(0, end), rest: `… (${plural(text.length, "character")} in all)` };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
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

/** Journal text as written, visible and escaped; bounded. */
export function escapeJournalText(text: string): string {
  const { shown, rest } = bounded(text);
  return escapeEntities(showControls(shown)) + rest;
}

/**
 * An id quoted as the text output quotes it (JSON: quotes, escapes, lone surrogates spelled out),
 * then escaped; bounded (a cut id's closing quote is the cut's).
 */
export function escapeQuotedId(id: string): string {
  const { shown, rest } = bounded(id);
  return escapeEntities(JSON.stringify(shown)) + rest;
}
