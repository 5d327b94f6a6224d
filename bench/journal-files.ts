/**
 * Generated journals for the benchmarks, of every model, written once to the system's temp folder
 * and reused (generation is deterministic, so a file's name says all about its content).
 */
import { createWriteStream, existsSync, renameSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CampaignOptions, campaignLines } from "../src/generate/dag/campaign.js";
import { EXECUTIVE_FAULT_KINDS, executiveJournal } from "../src/generate/executive/journal.js";
import { OPERATIONS_FAULT_KINDS } from "../src/generate/operations/fault-kinds.js";
import { operationsJournalChunks } from "../src/generate/operations/journal.js";
import type { ExecutiveMix, OperationsMix, Scale } from "./scales.js";

export interface JournalFile {
  readonly path: string;
  readonly bytes: number;
}

const BENCH_FOLDER = join(tmpdir(), "statefold-bench");

/** The scale's whole journal, of its model. */
export function scaleJournal(scale: Scale, folder = BENCH_FOLDER): Promise<JournalFile> {
  switch (scale.model) {
    case "dag":
      return campaignJournal(scale.campaign, folder);
    case "operations":
      return operationsJournal(scale.operations, folder);
    case "executive":
      return executiveJournalFile(scale.executive, folder);
  }
}

/** The campaign's journal, in `folder` (by default the benchmarks' own in the temp folder). */
export async function campaignJournal(
  options: CampaignOptions,
  folder = BENCH_FOLDER,
): Promise<JournalFile> {
  // campaignLines gives lines without their line feeds.
  return journalFile(folder, campaignName(options), () => campaignLines(options), "\n");
}

/** The operations journal of the mix, in `folder` (by default the benchmarks' own). */
export async function operationsJournal(
  mix: OperationsMix,
  folder = BENCH_FOLDER,
): Promise<JournalFile> {
  const faults = OPERATIONS_FAULT_KINDS.map((kind) => ({ kind, count: mix.faultsOfEachKind }));
  // Pieces of whole lines, line feeds included: the generator's fastest form.
  const pieces = () =>
    operationsJournalChunks({
      events: mix.events,
      seed: mix.seed,
      ...(mix.strands === undefined ? {} : { strands: mix.strands }),
      faults: mix.faultsOfEachKind > 0 ? faults : [],
    });
  return journalFile(folder, operationsName(mix), pieces, "");
}

/** The executive journal of the mix, in `folder` (by default the benchmarks' own). */
export async function executiveJournalFile(
  mix: ExecutiveMix,
  folder = BENCH_FOLDER,
): Promise<JournalFile> {
  // Lines with their line feeds, the header first.
  const lines = () =>
    executiveJournal({ events: mix.events, seed: mix.seed, faults: executiveFaults(mix) });
  return journalFile(folder, executiveName(mix), lines, "");
}

/** The mix's faults, in the generator's order of kinds. */
function executiveFaults(mix: ExecutiveMix) {
  return EXECUTIVE_FAULT_KINDS.flatMap((kind) => {
    const count = mix.faults[kind] ?? 0;
    return count > 0 ? [{ kind, count }] : [];
  });
}

async function journalFile(
  folder: string,
  name: string,
  texts: () => Iterable<string>,
  terminator: "\n" | "",
): Promise<JournalFile> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${name}.jsonl`);
  if (!existsSync(path)) await writeTexts(path, texts(), terminator);
  return { path, bytes: statSync(path).size };
}

/** A name that says every option the content depends on (the defaults say nothing). */
function campaignName(options: CampaignOptions): string {
  const optional: [string, number | undefined][] = [
    ["d", options.maxDeps],
    ["p", options.parallelism],
    ["r", options.passRate],
    ["w", options.surfacePathsMax],
    ["i", options.illegalRate],
  ];
  return `campaign-n${options.nodes}-e${options.events}-s${options.seed}${suffixOf(optional)}`;
}

/** As campaignName: `-t` strands, `-f` faults of each kind. */
function operationsName(mix: OperationsMix): string {
  const optional: [string, number | undefined][] = [
    ["t", mix.strands],
    ["f", mix.faultsOfEachKind],
  ];
  return `operations-e${mix.events}-s${mix.seed}${suffixOf(optional)}`;
}

/**
 * As operationsName: each kind injected by its words' initials and its count, in the
 * generator's order (`-ws10` wrong-seq, `-aobo10` attempt-off-by-one, `-aat100`
 * accepted-after-terminal, ...).
 */
function executiveName(mix: ExecutiveMix): string {
  const faults = executiveFaults(mix).map(
    ({ kind, count }) =>
      `-${kind
        .split("-")
        .map((word) => word[0])
        .join("")}${count}`,
  );
  return `executive-e${mix.events}-s${mix.seed}${faults.join("")}`;
}

function suffixOf(optional: readonly [string, number | undefined][]): string {
  return optional.map(([key, value]) => (value === undefined ? "" : `-${key}${value}`)).join("");
}

/** Batches of about this many characters: a line or a 64 K piece alike, one write a mebibyte. */
const BATCH_CHARS = 1 << 20;

/** Each text followed by `terminator`, written in batches, then renamed into place whole. */
async function writeTexts(
  path: string,
  texts: Iterable<string>,
  terminator: "\n" | "",
): Promise<void> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  let pending: string[] = [];
  let pendingChars = 0;
  for (const text of texts) {
    pending.push(text);
    pendingChars += text.length;
    if (pendingChars >= BATCH_CHARS) {
      if (!out.write(`${pending.join(terminator)}${terminator}`))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      pending = [];
      pendingChars = 0;
    }
  }
  out.write(pending.length > 0 ? `${pending.join(terminator)}${terminator}` : "");
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  renameSync(partial, path);
}
