/**
 * The engines' door (docs/api.md, "Errors"): every public engine method reads its arguments here
 * first, so a wrong one is an `ArgumentError` naming the call, what was expected and what was
 * given — never a TypeError from somewhere inside an engine.
 */
import { isResumableFile, type ResumableFile } from "./journal/resumable-file.js";
import { madeByMakeDag } from "./models/dag/reverse-edges.js";

/** A call of the library API given an argument it cannot take. */
export class ArgumentError extends Error {
  override readonly name = "ArgumentError";
  constructor(
    /** The call as the API documents it, e.g. `auditBytes(bytes, options)`. */
    readonly call: string,
    /** Which argument, or which part of one (`options.file`). */
    readonly argument: string,
    readonly expected: string,
    /** What was given, described. */
    readonly found: string,
  ) {
    super(`statefold: ${call}: expected ${argument} to be ${expected}, found ${found}`);
  }
}

/** JSONL bytes: all at once, or as a stream of chunks of any size. */
export type JournalBytes = Uint8Array | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

const JOURNAL_BYTES = "a Uint8Array, or an iterable or async iterable of Uint8Array chunks";

export function journalBytesArgument(call: string, value: unknown): JournalBytes {
  if (isJournalBytes(value)) return value;
  const dagFirst = value === null || madeByMakeDag(value);
  const hint = dagFirst ? " (the bytes come first; a DAG is the option { dag })" : "";
  throw new ArgumentError(call, "bytes", JOURNAL_BYTES, describeValue(value) + hint);
}

/** The arguments of `auditBytes(bytes, options)`, for an engine whose options are `rules`. */
export function auditBytesArguments<Options extends object>(
  bytes: unknown,
  options: unknown,
  rules: OptionRules,
): { readonly bytes: JournalBytes; readonly options: Options } {
  const call = "auditBytes(bytes, options)";
  return {
    bytes: journalBytesArgument(call, bytes),
    options: optionsArgument<Options>(call, options, rules),
  };
}

/** The journal a `resume` continues: its bytes from the start, or a `resumableFile`. */
export function resumeJournalArgument(call: string, value: unknown): JournalBytes | ResumableFile {
  if (isResumableFile(value) || isJournalBytes(value)) return value;
  throw new ArgumentError(
    call,
    "journal",
    `${JOURNAL_BYTES}, or a resumableFile`,
    describeValue(value),
  );
}

export function snapshotArgument(call: string, value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new ArgumentError(
    call,
    "snapshot",
    "a Uint8Array (what an auditor's snapshot() returned)",
    describeValue(value),
  );
}

/** One chunk of a stream of journal bytes, checked as it comes (`index` from 0). */
export function chunkArgument(value: unknown, index: number): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new ArgumentError(
    "reading the journal's bytes",
    `chunk ${index + 1}`,
    "a Uint8Array",
    describeValue(value),
  );
}

/** What an auditor's `write(chunk)` was given: journal bytes, or an `ArgumentError`. */
export function checkWrittenChunk(value: unknown): void {
  if (value instanceof Uint8Array) return;
  throw new ArgumentError("write(chunk)", "chunk", "a Uint8Array", describeValue(value));
}

/** A log of events or records: an array of any values (the model judges each). */
export function arrayArgument(call: string, argument: string, value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  throw new ArgumentError(call, argument, "an array", describeValue(value));
}

/** What one option must be: said in errors, checked by `accepts`. */
export interface OptionRule {
  readonly expected: string;
  accepts(value: unknown): boolean;
}

/**
 * The options one of an engine's calls takes, each with its rule (a model adds its own in its
 * folder, as the dag model its DAG); `hint` adds to the error for options that are not an object.
 */
export interface OptionRules {
  readonly rules: Readonly<Record<string, OptionRule>>;
  hint?(value: unknown): string;
}

export const isString = (value: unknown) => typeof value === "string";

/** What every engine's auditing calls take (src/engine.ts, `JournalOptions`). */
export const AUDIT_OPTIONS: OptionRules = {
  rules: { file: { expected: "a string", accepts: isString } },
};

const SNAPSHOT_OPTION_RULES = {
  snapshots: { expected: "a boolean", accepts: (value) => typeof value === "boolean" },
  digests: {
    expected: "the digests readFileHashed gives",
    accepts: (value) => typeof value === "object" && value !== null,
  },
  snapshotFile: { expected: "a string", accepts: isString },
} satisfies Record<string, OptionRule>;

