/**
 * Errors about a parsed JSON value that point back into the text it came from: the value's own
 * line and column, its path (`dag.nodes[2].deps[0]`), what was expected and what was found.
 */

import { plural } from "../text/format-units.js";
import { JournalError } from "./errors.js";
import { type JsonPath, jsonValueOffset } from "./json-walk.js";
import { textPosition } from "./text-position.js";

/** Where a parsed JSON value came from. */
export interface JsonOrigin {
  readonly file: string;
  /** The text that was parsed. */
  readonly text: string;
  /** The line of the file on which `text` starts. */
  readonly firstLine: number;
}

/**
 * An error located at the value at `path`; `detail` says what was expected and found, after a
 * label that is the path itself unless the caller names the value better.
 */
export function jsonValueError(
  origin: JsonOrigin,
  path: JsonPath,
  detail: string,
  label = describeJsonPath(path),
): JournalError {
  const offset = jsonValueOffset(origin.text, path) ?? 0;
  const { line, column } = textPosition(origin.text, offset);
  const labelled = label === "" ? detail : `${label}: ${detail}`;
  return new JournalError(origin.file, labelled, origin.firstLine + line - 1, column);
}

export function describeJsonPath(path: JsonPath): string {
  return path
    .map((step, i) => {
      if (typeof step === "number") return `[${step}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(step)) return i === 0 ? step : `.${step}`;
      return `[${JSON.stringify(step)}]`;
    })
    .join("");
}

const QUOTED_STRING_CHARS_MAX = 40;

/** A parsed JSON value as a person would name it after "found": literals as written. */
export function describeJsonValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") {
    const shown =
      value.length <= QUOTED_STRING_CHARS_MAX
        ? value
        : `${value.slice(0, QUOTED_STRING_CHARS_MAX)}…`;
    return JSON.stringify(shown);
  }
  if (Array.isArray(value)) return `an array of ${plural(value.length, "item")}`;
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}
