/**
 * How much of a scale's journal an engine reads: all of it when one run would finish "within a
 * few minutes" (the scale's `finishSecondsMax`), else a prefix sized for runs of about
 * `prefixRunSeconds`.
 *
 * Found by probing: one run on the header alone gives the engine's fixed cost (parsing and loading
 * the DAG, starting 10⁵ XState actors), then runs on prefixes ten times longer each time (10², 10³,
 * ... events) give its cost per event, until the projection settles it. A probe's first run is
 * also the engine's coldest, so projections err on the slow side.
 */
import type { EngineName } from "./engines.js";
import type { JournalFile } from "./journal-files.js";
import { measureInterleaved } from "./measure.js";
import { eventsWithin, type JournalSpan, journalPrefix } from "./prefix.js";
import { eventsOf, type Scale } from "./scales.js";

const FIRST_PROBE_EVENTS = 100;

export async function spanFor(
  engine: EngineName,
  journal: JournalFile,
  scale: Scale,
  log: (text: string) => void,
): Promise<JournalSpan> {
  const total = eventsOf(scale);
  const whole: JournalSpan = { ...journal, events: total, of: total };
  const fixedSeconds = await probe(engine, journal, 0);
  log(`  ${engine}: the header alone in ${fixedSeconds.toFixed(2)} s`);
  for (let events = FIRST_PROBE_EVENTS; events < total; events *= 10) {
    const seconds = await probe(engine, journal, events);
    const perEvent = Math.max(seconds - fixedSeconds, 0) / events;
    const projected = fixedSeconds + perEvent * total;
    log(
      `  ${engine}: ${events} events in ${seconds.toFixed(2)} s, all ${total} in ~${projected.toFixed(0)} s`,
    );
    if (perEvent > 0 && projected <= scale.finishSecondsMax) return whole;
    const nextSeconds = fixedSeconds + perEvent * events * 10;
    if (nextSeconds > scale.prefixRunSeconds || events * 10 >= total) {
      const fitting = eventsWithin(scale.prefixRunSeconds - fixedSeconds, perEvent, total);
      const prefixEvents = Math.max(events, fitting);
      if (prefixEvents >= total) return whole;
      return { ...(await journalPrefix(journal, prefixEvents)), events: prefixEvents, of: total };
    }
  }
  return whole;
}

/** Seconds of one (cold) run on the journal's header and first `events` events. */
async function probe(engine: EngineName, journal: JournalFile, events: number): Promise<number> {
  const file = await journalPrefix(journal, events);
  const [measured] = await measureInterleaved([{ engine, path: file.path }], {
    warmupRounds: 0,
    rounds: 1,
  });
  return (measured?.p50Ms as number) / 1000;
}
