import { connectRedis } from "../scale/connect.js";
import { DEFAULT_QUEUE, queueKeys } from "../scale/keys.js";
import { type CliOutput, type Command, ExitCode, parseCommand, UsageError } from "./command.js";

const HELP = `Usage: statefold results REDIS_URL [--queue Q] [--follow] [--dead | --findings]

Prints the verdicts the workers published, as NDJSON: one {"file","report"} per journal (the line
statefold audit --format ndjson prints), or {"file","error"} for a journal that could not be read.
Each journal's verdict is published once. See docs/scale-out.md.

Options:
  --queue Q     the queue's name (default ${DEFAULT_QUEUE})
  --follow      keep printing verdicts as they are published
  --dead        print the dead letters instead: {"job","location","deliveries","error"}
  --findings    print what statefold watch published instead: each rule's first breach in a
                live journal, {"journal","rule","breach"}, and each live journal's verdict
  -h, --help    show this help

Exit status: 0, or 2 bad usage or Redis unreachable.
`;

export const resultsCommand: Command = {
  name: "results",
  help: HELP,
  run: runResults,
};

const PAGE_ENTRIES = 1000;
const FOLLOW_BLOCK_MS = 1000;

type Entry = [string, string[]];

async function runResults(args: readonly string[], output: CliOutput): Promise<number> {
  const parsed = parseCommand(resultsCommand, args, output, {
    queue: { type: "string", default: DEFAULT_QUEUE },
    follow: { type: "boolean", default: false },
    dead: { type: "boolean", default: false },
    findings: { type: "boolean", default: false },
  });
  if (parsed === null) return ExitCode.conformant;
  const [redisUrl, ...extra] = parsed.positionals;
  if (redisUrl === undefined || extra.length > 0) {
    throw new UsageError("results takes one REDIS_URL", "results");
  }
  const keys = queueKeys(parsed.values.queue);
  const { dead, findings } = parsed.values;
  if (dead && findings)
    throw new UsageError("--dead and --findings are two streams: give one", "results");
  const stream = dead ? keys.dead : findings ? keys.findings : keys.results;
  const print = dead ? deadLetterLine : findings ? findingLine : resultLine;
  const redis = await connectRedis(redisUrl, "results");
  try {
    let after = "-";
    while (true) {
      const start = after === "-" ? "-" : `(${after}`;
      const page = (await redis.call(
        "XRANGE",
        stream,
        start,
        "+",
        "COUNT",
        PAGE_ENTRIES,
      )) as Entry[];
      for (const entry of page) output.stdout(`${print(entry)}\n`);
      after = page.at(-1)?.[0] ?? after;
      if (page.length === PAGE_ENTRIES) continue;
      if (!parsed.values.follow) return ExitCode.conformant;
      await redis.call(
        "XREAD",
        "BLOCK",
        FOLLOW_BLOCK_MS,
        "STREAMS",
        stream,
        after === "-" ? "0-0" : after,
      );
    }
  } finally {
    redis.disconnect();
  }
}

function fieldOf([, fields]: Entry, name: string): string {
  const at = fields.indexOf(name);
  return at >= 0 ? String(fields[at + 1]) : "";
}

function resultLine(entry: Entry): string {
  return fieldOf(entry, "result");
}

/** A live finding, or a live journal's verdict. */
function findingLine(entry: Entry): string {
  const finding = fieldOf(entry, "finding");
  return finding === "" ? fieldOf(entry, "result") : finding;
}

function deadLetterLine(entry: Entry): string {
  return JSON.stringify({
    job: fieldOf(entry, "job"),
    location: fieldOf(entry, "location"),
    deliveries: Number(fieldOf(entry, "deliveries")),
    error: fieldOf(entry, "error"),
  });
}
