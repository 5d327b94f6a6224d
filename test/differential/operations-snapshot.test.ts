/**
 * Operations kernel snapshots (docs/models/operations.md, "Incremental gates"), both builds: a
 * journal snapshotted at any byte, on one engine, and resumed on another (another instance,
 * another hash key) gives the report a whole audit gives — for the simulated runtime's journals
 * with faults, adversarial records with integrity faults and torn tails, and chains of
 * snapshots. A snapshot whose state was edited and its checksum recomputed is refused by name
 * or restored, never a trap or a hang; a snapshot of another journal or model is refused.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  loadOperationsEngine,
  type WasmOperationsEngine,
} from "../../bindings/operations/index.js";
import type { OperationsSnapshotBody } from "../../bindings/operations/snapshot-body.js";
import { JournalError } from "../../src/journal/errors.js";
import { decodeSnapshot, encodeSnapshot } from "../../src/snapshot-format.js";
import { FLAVOURS } from "../support/engines.js";
import { encodingStyleArbitrary, PLAIN_STYLE } from "../support/jsonl-encoding.js";
import { FAULT_KINDS, faultyJournalArbitrary } from "../support/operations-arbitraries.js";
import {
  adversarialRecords,
  encodeOperationsJournal,
  operationsJournalOptionsArbitrary,
} from "../support/operations-encoding.js";

let writers: WasmOperationsEngine[];
let resumers: WasmOperationsEngine[];
beforeAll(async () => {
  writers = await Promise.all(FLAVOURS.map((flavour) => loadOperationsEngine({ flavour })));
  resumers = await Promise.all(FLAVOURS.map((flavour) => loadOperationsEngine({ flavour })));
});

function snapshotAt(engine: WasmOperationsEngine, bytes: Uint8Array, cut: number): Uint8Array {
  const auditor = engine.openAuditor({ snapshots: true });
  auditor.write(bytes.subarray(0, cut));
  return auditor.snapshot();
}

async function expectResumedAsWhole(bytes: Uint8Array, cuts: readonly number[]): Promise<void> {
  for (const [flavour, writer] of writers.entries()) {
    const whole = await writer.auditBytes(bytes);
    for (const resumer of resumers) {
      for (const cut of cuts) {
        const snapshot = snapshotAt(writer, bytes, cut);
        const resumed = await resumer.resume(snapshot, [
          bytes.subarray(0, cut + 3),
          bytes.subarray(cut + 3),
        ]);
        expect(
          (resumed as { finish(): unknown }).finish(),
          `${FLAVOURS[flavour]} at ${cut}`,
        ).toEqual(whole);
      }
    }
  }
}

describe("operations kernel snapshots", () => {
  it("resume to the whole audit's report from any byte, for every injected fault", async () => {
    for (const fault of FAULT_KINDS) {
      await fc.assert(
        fc.asyncProperty(
          faultyJournalArbitrary(fault),
          encodingStyleArbitrary,
          operationsJournalOptionsArbitrary,
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
          async (journal, style, options, at) => {
            const bytes = encodeOperationsJournal(journal.records, style, options);
            await expectResumedAsWhole(
              bytes,
              at.map((f) => Math.floor(f * bytes.length)),
            );
          },
        ),
        { numRuns: 6 },
      );
    }
  });

  it("resume to the whole audit's report at every line of adversarial journals", async () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const records = adversarialRecords({ seed, count: 40, breakage: 25 });
      const bytes = encodeOperationsJournal(records, PLAIN_STYLE, {
        header: seed % 2 === 0,
        tail: "torn",
      });
      const cuts = [0, bytes.length];
      for (let at = 0; at < bytes.length; at++) if (bytes[at] === 0x0a) cuts.push(at + 1, at);
      await expectResumedAsWhole(bytes, cuts);
    }
  });

  it("chain: a snapshot of a resumed journal resumes as well", async () => {
    const records = adversarialRecords({ seed: 11, count: 60, breakage: 10 });
    const bytes = encodeOperationsJournal(records, PLAIN_STYLE, {
      header: true,
      tail: "terminated",
    });
    const [writer, resumer] = [writers[0], resumers[0]] as [
      WasmOperationsEngine,
      WasmOperationsEngine,
    ];
    const whole = await writer.auditBytes(bytes);
    let snapshot = snapshotAt(writer, bytes, Math.floor(bytes.length / 4));
    for (const fraction of [0.5, 0.75]) {
      const cut = Math.floor(bytes.length * fraction);
      const resumed = await resumer.resume(snapshot, [bytes.subarray(0, cut)], { snapshots: true });
      snapshot = resumed.snapshot();
    }
    expect((await writer.resume(snapshot, [bytes])).finish()).toEqual(whole);
  });

  it("tell a resumed auditor that completed no line since: the snapshot it resumed from stands", async () => {
    const records = adversarialRecords({ seed: 12, count: 40, breakage: 0 });
    const bytes = encodeOperationsJournal(records, PLAIN_STYLE, {
      header: true,
      tail: "terminated",
    });
    const engine = writers[0] as WasmOperationsEngine;
    const cut = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1; // all but the last line
    const snapshot = snapshotAt(engine, bytes, cut);
    const options = { snapshots: true };
    const unchanged = await engine.resume(snapshot, [bytes.subarray(0, cut)], options);
    expect(unchanged.advancedSinceResume()).toBe(false);
    const partial = await engine.resume(snapshot, [bytes.subarray(0, bytes.length - 1)], options);
    expect(partial.advancedSinceResume()).toBe(false);
    const grown = await engine.resume(snapshot, [bytes], options);
    expect(grown.advancedSinceResume()).toBe(true);
    expect(grown.finish()).toEqual(await engine.auditBytes(bytes));
    expect(engine.openAuditor(options).advancedSinceResume()).toBe(true);
  });

  it("refuse an edited state by name, or restore it: never a trap or a hang", async () => {
    const records = adversarialRecords({ seed: 5, count: 80, breakage: 15 });
    const bytes = encodeOperationsJournal(records, PLAIN_STYLE, {
      header: true,
      tail: "terminated",
    });
    const [writer, resumer] = [writers[0], resumers[0]] as [
      WasmOperationsEngine,
      WasmOperationsEngine,
    ];
    const snapshot = snapshotAt(writer, bytes, Math.floor(bytes.length / 2));
    const body = decodeSnapshot(snapshot, "s") as OperationsSnapshotBody;
    const { state } = body;
    let refused = 0;
    let restored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(state.length - 1), fc.nat(255)), { minLength: 1, maxLength: 4 }),
        async (edits) => {
          const edited = state.slice();
          for (const [at, value] of edits) edited[at] = value;
          const forged = encodeSnapshot({ ...body, state: edited });
          try {
            (await resumer.resume(forged, [bytes])).finish();
            restored += 1;
          } catch (error) {
            expect(error).toBeInstanceOf(JournalError);
            expect((error as Error).message).toMatch(/refusing the snapshot|memory cannot grow/);
            refused += 1;
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(refused).toBeGreaterThan(50);
    expect(restored).toBeGreaterThan(0); // an edited epoch or attempt is still a state
    // Every byte, in turn, made one no UTF-8 text can hold: ids and texts the report will show
    // must still decode.
    for (let at = 0; at < state.length; at++) {
      for (const value of [0xff, 0x80]) {
        const edited = state.slice();
        edited[at] = value;
        try {
          (await resumer.resume(encodeSnapshot({ ...body, state: edited }), [bytes])).finish();
        } catch (error) {
          expect(error, `byte ${at} = ${value}`).toBeInstanceOf(JournalError);
        }
      }
    }
    // Counts that promise more records than the bytes hold.
    const huge = state.slice();
    new DataView(huge.buffer).setUint32(0, 0xffffffff, true);
    await expect(resumer.resume(encodeSnapshot({ ...body, state: huge }), [bytes])).rejects.toThrow(
      /its state is not one the operations kernel wrote/,
    );
    await expect(
      resumer.resume(encodeSnapshot({ ...body, state: state.subarray(0, 17) }), [bytes]),
    ).rejects.toThrow(/its state is not one the operations kernel wrote/);
  });

  it("refuse a snapshot of another journal, or of a journal of the other model", async () => {
    const records = adversarialRecords({ seed: 8, count: 20, breakage: 0 });
    const bytes = encodeOperationsJournal(records, PLAIN_STYLE, {
      header: true,
      tail: "terminated",
    });
    const writer = writers[0] as WasmOperationsEngine;
    const snapshot = snapshotAt(writer, bytes, bytes.length);
    const other = bytes.slice();
    other[other.length - 3] = 0x20;
    await expect(writer.resume(snapshot, [other])).rejects.toThrow(/are not the ones it covers/);
    await expect(writer.resume(snapshot, [bytes.subarray(0, 9)])).rejects.toThrow(/has only 9/);
    const { model: _, ...rest } = decodeSnapshot(snapshot, "s") as OperationsSnapshotBody;
    const dagShaped = encodeSnapshot({ ...rest, model: "dag" } as never);
    await expect(writer.resume(dagShaped, [bytes])).rejects.toThrow(
      /it is a snapshot of a dag journal, and this is an operations journal/,
    );
  });
});
