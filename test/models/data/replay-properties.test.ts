/**
 * The replay of a data model's findings (src/models/data/replay.ts) agrees with the reference
 * report over generated models and journals (test/support/data-model-arbitrary.ts), split
 * streams and array documents included:
 *
 * - it gives the report's findings (a replay that does not returns null, and fails here);
 * - the interpreter's watcher hook tells every instance created and moved, each from the state
 *   it was in: the instances it tells of, counted by state after the last record, are the
 *   report's `final.entities`;
 * - each listed finding's instance is, before its record and after it, in the states that a
 *   log of every instance's state at each record boundary holds (at the end, for `open-at-end`).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readDataJournal } from "../../../src/journal/data/read.js";
import { auditDataEntries, type DataEntry } from "../../../src/models/data/audit.js";
import { checkModel } from "../../../src/models/data/check.js";
import type { CompiledModel } from "../../../src/models/data/compiled.js";
import { auditDataJournals } from "../../../src/models/data/engine.js";
import type { FoldWatcher } from "../../../src/models/data/fold-watch.js";
import { replayFindings } from "../../../src/models/data/replay.js";
import type { DataReport } from "../../../src/models/data/report.js";
import { dataModelAndJournalArbitrary } from "../../support/data-model-arbitrary.js";

const RUNS = { numRuns: 150, seed: 3535 };

type States = ReadonlyMap<string, { readonly entity: number; readonly state: number }>;

/** Every instance's state at each record boundary of one journal, told by the watcher hook. */
class StateLog implements FoldWatcher {
  private readonly live = new Map<string, { entity: number; state: number }>();
  /** By record index, every kept instance's state before that record. */
  readonly before: States[] = [];

  constructor(private readonly model: CompiledModel) {}

  record(index: number): void {
    this.before[index] = new Map(this.live);
  }

  moved(entity: number, key: bigint | string, from: number | null, to: number): void {
    const tag = tagOf(entity, key);
    expect(from).toBe(this.live.get(tag)?.state ?? null);
    const compiled = this.model.entities[entity];
    if (compiled?.reuse && compiled.final[to]) this.live.delete(tag);
    else this.live.set(tag, { entity, state: to });
  }

  found(): void {}

  get end(): States {
    return this.live;
  }

  /** The states after record `index`: before the next, or at the end. */
  after(index: number): States {
    return this.before[index + 1] ?? this.live;
  }
}

function tagOf(entity: number, key: bigint | string): string {
  return `${entity}:${typeof key === "bigint" ? "i" : "s"}${key}`;
}

function counts(model: CompiledModel, states: States): DataReport["final"]["entities"] {
  return Object.fromEntries(
    model.entities.map((entity, index) => [
      entity.name,
      Object.fromEntries(
        entity.states.map((state, place) => [
          state,
          [...states.values()].filter((kept) => kept.entity === index && kept.state === place)
            .length,
        ]),
      ),
    ]),
  );
}

describe("a data model's findings replayed, over generated models and journals", () => {
  it("agrees with the reference report and with a log of every instance's state", () => {
    let statesChecked = 0;
    let moves = 0;
    fc.assert(
      fc.property(dataModelAndJournalArbitrary(), ({ model: file, journal }) => {
        const model = checkModel(file, "generated.json");
        const entries = readDataJournal(model, journal.bytes, "journal").events as DataEntry[];
        for (const report of auditDataJournals(model, journal.bytes, { file: "journal" })) {
          const replayed = replayFindings(model, entries, report);
          expect(replayed).not.toBeNull();
          const log = new StateLog(model);
          const watch = { ...(report.journal === undefined ? {} : { journal: report.journal }) };
          auditDataEntries(model, entries, null, { ...watch, watcher: log });
          expect(counts(model, log.end)).toEqual(report.final.entities);
          replayed?.listed.forEach((finding, place) => {
            const { instance } = finding;
            if (instance === null) return;
            const listed = report.legality.first[place] as DataReport["legality"]["first"][number];
            const entity = model.entities.findIndex(({ name }) => name === instance.entity);
            const stateIn = (states: States) => {
              const kept = states.get(tagOf(entity, instance.key));
              return kept === undefined
                ? null
                : (model.entities[entity]?.states[kept.state] ?? null);
            };
            const atEnd = listed.reason === "open-at-end";
            const before = stateIn(atEnd ? log.end : (log.before[listed.index] as States));
            const after = stateIn(atEnd ? log.end : log.after(listed.index));
            expect(instance.before).toBe(before);
            if (instance.forgotten) {
              expect(after).toBeNull();
              expect(model.entities[entity]?.reuse).toBe(true);
            } else expect(instance.after).toBe(after);
            statesChecked += 1;
            if (instance.before !== instance.after) moves += 1;
          });
        }
      }),
      RUNS,
    );
    // Not vacuous: findings on instances, some of which their record moved.
    expect(statesChecked).toBeGreaterThan(50);
    expect(moves).toBeGreaterThan(5);
  });
});
