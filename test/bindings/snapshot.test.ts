import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { STATUSES } from "../../bindings/dag/codes.js";
import type { DagSnapshotBody } from "../../bindings/dag/snapshot-body.js";
import { loadEngine, type WasmEngine } from "../../bindings/index.js";
import { sha256 } from "../../src/digest/sha256.js";
import { makeDag } from "../../src/models/dag/dag.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import {
  decodeSnapshot,
  encodeSnapshot,
  SNAPSHOT_MAGIC,
  SNAPSHOT_VERSION,
  u32Bytes,
} from "../../src/snapshot-format.js";
import { concatBytes } from "../support/bytes.js";
import { jsonlJournalArbitrary } from "../support/jsonl-encoding.js";
import { asyncOutcomeOf } from "../support/outcome.js";

let engine: WasmEngine;
beforeAll(async () => {
  engine = await loadEngine();
});

const encoder = new TextEncoder();
const header =
  '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"B","deps":["A"]}]}}\n';
const journal = encoder.encode(
  `${header}{"kind":"dispatched","id":"A"}\n{"kind":"surface-widened","id":"A","surface":["a.ts"]}\n{"kind":"landed","id":"A"}\n`,
);
const appended = encoder.encode(
  '{"kind":"gate-checked","id":"A","result":"pass"}\n{"kind":"dispatched","id":"B"}\n',
);

function snapshotOf(bytes: Uint8Array): Uint8Array {
  const auditor = engine.openAuditor(null, { snapshots: true });
  auditor.write(bytes);
  return auditor.snapshot();
}

async function refusal(snapshot: Uint8Array, bytes: Uint8Array): Promise<string> {
  const outcome = await asyncOutcomeOf(async () => (await engine.resume(snapshot, bytes)).finish());
  expect(outcome).toHaveProperty("threw.class", "JournalError");
  return (outcome as { threw: { message: string } }).threw.message;
}

/** A snapshot of these bytes after its head, the head's digest theirs. */
function redigested(body: Uint8Array): Uint8Array {
  const head = `${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n${sha256().update(body).hex()}\n`;
  return concatBytes(encoder.encode(head), body);
}

describe("the snapshot file", () => {
  it("is the magic and version, the SHA-256 of the body, the JSON of its other fields and where its byte fields lie, then those bytes, each at a multiple of 8", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 6 }), { maxLength: 4 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.uint8Array({ maxLength: 40 }),
        (ids, records, paths) => {
          const body = {
            model: "dag",
            dag: { nodes: ids.map((id, i) => ({ id: `${id}${i}`, deps: [] })) },
            nodeRecords: records,
            started: true,
            pathBytes: paths,
          } as unknown as DagSnapshotBody;
          const pathsAt = Math.ceil(records.length / 8) * 8;
          const line = encoder.encode(
            `${JSON.stringify({
              model: "dag",
              dag: body.dag,
              started: true,
              sections: { nodeRecords: [0, records.length], pathBytes: [pathsAt, paths.length] },
            })}\n`,
          );
          const headBytes = `${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}\n`.length + 65;
          const binaryAt = Math.ceil((headBytes + line.length) / 8) * 8;
          const afterHead = new Uint8Array(binaryAt - headBytes + pathsAt + paths.length);
          afterHead.set(line);
          afterHead.set(records, binaryAt - headBytes);
          afterHead.set(paths, binaryAt - headBytes + pathsAt);
          const encoded = encodeSnapshot(body);
          expect(encoded).toBeInstanceOf(Uint8Array);
          expect(Buffer.compare(encoded, redigested(afterHead))).toBe(0);
          expect(decodeSnapshot(encoded, "s")).toEqual(body);
        },
      ),
    );
  });

  it("refuses sections that do not lie where a snapshot's can, though its checksum matches", () => {
    const encoded = encodeSnapshot({
      model: "operations",
      started: true,
      headerPending: false,
      prefix: { bytes: 0, nextLine: 1, sha256: sha256().hex() },
      state: new Uint8Array(20).fill(7),
    });
    const text = new TextDecoder().decode(encoded);
    const lineStart = text.indexOf("\n", text.indexOf("\n") + 1) + 1;
    const lineEnd = text.indexOf("\n", lineStart);
    const fields = JSON.parse(text.slice(lineStart, lineEnd));
    expect(fields.sections).toEqual({ state: [0, 20] });
    const withSections = (sections: unknown) => {
      const line = encoder.encode(JSON.stringify({ ...fields, sections }));
      const rest = encoded.subarray(lineEnd);
      return redigested(concatBytes(line, rest));
    };
    expect(decodeSnapshot(withSections({ state: [0, 20] }), "s").state).toEqual(
      new Uint8Array(20).fill(7),
    );
    for (const sections of [
      { state: [0, 21] },
      { state: [4, 8] },
      { state: [-8, 8] },
      { state: [0, 1.5] },
      { state: [0] },
      { state: "0,20" },
      { model: [0, 4] },
      null,
      [[0, 20]],
    ]) {
      expect(() => decodeSnapshot(withSections(sections), "s"), JSON.stringify(sections)).toThrow(
        /its sections do not lie where its JSON says/,
      );
    }
  });
});

