/**
 * A JSON walker that knows where every value starts. Node 20's `JSON.parse` says whether a text
 * is JSON but often not where it goes wrong, and parsed values carry no position; a DAG file's
 * errors must still name the line (docs/journals.md, "Bad input"). The walker accepts exactly the texts `JSON.parse`
 * accepts (held to it by JSONTestSuite in the tests) and keeps its nesting in an explicit stack
 * rather than the call stack, so a deeply nested input cannot overflow it.
 */

export type JsonPath = readonly (string | number)[];

export interface JsonSyntaxProblem {
  /** UTF-16 offset in the text. */
  readonly offset: number;
  readonly expected: string;
  readonly found: string;
}

/**
 * Calls `visit` with the path and offset of every value, outermost first, and returns the first
 * syntax problem, or null when the text is one JSON value. The path passed to `visit` is the
 * walker's own, valid only during the call.
 */
export function walkJson(
  text: string,
  visit: (path: JsonPath, offset: number) => void = () => {},
): JsonSyntaxProblem | null {
  return new JsonWalker(text, visit).walk();
}

/** Where the value at `path` starts (the last one, like `JSON.parse`, when keys repeat). */
export function jsonValueOffset(text: string, path: JsonPath): number | null {
  let found: number | null = null;
  walkJson(text, (at, offset) => {
    if (at.length === path.length && at.every((step, i) => step === path[i])) found = offset;
  });
  return found;
}

/** Where the walk goes on: `entered` when it stepped into a container, at its first value. */
interface Advance {
  readonly offset: number;
  readonly entered?: boolean;
}

type Step = Advance | JsonSyntaxProblem;

class JsonWalker {
  private readonly containers: ("object" | "array")[] = [];
  private readonly path: (string | number)[] = [];

  constructor(
    private readonly text: string,
    private readonly visit: (path: JsonPath, offset: number) => void,
  ) {}

  walk(): JsonSyntaxProblem | null {
    let at = this.skipWhitespace(0);
    for (;;) {
      this.visit(this.path, at);
      const step = this.enterOrScanValue(at);
      if ("expected" in step) return step;
      if (step.entered) {
        at = step.offset;
        continue;
      }
      const next = this.closeUntilNextValue(step.offset);
      if (next === null) return null;
      if ("expected" in next) return next;
      at = next.offset;
    }
  }

  /**
   * At a value: steps into a non-empty container (`offset` is then its first value) or past
   * anything else.
   */
  private enterOrScanValue(at: number): Step {
    const opener = this.text[at];
    if (opener !== "{" && opener !== "[") return this.scanScalar(at);
    const inside = this.skipWhitespace(at + 1);
    if (this.text[inside] === (opener === "{" ? "}" : "]")) return { offset: inside + 1 };
    if (opener === "[") {
      this.containers.push("array");
      this.path.push(0);
      return { offset: inside, entered: true };
    }
    const member = this.scanKey(inside, "a key (a string in double quotes) or '}'");
    if ("expected" in member) return member;
    this.containers.push("object");
    this.path.push(member.key);
    return { offset: member.offset, entered: true };
  }

  /**
   * After a value: closes the containers that end here and returns the start of the next value,
   * or null when the outermost value ended with the text.
   */
  private closeUntilNextValue(at: number): Step | null {
    for (;;) {
      const here = this.skipWhitespace(at);
      const container = this.containers.at(-1);
      if (container === undefined) {
        return here === this.text.length ? null : this.problem(here, "the end of the text");
      }
      const closer = container === "object" ? "}" : "]";
      if (this.text[here] === closer) {
        this.containers.pop();
        this.path.pop();
        at = here + 1;
        continue;
      }
      if (this.text[here] !== ",") return this.problem(here, `',' or '${closer}'`);
      const next = this.skipWhitespace(here + 1);
      if (container === "array") {
        this.path.push((this.path.pop() as number) + 1);
        return { offset: next };
      }
      const member = this.scanKey(next, "a key (a string in double quotes)");
      if ("expected" in member) return member;
      this.path[this.path.length - 1] = member.key;
      return { offset: member.offset };
    }
  }

