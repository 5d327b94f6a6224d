/** The dag's journals for the benchmarks: generated campaigns (src/generate/dag/campaign.ts). */
import { type CampaignOptions, campaignLines } from "../../src/generate/dag/campaign.js";
import { BENCH_FOLDER, type JournalFile, journalFile, suffixOf } from "../journal-files.js";

/** The campaign's journal, in `folder` (by default the benchmarks' own in the temp folder). */
export async function campaignJournal(
  options: CampaignOptions,
  folder = BENCH_FOLDER,
): Promise<JournalFile> {
  // campaignLines gives lines without their line feeds.
  return journalFile(folder, campaignName(options), () => campaignLines(options), "\n");
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
