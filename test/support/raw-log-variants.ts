/**
 * Raw logs as a live runtime might hand them to the object API, beyond what a journal line can
 * say: sparse arrays (a hole is `undefined`, so a malformed event), events without a prototype,
 * frozen events, one event object logged twice — around the shared `rawLogArbitrary`, which
 * already mixes legal, illegal and malformed entries, duplicate surface paths and results of any
 * type. Also the `AuditSource` a reader would pass beside them (lines, torn tail).
 */
import fc from "fast-check";
import type { Dag } from "../../src/models/dag/index.js";
import type { AuditSource, TornTail } from "../../src/models/journal-source.js";
import { dagArbitrary, type RawLogShape, rawLogArbitrary } from "./arbitraries.js";

type Variant = "null-prototype" | "frozen" | "repeated" | "plain";

const variantArbitrary = fc.constantFrom<Variant>("null-prototype", "frozen", "repeated", "plain");

/** A raw log with now and then a hole, an event without a prototype, a frozen or a repeated one. */
export function looseRawLogArbitrary(dag: Dag, shape: RawLogShape = {}): fc.Arbitrary<unknown[]> {
  return fc
    .record({
      log: rawLogArbitrary(dag, shape),
      variants: fc.array(fc.tuple(fc.nat(), variantArbitrary), { maxLength: 4 }),
      holes: fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }) },
      ),
      trailingHoles: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 3 })),
    })
    .map(({ log, variants, holes, trailingHoles }) => {
      const events = [...log];
      for (const [at, variant] of variants) {
        if (events.length === 0) break;
        const i = at % events.length;
        const event = events[i];
        if (typeof event !== "object" || event === null || Array.isArray(event)) continue;
        if (variant === "null-prototype") events[i] = Object.assign(Object.create(null), event);
        else if (variant === "frozen") events[i] = Object.freeze({ ...event });
        else if (variant === "repeated") events.splice(i, 0, event);
      }
      // Holes near the end mostly, so the fold still has a long prefix to judge.
      for (const at of holes) {
        if (events.length > 0) delete events[events.length - 1 - (at % Math.min(5, events.length))];
      }
      events.length += trailingHoles;
      return events;
    });
}

export interface DagWithLooseLog {
  readonly dag: Dag;
  readonly events: unknown[];
  readonly source: AuditSource;
}

/** A DAG, a loose raw log over it, and the lines and torn tail of the journal it might have come from. */
export function dagWithLooseLogArbitrary(): fc.Arbitrary<DagWithLooseLog> {
  return dagArbitrary().chain((dag) =>
    fc
      .tuple(
        looseRawLogArbitrary(dag),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 400 }),
        fc.option(fc.record<TornTail>({ line: fc.nat(), offset: fc.nat() })),
      )
      .map(([events, gaps, tornTail]) => {
        // 1-based, increasing lines, with blank lines (gaps) between some.
        let line = 0;
        const lines = Array.from(events, (_, i) => (line += 1 + (gaps[i] ?? 0)));
        return { dag, events, source: { lines, tornTail } };
      }),
  );
}