  /** A key, its colon, and the whitespace up to its value; `offset` is where the value starts. */
  private scanKey(
    at: number,
    expected: string,
  ): { key: string; offset: number } | JsonSyntaxProblem {
    if (this.text[at] !== '"') return this.problem(at, expected);
    const end = this.scanString(at);
    if ("expected" in end) return end;
    const colon = this.skipWhitespace(end.offset);
    if (this.text[colon] !== ":") return this.problem(colon, "':'");
    const key = JSON.parse(this.text.slice(at, end.offset)) as string;
    return { key, offset: this.skipWhitespace(colon + 1) };
  }

  private scanScalar(at: number): Step {
    const first = this.text[at];
    if (first === '"') return this.scanString(at);
    if (first === "-" || isDigit(first)) return this.scanNumber(at);
    for (const literal of ["true", "false", "null"]) {
      if (first === literal[0]) return this.scanLiteral(at, literal);
    }
    return this.problem(at, "a value");
  }

  private scanString(at: number): Step {
    let i = at + 1;
    for (;;) {
      if (i >= this.text.length) return this.problem(i, "'\"' to close the string");
      const code = this.text.charCodeAt(i);
      if (code === 0x22) return { offset: i + 1 };
      if (code < 0x20) return this.problem(i, "a character (control characters must be escaped)");
      if (code !== 0x5c) {
        i += 1;
        continue;
      }
      const escaped = this.text[i + 1];
      if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) i += 2;
      else if (escaped === "u" && /^[0-9a-fA-F]{4}$/.test(this.text.slice(i + 2, i + 6))) i += 6;
      else return this.problem(i + 1, 'an escape: one of " \\ / b f n r t or uXXXX');
    }
  }

  /** The grammar of RFC 8259 §6: `-? (0 | [1-9] digits) (. digits)? ([eE] [+-]? digits)?`. */
  private scanNumber(at: number): Step {
    let i = this.text[at] === "-" ? at + 1 : at;
    if (this.text[i] === "0") i += 1;
    else if (isDigit(this.text[i])) i = this.skipDigits(i);
    else return this.problem(i, "a digit");
    if (this.text[i] === ".") {
      if (!isDigit(this.text[i + 1])) return this.problem(i + 1, "a digit");
      i = this.skipDigits(i + 1);
    }
    if (this.text[i] === "e" || this.text[i] === "E") {
      i += this.text[i + 1] === "+" || this.text[i + 1] === "-" ? 2 : 1;
      if (!isDigit(this.text[i])) return this.problem(i, "a digit");
      i = this.skipDigits(i);
    }
    return { offset: i };
  }

  private scanLiteral(at: number, literal: string): Step {
    for (let k = 0; k < literal.length; k += 1) {
      if (this.text[at + k] !== literal[k]) return this.problem(at + k, `'${literal}'`);
    }
    return { offset: at + literal.length };
  }

  private skipDigits(at: number): number {
    let i = at;
    while (isDigit(this.text[i])) i += 1;
    return i;
  }

  private skipWhitespace(at: number): number {
    let i = at;
    while (i < this.text.length && " \t\n\r".includes(this.text[i] as string)) i += 1;
    return i;
  }

  private problem(offset: number, expected: string): JsonSyntaxProblem {
    return { offset, expected, found: describeCharacterAt(this.text, offset) };
  }
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

/** A character as a person can see it: quoted when printable, as U+XXXX when it is not. */
export function describeCharacterAt(text: string, offset: number): string {
  const code = text.codePointAt(offset);
  if (code === undefined) return "the end of the text";
  const printable =
    code > 0x20 && code !== 0x7f && !(code >= 0x80 && code <= 0xa0) && code !== 0xfeff;
  return printable
    ? `'${String.fromCodePoint(code)}'`
    : `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}