/** An engine's auditing options, and the snapshot options (`SnapshotOptions`) its auditors take. */
export function withSnapshotOptions(options: OptionRules): OptionRules {
  return { ...options, rules: { ...options.rules, ...SNAPSHOT_OPTION_RULES } };
}

export const AUDITOR_OPTIONS: OptionRules = withSnapshotOptions(AUDIT_OPTIONS);

/**
 * An options object whose every key is one of `options`', each of its rule (undefined stands for
 * an option not given); nothing at all is no options.
 */
export function optionsArgument<Options extends object>(
  call: string,
  value: unknown,
  options: OptionRules,
): Options {
  if (value === undefined) return {} as Options;
  const names = Object.keys(options.rules);
  const hint = options.hint?.(value) ?? "";
  const checked = closedObjectArgument(call, "options", value, names, hint);
  for (const [name, option] of Object.entries(checked)) {
    const rule = options.rules[name] as OptionRule;
    if (option !== undefined && !rule.accepts(option)) {
      throw new ArgumentError(call, `options.${name}`, rule.expected, describeValue(option));
    }
  }
  return checked as Options;
}

/** A plain object whose every key is one of `names`. */
export function closedObjectArgument(
  call: string,
  argument: string,
  value: unknown,
  names: readonly string[],
  hint = "",
): object {
  const expected = `an object whose keys are among ${names.join(", ")}`;
  if (!isPlainObject(value) || madeByMakeDag(value)) {
    throw new ArgumentError(call, argument, expected, describeValue(value) + hint);
  }
  const unknown = Object.keys(value).find((key) => !names.includes(key));
  if (unknown !== undefined) {
    throw new ArgumentError(call, argument, expected, `the key ${JSON.stringify(unknown)}`);
  }
  return value;
}

/** One value of a closed set, e.g. `loadEngine`'s `model` or `flavour`; undefined when not given. */
export function choiceArgument<Choice extends string>(
  call: string,
  argument: string,
  value: unknown,
  choices: readonly Choice[],
): Choice | undefined {
  if (value === undefined || (choices as readonly unknown[]).includes(value)) {
    return value as Choice | undefined;
  }
  const expected = choices.map((choice) => JSON.stringify(choice)).join(" or ");
  throw new ArgumentError(call, argument, expected, describeValue(value));
}

/** A short description of any value, for an error to say what it found. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing (undefined)";
  if (value instanceof Uint8Array) return `a Uint8Array of ${value.length} bytes`;
  if (value instanceof ArrayBuffer) return "an ArrayBuffer (wrap it: new Uint8Array(buffer))";
  if (typeof value === "string") return `the string ${JSON.stringify(cut(value))}`;
  if (typeof value === "function") return "a function";
  if (typeof value !== "object") return `the ${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (madeByMakeDag(value)) return "a DAG";
  const made = makeDagResultOf(value);
  if (made !== null) return made;
  const keys = Object.keys(value);
  if (keys.length === 0) return "an empty object";
  const listed = keys.slice(0, 5).map((key) => JSON.stringify(key));
  return `an object with the keys ${listed.join(", ")}${keys.length > 5 ? ", …" : ""}`;
}

/** makeDag's answer given where its DAG belongs: say how to take the DAG out. */
function makeDagResultOf(value: object): string | null {
  const { ok, dag, rejection } = value as { ok?: unknown; dag?: unknown; rejection?: unknown };
  if (ok === true && madeByMakeDag(dag))
    return "makeDag's result { ok, dag } (its .dag is the DAG)";
  if (ok === false && typeof rejection === "object" && rejection !== null) {
    const { reason } = rejection as { reason?: unknown };
    return `makeDag's rejection of the nodes (${String(reason)}): there is no DAG to audit against`;
  }
  return null;
}

/** Bytes, or an object that iterates (its chunks are checked as they come); never a string. */
function isJournalBytes(value: unknown): value is JournalBytes {
  if (value instanceof Uint8Array) return true;
  if (typeof value !== "object" || value === null) return false;
  return Symbol.iterator in value || Symbol.asyncIterator in value;
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function cut(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 40)}…`;
}
