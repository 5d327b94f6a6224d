/**
 * The whole path as a user runs it: each measurement is one `statefold` command in a process of
 * its own (process start, reading, the header, the report and the verdict line included), the
 * commands taking turns, one run each per round, the order rotating from round to round. Ratios
 * are taken within a round and their median reported, so a neighbour that slows one round slows
 * both sides of its ratios alike.
 *
 *   header           `audit` of a journal that is only a 10⁵-node DAG's header, less `audit` of a
 *                    10-node one: what the big header costs before the first event
 *   end to end       `audit FILE` on ~300 MB over that DAG, against the parse-only loop as a
 *                    command (`readline` + `JSON.parse`, process start included)
 *   gate             `gate FILE` plain; `--snapshot` the first time (no snapshot yet), resumed
 *                    with nothing appended, resumed with ~1 MB appended
 *   --jobs           `audit --jobs 1` and `--jobs 2` on 8 journals of ~77 MB and on 10 000 of
 *                    20 events, beside the machine's two-thread ceiling measured in the round
 *
 * Peak RSS and CPU time come from the command itself (command-usage.ts, preloaded).
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommandUsage } from "./command-usage.js";
import { campaignJournal } from "./dag/journals.js";
import { type JournalDirectory, journalDirectory, parallelCeiling } from "./jobs.js";
import type { JournalFile } from "./journal-files.js";
import { median } from "./measure.js";

const CLI = join(import.meta.dirname, "../src/cli/main.js");
const PARSE_ONLY = join(import.meta.dirname, "parse-only-command.js");
const USAGE_PRELOAD = join(import.meta.dirname, "command-usage.js");
const WORK = join(tmpdir(), "statefold-bench", "whole-path");

/** The big journal: ~300 MB of a strictly conformant campaign over 10⁵ tasks (a gate passes it). */
const BIG_NODES = 100_000;
const BIG_EVENTS = 2_100_000;
/** Its continuation: ~1 MB more of the same campaign. */
const APPENDED_EVENTS = 8_000;
const BIG_CAMPAIGN = {
  nodes: BIG_NODES,
  seed: 42,
  surfacePathsMax: 16,
  // Low enough that no campaign ends before its events (the appended one must grow the journal).
  passRate: 0.05,
};

export interface CommandFigures {
  readonly name: string;
  /** The command line, as a user would type it (paths shortened to their roles). */
  readonly shown: string;
  readonly wallMs: readonly number[];
  readonly cpuMs: readonly number[];
  /** The highest peak RSS of its runs. */
  readonly maxRssBytes: number;
}

/** A build's figures: its commands, and each headline figure, a median over the rounds of the figure within each round. */
export interface WholePathFigures {
  readonly commands: readonly CommandFigures[];
  readonly headerReadyMs: number;
  readonly endToEndOverParseOnly: number;
  readonly resumedShareOfPlainGate: number;
  readonly appendedExtraMs: number;
  /** What auditing the appended bytes costs at the plain gate's speed on the big journal. */
  readonly appendedAuditMs: number;
  readonly firstSnapshotOverPlainGate: number;
  readonly bigJobs2OverJobs1: number;
  readonly smallJobs2OverJobs1: number;
  readonly smallJournalsPerSecondJobs1: number;
}

export interface WholePath extends WholePathFigures {
  readonly rounds: number;
  readonly bigJournalBytes: number;
  readonly appendedBytes: number;
  readonly bigJobs: JournalDirectory;
  readonly smallJobs: JournalDirectory;
  readonly ceilings: readonly number[];
  /** The median of the rounds' two-thread ceilings. */
  readonly ceiling: number;
  /**
   * An earlier build's figures, measured in the same rounds, and that build: its commit when its
   * CLI lies in a git checkout, else the CLI's path.
   */
  readonly earlier: (WholePathFigures & { readonly cli: string }) | null;
}

/** What starts a command's name: whose CLI it runs. */
const THIS_BUILD = "this:";
const EARLIER_BUILD = "earlier:";

type Measured = CommandUsage & { readonly wallMs: number };

interface Command {
  readonly name: string;
  readonly shown: string;
  readonly argv: readonly string[];
  /** Untimed, before each run. */
  readonly before?: () => void;
  /** Runs a round (its median run kept): a command too short for one run to judge a few ms. */
  readonly runs?: number;
}

/**
 * The header commands run in ~0.1 s and one run varies by ±5 ms — as much as a change to the
 * header's reading may gain — so each round takes the median of several.
 */
export const SHORT_COMMAND_RUNS = 7;

interface Journals {
  readonly headerBig: JournalFile;
  readonly headerSmall: JournalFile;
  readonly big: JournalFile;
  readonly plus: JournalFile;
  readonly bigJobs: JournalDirectory;
  readonly smallJobs: JournalDirectory;
}

