/**
 * Executive audit snapshots (docs/models/executive.md, "Incremental gates"), both builds: a
 * journal snapshotted at any byte on one engine and resumed on another instance gives the report
 * a whole audit gives — on corrupted, re-encoded journals with mismatches, malformed lines and
 * torn tails, and along chains of snapshots. A snapshot whose body was edited and its checksum
 * recomputed is refused by name or restored, never a trap; one of another model is refused.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadExecutiveEngine, type WasmExecutiveEngine } from "../../bindings/executive/index.js";
import type { ExecutiveSnapshotBody } from "../../bindings/executive/snapshot-body.js";
import { JournalError } from "../../src/journal/errors.js";
import { referenceExecutiveEngine } from "../../src/models/executive/engine.js";
import { readSpec } from "../../src/models/executive/index.js";
import { decodeSnapshot, encodeSnapshot } from "../../src/snapshot-format.js";
import { FLAVOURS } from "../support/engines.js";
import {
  encodeExecutiveJournal,
  executiveJournalCaseArbitrary,
} from "../support/executive-encoding.js";
import { encodingStyleArbitrary, PLAIN_STYLE } from "../support/jsonl-encoding.js";

let writers: WasmExecutiveEngine[];
let resumers: WasmExecutiveEngine[];
beforeAll(async () => {
  writers = await Promise.all(FLAVOURS.map((flavour) => loadExecutiveEngine({ flavour })));
  resumers = await Promise.all(FLAVOURS.map((flavour) => loadExecutiveEngine({ flavour })));
});

function snapshotAt(engine: WasmExecutiveEngine, bytes: Uint8Array, cut: number): Uint8Array {
  const auditor = engine.openAuditor({ snapshots: true });
  auditor.write(bytes.subarray(0, cut));
  return auditor.snapshot();
}

describe("executive audit snapshots", () => {
  it("resume to the whole audit's report from any byte, on another instance and build", async () => {
    let resumedMidway = 0;
    await fc.assert(
      fc.asyncProperty(
        executiveJournalCaseArbitrary.filter(
          ({ header }) => readSpec(header.spec, header.budget).ok,
        ),
        encodingStyleArbitrary,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3 }),
        async (journal, style, at) => {
          const bytes = encodeExecutiveJournal(journal, style);
          let whole: unknown;
          try {
            whole = await referenceExecutiveEngine.auditBytes(bytes);
          } catch {
            return; // a refused header: nothing to resume
          }
          for (const writer of writers) {
            for (const resumer of resumers) {
              // Cuts past the header, where a snapshot holds an audit under way.
              const headerEnd = bytes.indexOf(0x0a) + 1;
              const cuts = at.map((f) => headerEnd + Math.floor(f * (bytes.length - headerEnd)));
              for (const cut of [0, ...cuts]) {
                const snapshot = snapshotAt(writer, bytes, cut);
                const resumed = await resumer.resume(snapshot, [
                  bytes.subarray(0, cut + 3),
                  bytes.subarray(cut + 3),
                ]);
                expect(resumed.finish(), `at ${cut}`).toEqual(whole);
                if ((decodeSnapshot(snapshot, "s") as ExecutiveSnapshotBody).started) {
                  resumedMidway += 1;
                }
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(resumedMidway).toBeGreaterThan(200);
  });

  it("chain: a snapshot of a resumed audit resumes again", async () => {
    const bytes = await mismatchingJournal();
    const whole = await referenceExecutiveEngine.auditBytes(bytes);
    const writer = writers[0] as WasmExecutiveEngine;
    const resumer = resumers[1] as WasmExecutiveEngine;
    let snapshot = snapshotAt(writer, bytes, 0);
    for (let cut = 0; cut < bytes.length; cut += Math.ceil(bytes.length / 7)) {
      const auditor = await resumer.resume(snapshot, [bytes.subarray(0, cut)], {
        snapshots: true,
      });
      snapshot = auditor.snapshot();
    }
    expect((await writer.resume(snapshot, [bytes])).finish()).toEqual(whole);
  });

  it("refuses an edited snapshot by name, or restores it, and never traps", async () => {
    const bytes = await mismatchingJournal();
    const engine = writers[0] as WasmExecutiveEngine;
    const snapshot = snapshotAt(engine, bytes, Math.floor(bytes.length * 0.8));
    const body = decodeSnapshot(snapshot, "s") as ExecutiveSnapshotBody;
    expect(body.recorded.length).toBeGreaterThan(0);
    const report = body.report;
    let refused = 0;
    const tryBody = async (edited: ExecutiveSnapshotBody) => {
      try {
        const auditor = await engine.resume(encodeSnapshot(edited), [bytes]);
        auditor.finish();
      } catch (error) {
        expect(error).toBeInstanceOf(JournalError);
        expect((error as Error).message).toMatch(/refusing the snapshot/);
        refused += 1;
      }
    };
    // The block's fields and its listed mismatches (the entries past them are unused).
    const used = 104 + body.recorded.length * 320;
    for (let at = 0; at < used; at++) {
      for (const value of [0xff, 0x80]) {
        const edited = report.slice();
        edited[at] = value;
        await tryBody({ ...body, report: edited });
      }
    }
    const machine = body.machine;
    for (let at = 0; at < machine.length; at += 7) {
      await tryBody({ ...body, machine: `${machine.slice(0, at)}9${machine.slice(at + 1)}` });
    }
    await tryBody({ ...body, recorded: [...body.recorded.slice(1), "{"] });
    await tryBody({ ...body, header: body.header.replace('"steps":', '"steps":1') });
    // Many edits land where any value is a possible one (a count, a line); the checks refuse the rest.
    expect(refused).toBeGreaterThan(300);
  });

  it("refuses a snapshot of another model's journal", async () => {
    const bytes = await mismatchingJournal();
    const snapshot = snapshotAt(writers[0] as WasmExecutiveEngine, bytes, 100);
    const body = decodeSnapshot(snapshot, "s");
    const foreign = encodeSnapshot({ ...body, model: "operations", state: "" } as never);
    await expect((writers[0] as WasmExecutiveEngine).resume(foreign, [bytes])).rejects.toThrow(
      "it is a snapshot of an operations journal, and this is an executive journal",
    );
  });
});

/** A journal with mismatches listed and counted, in plain JSON. */
async function mismatchingJournal(): Promise<Uint8Array> {
  const sample = fc.sample(executiveJournalCaseArbitrary, { numRuns: 400, seed: 7 });
  for (const journal of sample) {
    const bytes = encodeExecutiveJournal(
      { ...journal, corruptions: ["none", "seq", "none"], tail: "terminated" },
      PLAIN_STYLE,
    );
    try {
      const report = await referenceExecutiveEngine.auditBytes(bytes);
      if (report.legality.illegal >= 3 && report.integrity === null) return bytes;
    } catch {}
  }
  throw new Error("no sample journal with mismatches");
}
