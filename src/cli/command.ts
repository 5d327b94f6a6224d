/**
 * What every command shares: its shape, where its output goes, the exit codes, and usage errors
 * (bad flags, missing arguments), which the top level reports with a pointer to `--help`.
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

/** The exit statuses of docs/report.md. */
export const ExitCode = {
  conformant: 0,
  notConformant: 1,
  badInput: 2,
} as const;

export interface CliOutput {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stdout may carry ANSI colours: it is a terminal and NO_COLOR is not set. */
  readonly colour: boolean;
  /**
   * Writes to stdout and resolves once it can take more: a command with output of any length
   * (`gen`) awaits it, so that a slow reader holds it back instead of its output filling memory.
   * Bytes go as they are, and it resolves once they are written, as their maker may reuse their
   * buffer. Absent where stdout is collected as a string (the in-process tests).
   */
  readonly stdoutPaced?: (piece: string | Uint8Array) => Promise<void>;
  /** stderr when it is a terminal, for a progress bar: how to write to it, and its width. */
  readonly stderrTerminal?: {
    readonly write: (text: string) => void;
    readonly columns: () => number;
  };
}

/** Colour only for a terminal, and never when NO_COLOR is set to anything (no-color.org). */
export function wantsColour(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  return isTTY === true && (env.NO_COLOR ?? "") === "";
}

export interface Command {
  readonly name: string;
  readonly help: string;
  /** Returns the exit code; throws `UsageError` or `JournalError` for the top level to report. */
  readonly run: (args: readonly string[], output: CliOutput) => Promise<number>;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    /** The command whose `--help` to point at, when the error is within one. */
    readonly command?: string,
  ) {
    super(message);
  }
}

type OptionsConfig = NonNullable<ParseArgsConfig["options"]>;

const HELP_OPTION = { type: "boolean", short: "h", default: false } as const;

interface CommandConfig<O extends OptionsConfig> {
  args: string[];
  options: O & { help: typeof HELP_OPTION };
  allowPositionals: true;
  strict: true;
}

/**
 * A command's arguments, parsed strictly, with `-h`/`--help` added to its options and any number
 * of positionals; `parseArgs`' errors become usage errors naming the command. Null once the help
 * is printed: the command then exits 0.
 */
export function parseCommand<const O extends OptionsConfig>(
  command: Pick<Command, "name" | "help">,
  args: readonly string[],
  output: CliOutput,
  options: O,
): ReturnType<typeof parseArgs<CommandConfig<O>>> | null {
  const config: CommandConfig<O> = {
    args: negativeValuesJoined(args, options),
    options: { ...options, help: HELP_OPTION },
    allowPositionals: true,
    strict: true,
  };
  let parsed: ReturnType<typeof parseArgs<CommandConfig<O>>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) throw error;
    // Node appends advice (about `--`, or on a line of its own) that does not apply here; the
    // first sentence is the error.
    const [sentence] = (error as Error).message.split(/(?<=\.)\s/);
    const message = (sentence ?? "").replace(/\.$/, "");
    throw new UsageError(message.charAt(0).toLowerCase() + message.slice(1), command.name);
  }
  if ((parsed.values as { help?: boolean }).help) {
    output.stdout(command.help);
    return null;
  }
  return parsed;
}

const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

/**
 * The arguments with a negative number after a flag that takes a value joined to it, `--jobs -1`
 * as `--jobs=-1`: Node's parser refuses a value that starts with a dash as ambiguous, and the
 * flag's own check (src/cli/number-flags.ts), which says what is wrong with the value, would
 * never see it.
 */
function negativeValuesJoined(args: readonly string[], options: OptionsConfig): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg === "--") return [...joined, ...args.slice(i)];
    const takesValue = arg.startsWith("--") && options[arg.slice(2)]?.type === "string";
    if (takesValue && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** The value of a flag that takes one of a closed set of words. */
export function oneOf<const W extends string>(
  command: string,
  flag: string,
  value: string,
  words: readonly W[],
): W {
  if ((words as readonly string[]).includes(value)) return value as W;
  const expected = words.map((word) => `'${word}'`).join(" or ");
  throw new UsageError(`${flag} must be ${expected}, found '${value}'`, command);
}
