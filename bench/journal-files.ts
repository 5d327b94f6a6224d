/**
 * Generated journals for the benchmarks, written once to the system's temp folder and reused
 * (generation is deterministic, so a file's name says all about its content).
 */
import { createWriteStream, existsSync, renameSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CampaignOptions, campaignLines } from "../src/generate/campaign.js";

export interface JournalFile {
  readonly path: string;
  readonly bytes: number;
}

/** The campaign's journal, in `folder` (by default the benchmarks' own in the temp folder). */
export async function campaignJournal(
  options: CampaignOptions,
  folder = join(tmpdir(), "statefold-bench"),
): Promise<JournalFile> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${campaignName(options)}.jsonl`);
  if (!existsSync(path)) await writeLines(path, campaignLines(options));
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
  const suffix = optional.map(([key, value]) => (value === undefined ? "" : `-${key}${value}`));
  return `campaign-n${options.nodes}-e${options.events}-s${options.seed}${suffix.join("")}`;
}

async function writeLines(path: string, lines: Iterable<string>): Promise<void> {
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  let pending: string[] = [];
  for (const line of lines) {
    pending.push(line);
    if (pending.length === 4096) {
      if (!out.write(`${pending.join("\n")}\n`))
        await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      pending = [];
    }
  }
  out.write(pending.length > 0 ? `${pending.join("\n")}\n` : "");
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  renameSync(partial, path);
}