/**
 * Measures this build's CLI, and `earlierCli` (another build's dist/src/cli/main.js) when given,
 * its commands taking their turns in the same rounds.
 */
export async function measureWholePath(
  rounds: number,
  log: (text: string) => void,
  earlierCli: string | null = null,
): Promise<WholePath> {
  mkdirSync(WORK, { recursive: true });
  log("  writing or reusing the journals…");
  const big = await campaignJournal({ ...BIG_CAMPAIGN, events: BIG_EVENTS }, WORK);
  const plus = await campaignJournal(
    { ...BIG_CAMPAIGN, events: BIG_EVENTS + APPENDED_EVENTS },
    WORK,
  );
  await requirePrefix(big, plus);
  const journals: Journals = {
    headerBig: await campaignJournal({ ...BIG_CAMPAIGN, events: 0 }, WORK),
    headerSmall: await campaignJournal({ ...BIG_CAMPAIGN, nodes: 10, events: 0 }, WORK),
    big,
    plus,
    bigJobs: await journalDirectory(8, 600_000, 500),
    smallJobs: await journalDirectory(10_000, 20, 6),
  };
  const parseOnly: Command = {
    name: "parse-only-big",
    shown: "parse-only BIG",
    argv: [PARSE_ONLY, big.path],
  };
  const builds = [
    { key: THIS_BUILD, cli: CLI },
    ...(earlierCli === null ? [] : [{ key: EARLIER_BUILD, cli: earlierCli }]),
  ];
  const commands: Command[] = [parseOnly];
  for (const build of builds) commands.push(...(await commandsOf(build.cli, build.key, journals)));

  const samples = new Map(commands.map((c) => [c.name, [] as Measured[]]));
  const ceilings: number[] = [];
  for (let round = -1; round < rounds; round++) {
    const turn = round < 0 ? 0 : round % commands.length;
    const ordered = [...commands.slice(turn), ...commands.slice(0, turn)];
    const ceiling = await parallelCeiling();
    for (const command of ordered) {
      const measured = await medianRun(command);
      if (round >= 0) samples.get(command.name)?.push(measured);
    }
    if (round >= 0) ceilings.push(ceiling);
    log(round < 0 ? "  warmup round done" : `  round ${round + 1} done`);
  }

  const runs = (name: string) => samples.get(name) as Measured[];
  const perRound = (f: (round: number) => number) =>
    median(Array.from({ length: rounds }, (_, round) => f(round)));
  const wall = (name: string, round: number) => (runs(name)[round] as Measured).wallMs;
  const appendedBytes = plus.bytes - big.bytes;
  const figuresOf = (key: string): WholePathFigures => {
    const at = (name: string, round: number) => wall(key + name, round);
    const own = commands.filter((command) => command === parseOnly || command.name.startsWith(key));
    return {
      commands: own.map((command) => ({
        name: command.name.slice(command === parseOnly ? 0 : key.length),
        shown: command.shown,
        wallMs: runs(command.name).map((r) => r.wallMs),
        cpuMs: runs(command.name).map((r) => r.cpuMs),
        maxRssBytes: Math.max(...runs(command.name).map((r) => r.maxRssBytes)),
      })),
      headerReadyMs: perRound((r) => at("header-1e5", r) - at("header-10", r)),
      endToEndOverParseOnly: perRound((r) => wall(parseOnly.name, r) / at("audit-big", r)),
      resumedShareOfPlainGate: perRound((r) => at("gate-resumed", r) / at("gate-plain", r)),
      appendedExtraMs: perRound((r) => at("gate-resumed-appended", r) - at("gate-resumed", r)),
      appendedAuditMs: perRound((r) => (at("gate-plain", r) * appendedBytes) / big.bytes),
      firstSnapshotOverPlainGate: perRound(
        (r) => at("gate-first-snapshot", r) / at("gate-plain", r),
      ),
      bigJobs2OverJobs1: perRound((r) => at("jobs1-big", r) / at("jobs2-big", r)),
      smallJobs2OverJobs1: perRound((r) => at("jobs1-small", r) / at("jobs2-small", r)),
      smallJournalsPerSecondJobs1: perRound(
        (r) => journals.smallJobs.journals / (at("jobs1-small", r) / 1000),
      ),
    };
  };
  return {
    ...figuresOf(THIS_BUILD),
    rounds,
    bigJournalBytes: big.bytes,
    appendedBytes,
    bigJobs: journals.bigJobs,
    smallJobs: journals.smallJobs,
    ceilings,
    ceiling: median(ceilings),
    earlier: earlierCli === null ? null : { ...figuresOf(EARLIER_BUILD), cli: buildOf(earlierCli) },
  };
}

