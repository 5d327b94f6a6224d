/**
 * `syntheticJournal`: the text of a generated journal — a campaign (src/generate/dag/campaign.ts)
 * with seeded faults injected (src/generate/dag/faults.ts) — a line at a time, so that a journal of
 * any length is written in constant memory. The same options give the same bytes.
 */
import { type CampaignOptions, campaignLines } from "./campaign.js";
import { type FaultRequest, type InjectedFault, injectFaults } from "./faults.js";

export interface SyntheticJournalOptions {
  readonly campaign: CampaignOptions;
  readonly faults?: readonly FaultRequest[];
  /** Called once per injected fault, in journal order, with what an audit must say about it. */
  readonly onInjected?: (fault: InjectedFault) => void;
}

/** Each line with its "\n" (a torn tail without). Throws `FaultPlacementError` before the first. */
export function syntheticJournal(options: SyntheticJournalOptions): Generator<string> {
  const { campaign, faults = [], onInjected } = options;
  return injectFaults(() => campaignLines(campaign), {
    seed: campaign.seed,
    faults,
    ...(onInjected === undefined ? {} : { onInjected }),
  });
}
