/**
 * How much of a scale's journal an engine reads: all of it when one run would finish "within a
 * few minutes" (the scale's `finishSecondsMax`), else a prefix sized for runs of about
 * `prefixRunSeconds`. Found by probing prefixes ten times longer each time (10³, 10⁴, ... events),
 * projecting linearly from the last probe — which counts the engine's fixed costs (loading the
 * DAG, starting actors) as if they grew with the journal, so the projection errs on the slow side.
 */
import type { EngineName } from "./engines.js";
import type { JournalFile } from "./journal-files.js";
import { measureInterleaved } from "./measure.js";
import { eventsWithin, type JournalSpan, journalPrefix } from "./prefix.js";
import type { Scale } from "./scales.js";

const FIRST_PROBE_EVENTS = 1000;

export async function spanFor(
  engine: EngineName,
  journal: JournalFile,
  scale: Scale,
  log: (text: string) => void,
): Promise<JournalSpan> {
  const total = scale.campaign.events;
  for (let probe = Math.min(FIRST_PROBE_EVENTS, total); ; probe *= 10) {
    const file = await journalPrefix(journal, probe);
    const [measured] = await measureInterleaved([{ engine, path: file.path }], {
      warmupRounds: 0,
      rounds: 1,
    });
    const seconds = (measured?.p50Ms as number) / 1000;
    const projected = (seconds * total) / probe;
    log(
      `  ${engine}: ${probe} events in ${seconds.toFixed(2)} s, all ${total} in ~${projected.toFixed(0)} s`,
    );
    if (projected <= scale.finishSecondsMax) return { ...journal, events: total, of: total };
    if (seconds * 10 > scale.prefixRunSeconds || probe * 10 >= total) {
      const events = eventsWithin(scale.prefixRunSeconds, seconds / probe, total);
      return { ...(await journalPrefix(journal, events)), events, of: total };
    }
  }
}