/** The commands of one build's CLI; `key` starts their names. Makes the snapshot its gate resumes from. */
async function commandsOf(cli: string, key: string, journals: Journals): Promise<Command[]> {
  const { headerBig, headerSmall, big, plus, bigJobs, smallJobs } = journals;
  const tag = key === THIS_BUILD ? "" : "-earlier";
  const snapshot = join(WORK, `gate${tag}.snapshot`);
  const covering = join(WORK, `gate${tag}-covering.snapshot`);
  rmSync(covering, { force: true });
  await run([cli, "gate", big.path, "--snapshot", covering], `${key}the covering snapshot`);
  const audit = (args: readonly string[]) => [cli, "audit", "--quiet", ...args];
  const shown = (text: string) => (key === THIS_BUILD ? text : `${text} (earlier build)`);
  return [
    {
      name: "header-1e5",
      shown: "audit HEADER(10⁵ nodes)",
      argv: audit([headerBig.path]),
      runs: SHORT_COMMAND_RUNS,
    },
    {
      name: "header-10",
      shown: "audit HEADER(10 nodes)",
      argv: audit([headerSmall.path]),
      runs: SHORT_COMMAND_RUNS,
    },
    { name: "audit-big", shown: "audit BIG", argv: audit([big.path]) },
    { name: "gate-plain", shown: "gate BIG", argv: [cli, "gate", big.path] },
    {
      name: "gate-first-snapshot",
      shown: "gate BIG --snapshot S (no S yet)",
      argv: [cli, "gate", big.path, "--snapshot", snapshot],
      before: () => rmSync(snapshot, { force: true }),
    },
    {
      name: "gate-resumed",
      shown: "gate BIG --snapshot S (S covers BIG)",
      argv: [cli, "gate", big.path, "--snapshot", snapshot],
      before: () => copyFileSync(covering, snapshot),
    },
    {
      name: "gate-resumed-appended",
      shown: "gate BIG+1MB --snapshot S (S covers BIG)",
      argv: [cli, "gate", plus.path, "--snapshot", snapshot],
      before: () => copyFileSync(covering, snapshot),
    },
    ...[1, 2].flatMap((jobs) => [
      {
        name: `jobs${jobs}-big`,
        shown: `audit --jobs ${jobs} DIR(8 × 77 MB)`,
        argv: audit(["--format", "ndjson", "--jobs", String(jobs), bigJobs.directory]),
      },
      {
        name: `jobs${jobs}-small`,
        shown: `audit --jobs ${jobs} DIR(10 000 × 20 events)`,
        argv: audit(["--format", "ndjson", "--jobs", String(jobs), smallJobs.directory]),
      },
    ]),
  ].map((command) => ({ ...command, name: key + command.name, shown: shown(command.shown) }));
}

/** "commit 801ac9a" for a CLI in a git checkout, else its path. */
function buildOf(cli: string): string {
  try {
    const commit = execFileSync("git", ["-C", dirname(cli), "rev-parse", "--short", "HEAD"]);
    return `commit ${commit.toString().trim()}`;
  } catch {
    return cli;
  }
}

/** The command's run of median wall time among its runs of a round, with the highest peak RSS of them. */
async function medianRun(command: Command): Promise<Measured> {
  const runs: Measured[] = [];
  for (let i = 0; i < (command.runs ?? 1); i++) {
    command.before?.();
    runs.push(await run(command.argv, command.name));
  }
  runs.sort((a, b) => a.wallMs - b.wallMs);
  const middle = runs[Math.floor(runs.length / 2)] as Measured;
  return { ...middle, maxRssBytes: Math.max(...runs.map((r) => r.maxRssBytes)) };
}

/** Runs `node ARGV` to its end; it must exit 0. Its wall time, CPU time and peak RSS. */
function run(argv: readonly string[], name: string): Promise<Measured> {
  const usageFile = join(WORK, "usage.json");
  rmSync(usageFile, { force: true });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", USAGE_PRELOAD, ...argv], {
      env: { ...process.env, STATEFOLD_BENCH_USAGE: usageFile },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`${name}: exited ${code}: ${stderr.slice(0, 2000)}`));
        return;
      }
      const usage = JSON.parse(readFileSync(usageFile, "utf8")) as CommandUsage;
      resolve({ ...usage, wallMs });
    });
  });
}

/** The appended journal must continue the big one byte for byte, or "appended" means nothing. */
async function requirePrefix(prefix: JournalFile, longer: JournalFile): Promise<void> {
  const digest = async (path: string, bytes: number) => {
    const hash = createHash("sha256");
    for await (const chunk of createReadStream(path, { end: bytes - 1 })) hash.update(chunk);
    return hash.digest("hex");
  };
  const same =
    longer.bytes > prefix.bytes &&
    (await digest(longer.path, prefix.bytes)) === (await digest(prefix.path, prefix.bytes));
  if (!same) throw new Error(`${longer.path} does not continue ${prefix.path}`);
}