describe("snapshot and resume", () => {
  it("equal a full audit at any split point, in any chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        jsonlJournalArbitrary(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 64 }),
        async (journal, where, chunkSize) => {
          const expected = await asyncOutcomeOf(() =>
            referenceEngine.auditBytes(journal.given, journal.bytes),
          );
          const split = Math.floor(where * journal.bytes.length);
          const resumed = await asyncOutcomeOf(async () => {
            const auditor = engine.openAuditor(journal.given, { snapshots: true });
            for (let at = 0; at < split; at += chunkSize)
              auditor.write(journal.bytes.subarray(at, Math.min(split, at + chunkSize)));
            const snapshot = auditor.snapshot();
            return (await engine.resume(snapshot, journal.bytes, journal.given)).finish();
          });
          expect(resumed).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("audits only the appended bytes, and a resumed auditor snapshots again", async () => {
    const first = snapshotOf(journal);
    const resumed = await engine.resume(first, concatBytes(journal, appended));
    const second = resumed.snapshot();
    expect(resumed.finish()).toEqual(
      await referenceEngine.auditBytes(null, concatBytes(journal, appended)),
    );
    const again = await engine.resume(second, concatBytes(journal, appended));
    expect(again.finish()).toEqual(
      await referenceEngine.auditBytes(null, concatBytes(journal, appended)),
    );
  });

  it("says whether a line was completed since it resumed: the snapshot it resumed from stands until then", async () => {
    expect(engine.openAuditor(null, { snapshots: true }).advancedSinceResume()).toBe(true);
    const first = snapshotOf(journal);
    const unchanged = await engine.resume(first, journal);
    expect(unchanged.advancedSinceResume()).toBe(false);
    expect(unchanged.snapshot()).toEqual(first);
    const partial = await engine.resume(first, concatBytes(journal, appended.subarray(0, 10)));
    expect(partial.advancedSinceResume()).toBe(false);
    expect(partial.snapshot()).toEqual(first);
    const grown = await engine.resume(first, concatBytes(journal, appended));
    expect(grown.advancedSinceResume()).toBe(true);
    expect(grown.snapshot()).not.toEqual(first);
  });

  it("refuses a changed prefix", async () => {
    const snapshot = snapshotOf(journal);
    const changed = journal.slice();
    changed[changed.indexOf(0x41, header.length)] = 0x42; // the first event's "A" becomes "B"
    expect(await refusal(snapshot, concatBytes(changed, appended))).toMatch(
      /first \d+ bytes are not the ones it covers/,
    );
  });

  it("refuses a journal shorter than the prefix it covers", async () => {
    const snapshot = snapshotOf(journal);
    expect(await refusal(snapshot, journal.subarray(0, journal.length - 5))).toMatch(
      /has only \d+: truncated/,
    );
  });

  it("refuses a tampered snapshot", async () => {
    const snapshot = new TextDecoder().decode(snapshotOf(journal));
    const tampered = snapshot.replace('"headerPending":false', '"headerPending":true');
    expect(tampered).not.toBe(snapshot);
    expect(await refusal(encoder.encode(tampered), concatBytes(journal, appended))).toMatch(
      /checksum does not match/,
    );
  });

  it("refuses an edited state whose checksum was made to match, naming what does not fit", async () => {
    const surfaceJournal = concatBytes(
      journal,
      encoder.encode('{"kind":"surface-widened","id":"B","surface":["b.ts","a.ts"]}\n'),
    );
    const body = decodeSnapshot(snapshotOf(surfaceJournal), "s") as DagSnapshotBody;
    const edited = (edit: Partial<DagSnapshotBody>) => encodeSnapshot({ ...body, ...edit });
    const u32s = (...values: number[]) => u32Bytes(values);
    const cases: [Partial<DagSnapshotBody>, RegExp][] = [
      [
        { pathBytes: "not bytes" as unknown as Uint8Array },
        /its pathBytes is not a section of bytes/,
      ],
      [{ surfaceIds: 7 as unknown as Uint8Array }, /its surfaceIds is not a section of bytes/],
      [{ pathEnds: new Uint8Array(5) }, /pathEnds is not a whole number of u32s/],
      [{ pathEnds: u32s(4, 2) }, /its path ends run backwards/],
      [{ pathEnds: u32s(4, 9) }, /its path ends do not fit its path bytes/],
      [{ surfaceLengths: u32s(0) }, /its surfaces do not fit its DAG/],
      [{ surfaceLengths: u32s(4, 0) }, /its surface ids do not fit its surfaces/],
      [{ surfaceIds: u32s(0, 1, 5) }, /a surface names a path it does not hold/],
      [{ pathBytes: encoder.encode("a.tsa.ts") }, /it holds the same path twice/],
    ];
    for (const [edit, message] of cases) {
      expect(await refusal(edited(edit), surfaceJournal), JSON.stringify(edit)).toMatch(message);
    }
  });

  it("reports as tampered every node its state holds proven without a logged pass", async () => {
    // No journal can bring this about (a node is proven only by a logged pass); a state edited
    // with its checksum made to match can, and tamperEvident is there to say so.
    const ids = ["A", "B", "C", "D", "E", "F"];
    const sixNodes = encoder.encode(
      `${JSON.stringify({ statefold: "journal", version: 1, dag: { nodes: ids.map((id) => ({ id, deps: [] })) } })}\n{"kind":"dispatched","id":"A"}\n`,
    );
    const body = decodeSnapshot(snapshotOf(sixNodes), "s") as DagSnapshotBody;
    const records = body.nodeRecords.slice();
    const recordBytes = records.length / ids.length;
    const provenCode = STATUSES.indexOf("proven");
    for (const node of [1, 2, 4]) records[node * recordBytes] = provenCode;
    const resumed = await engine.resume(
      encodeSnapshot({ ...body, nodeRecords: records }),
      sixNodes,
    );
    const report = resumed.finish();
    expect(report.invariants.tamperEvident).toEqual({ holds: false, nodes: ["B", "C", "E"] });
    expect(report.final.counts.proven).toBe(3);
    const untouched = await engine.resume(snapshotOf(sixNodes), sixNodes);
    expect(untouched.finish().invariants.tamperEvident).toEqual({ holds: true });
  });

  it("restores or refuses by name any bytes in its packed fields: never a crash", async () => {
    const body = decodeSnapshot(snapshotOf(journal), "s") as DagSnapshotBody;
    const fields = ["pathBytes", "pathEnds", "surfaceLengths", "surfaceIds"] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fields),
        fc.uint8Array({ maxLength: 24 }),
        async (field, bytes) => {
          const snapshot = encodeSnapshot({ ...body, [field]: bytes });
          const outcome = await asyncOutcomeOf(async () =>
            (await engine.resume(snapshot, concatBytes(journal, appended))).finish(),
          );
          if ("threw" in outcome) expect(outcome).toHaveProperty("threw.class", "JournalError");
          else expect(outcome).toHaveProperty("returned.events");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses a truncated snapshot", async () => {
    const snapshot = snapshotOf(journal);
    for (const length of [
      0,
      10,
      SNAPSHOT_MAGIC.length + 3,
      Math.floor(snapshot.length / 2),
      snapshot.length - 1,
    ]) {
      expect(await refusal(snapshot.subarray(0, length), concatBytes(journal, appended))).toMatch(
        /refusing the snapshot/,
      );
    }
  });

  it.each([SNAPSHOT_VERSION - 1, SNAPSHOT_VERSION + 1])(
    "refuses a snapshot of another format version (%i)",
    async (version) => {
      const snapshot = new TextDecoder()
        .decode(snapshotOf(journal))
        .replace(`${SNAPSHOT_MAGIC} ${SNAPSHOT_VERSION}`, `${SNAPSHOT_MAGIC} ${version}`);
      expect(await refusal(encoder.encode(snapshot), journal)).toContain(
        `expected format version ${SNAPSHOT_VERSION}, found "${version}"`,
      );
    },
  );

  it("refuses a foreign snapshot: another journal's, or another DAG's", async () => {
    const other = encoder.encode(
      `${header}{"kind":"dispatched","id":"A"}\n{"kind":"skipped","id":"B"}\n{"kind":"landed","id":"A"}\n`,
    );
    expect(await refusal(snapshotOf(other), concatBytes(journal, appended))).toMatch(
      /not the ones it covers/,
    );
    const made = makeDag([{ id: "X", deps: [] }]);
    if (!made.ok) throw new Error("dag");
    const outcome = await asyncOutcomeOf(async () =>
      (await engine.resume(snapshotOf(journal), journal, made.dag)).finish(),
    );
    expect(outcome).toHaveProperty("threw.class", "JournalError");
  });

  it("leaves a header's DAG to the header, which its prefix holds; a given DAG it keeps", async () => {
    const body = decodeSnapshot(snapshotOf(journal), "s") as DagSnapshotBody;
    expect(body.dag).toBe("header");
    const whole = concatBytes(journal, appended);
    expect((await engine.resume(snapshotOf(journal), whole)).finish()).toEqual(
      await referenceEngine.auditBytes(null, whole),
    );

    const made = makeDag([
      { id: "A", deps: [] },
      { id: "B", deps: ["A"] },
    ]);
    if (!made.ok) throw new Error("dag");
    const headerless = concatBytes(...[journal, appended].map((b) => b.subarray(header.length)));
    const auditor = engine.openAuditor(made.dag, { snapshots: true });
    auditor.write(headerless.subarray(0, journal.length - header.length));
    const given = auditor.snapshot();
    expect((decodeSnapshot(given, "s") as DagSnapshotBody).dag).toEqual({ nodes: made.dag.nodes });
    expect((await engine.resume(given, headerless)).finish()).toEqual(
      await referenceEngine.auditBytes(made.dag, headerless),
    );
  });

  it("refuses a snapshot that leaves its DAG to a header the journal does not start with", async () => {
    const body = decodeSnapshot(snapshotOf(journal), "s") as DagSnapshotBody;
    const blank = encoder.encode(" ".repeat(body.prefix.bytes));
    const forged = { ...body, prefix: { ...body.prefix, sha256: sha256().update(blank).hex() } };
    expect(await refusal(encodeSnapshot(forged), blank)).toMatch(
      /audits against the journal header's DAG, but the journal starts with no header/,
    );
  });

  it("refuses a snapshot that started auditing but names no DAG", async () => {
    const body = decodeSnapshot(snapshotOf(journal), "s") as DagSnapshotBody;
    expect(body.started).toBe(true);
    const forged = encodeSnapshot({ ...body, dag: null });
    expect(await refusal(forged, concatBytes(journal, appended))).toMatch(
      /refusing the snapshot: it started auditing, but names no DAG/,
    );
  });

  it("refuses to snapshot an auditor opened without snapshots, and one that is finished", () => {
    const plain = engine.openAuditor(null);
    plain.write(journal);
    expect(() => plain.snapshot()).toThrow(/snapshots: true/);
    const auditor = engine.openAuditor(null, { snapshots: true });
    auditor.write(journal);
    auditor.finish();
    expect(() => auditor.snapshot()).toThrow(/finished/);
  });
});
