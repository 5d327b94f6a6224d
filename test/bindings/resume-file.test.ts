/**
 * Resuming on a journal file (`resumableFile`), every model: the prefix the snapshot covers is
 * hashed by a reading thread while the state is restored, and checked last. What it must give is
 * what resuming on the journal's bytes gives — the whole audit's report, the snapshot a fresh
 * auditor of the whole journal takes — and the same refusals, the changed prefix named as such
 * even when the change also breaks the restore (a header's DAG).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExecutiveEngine } from "../../bindings/executive/index.js";
import { loadEngine } from "../../bindings/index.js";
import { loadOperationsEngine } from "../../bindings/operations/index.js";
import type { ResumeJournal } from "../../src/engine.js";
import { campaignLines } from "../../src/generate/dag/campaign.js";
import { executiveJournal } from "../../src/generate/executive/journal.js";
import { operationsJournal } from "../../src/generate/operations/journal.js";
import { resumableFile } from "../../src/journal/read-descriptor.js";
import { readFileChunks } from "../../src/journal/read-file-bytes.js";
import type { ResumableFile } from "../../src/journal/resumable-file.js";
import { decodeSnapshot } from "../../src/snapshot-format.js";
import { concatBytes } from "../support/bytes.js";
import { asyncOutcomeOf } from "../support/outcome.js";
import { testTempDir } from "../support/temp-dirs.js";

const MIB = 2 ** 20;
const folder = testTempDir("statefold-resume-file-");
const files: ResumableFile[] = [];
afterAll(() => {
  for (const file of files) file.close();
  rmSync(folder, { recursive: true, force: true });
});

/** What the tests need of a model's engine: its auditors, and resuming. */
interface Auditing {
  auditBytes(bytes: Uint8Array): Promise<unknown>;
  openAuditor(): { write(chunk: Uint8Array): void; snapshot(): Uint8Array; finish(): unknown };
  resume(
    snapshot: Uint8Array,
    journal: ResumeJournal,
  ): Promise<{ finish(): unknown; snapshot(): Uint8Array; advancedSinceResume(): boolean }>;
}

interface Model {
  readonly name: string;
  readonly engine: Auditing;
  /** About 3 MB of the model's journal, a prefix of over a mebibyte and what follows it. */
  readonly prefix: Uint8Array;
  readonly appended: Uint8Array;
}

const encoder = new TextEncoder();

/** The lines' bytes, cut at the line that ends past 60 % of them. */
function split(lines: Iterable<string>): { prefix: Uint8Array; appended: Uint8Array } {
  const bytes = encoder.encode([...lines].join(""));
  const cut = bytes.indexOf(0x0a, Math.floor(bytes.length * 0.6)) + 1;
  return { prefix: bytes.subarray(0, cut), appended: bytes.subarray(cut) };
}

const models: Model[] = [];
beforeAll(async () => {
  const dag = await loadEngine();
  const operations = await loadOperationsEngine();
  const executive = await loadExecutiveEngine();
  const withSnapshots = { snapshots: true } as const;
  models.push(
    {
      name: "dag",
      engine: {
        auditBytes: (bytes) => dag.auditBytes(null, bytes),
        openAuditor: () => dag.openAuditor(null, withSnapshots),
        resume: (snapshot, journal) => dag.resume(snapshot, journal),
      },
      ...split(
        [...campaignLines({ nodes: 2000, events: 25_000, seed: 7, passRate: 0.05 })].map(
          (line) => `${line}\n`,
        ),
      ),
    },
    {
      name: "operations",
      engine: {
        auditBytes: (bytes) => operations.auditBytes(bytes),
        openAuditor: () => operations.openAuditor(withSnapshots),
        resume: (snapshot, journal) => operations.resume(snapshot, journal),
      },
      ...split(operationsJournal({ events: 30_000, seed: 7 })),
    },
    {
      name: "executive",
      engine: {
        auditBytes: (bytes) => executive.auditBytes(bytes),
        openAuditor: () => executive.openAuditor(withSnapshots),
        resume: (snapshot, journal) => executive.resume(snapshot, journal),
      },
      ...split(executiveJournal({ events: 20_000, seed: 7 })),
    },
  );
});

function snapshotOf(engine: Auditing, bytes: Uint8Array): Uint8Array {
  const auditor = engine.openAuditor();
  auditor.write(bytes);
  return auditor.snapshot();
}

/**
 * The bytes as a journal file to resume on, noting whether the prefix was skipped (hashed on the
 * reading thread) and how many bytes were read from the file's start on the audit's thread.
 */
function fileOf(name: string, bytes: Uint8Array) {
  const path = join(folder, name);
  writeFileSync(path, bytes);
  const seen = { skipped: false, fromStart: 0 };
  const fromStart = async function* () {
    for await (const chunk of readFileChunks(path)) {
      seen.fromStart += chunk.length;
      yield chunk;
    }
  };
  const file = resumableFile(path, fromStart);
  files.push(file);
  const journal: ResumeJournal = {
    fromStart: file.fromStart,
    afterPrefix(prefixBytes) {
      const skipped = file.afterPrefix(prefixBytes);
      seen.skipped = skipped !== null;
      return skipped;
    },
    close: file.close,
  };
  return { journal, seen };
}

/** The prefix a snapshot covers: its length, the line after it, its SHA-256. */
const coveredBy = (snapshot: Uint8Array) => decodeSnapshot(snapshot, "snapshot").prefix;

async function refusal(engine: Auditing, snapshot: Uint8Array, journal: ResumeJournal) {
  const outcome = await asyncOutcomeOf(async () =>
    (await engine.resume(snapshot, journal)).finish(),
  );
  expect(outcome).toHaveProperty("threw.class", "JournalError");
  return (outcome as { threw: { message: string } }).threw.message;
}

describe.each(["dag", "operations", "executive"])("resuming a %s journal file", (name) => {
  const model = () => models.find((m) => m.name === name) as Model;

  it("audits what follows the prefix, reading of the prefix at most its first line, and snapshots the whole", async () => {
    const { engine, prefix, appended } = model();
    expect(prefix.length).toBeGreaterThan(MIB);
    const whole = concatBytes(prefix, appended);
    const expected = await engine.auditBytes(whole);
    const grown = fileOf(`${name}-grown`, whole);
    const resumed = await engine.resume(snapshotOf(engine, prefix), grown.journal);
    expect(grown.seen.skipped).toBe(true);
    expect(grown.seen.fromStart).toBeLessThan(prefix.length / 2);
    expect(resumed.advancedSinceResume()).toBe(true);
    const again = resumed.snapshot();
    expect(resumed.finish()).toEqual(expected);
    expect(coveredBy(again)).toEqual(coveredBy(snapshotOf(engine, whole)));
    // The snapshot taken after the resume resumes too: nothing appended since.
    const same = fileOf(`${name}-grown-again`, whole);
    expect((await engine.resume(again, same.journal)).finish()).toEqual(expected);
    expect(same.seen.skipped).toBe(true);
  });

  it("with nothing appended, reports the prefix's audit, and its digests still cover the prefix", async () => {
    const { engine, prefix } = model();
    const snapshot = snapshotOf(engine, prefix);
    const { journal, seen } = fileOf(`${name}-same`, prefix);
    const resumed = await engine.resume(snapshot, journal);
    expect(seen.skipped).toBe(true);
    expect(resumed.advancedSinceResume()).toBe(false);
    expect(coveredBy(resumed.snapshot())).toEqual(coveredBy(snapshot));
    expect(resumed.finish()).toEqual(await engine.auditBytes(prefix));
  });

  it("refuses a changed prefix, and a journal shorter than it", async () => {
    const { engine, prefix, appended } = model();
    const snapshot = snapshotOf(engine, prefix);
    const changed = concatBytes(prefix, appended);
    const digit = changed.findIndex(
      (byte, at) => at > prefix.length / 2 && byte >= 0x30 && byte <= 0x39,
    );
    changed[digit] = changed[digit] === 0x39 ? 0x38 : (changed[digit] as number) + 1;
    const changedFile = fileOf(`${name}-changed`, changed);
    expect(await refusal(engine, snapshot, changedFile.journal)).toBe(
      `<journal>: refusing the snapshot: the journal's first ${prefix.length} bytes are not the ones it covers (changed since, or another journal)`,
    );
    expect(changedFile.seen.skipped).toBe(true);

    const short = fileOf(`${name}-short`, prefix.subarray(0, prefix.length - 5));
    expect(await refusal(engine, snapshot, short.journal)).toBe(
      `<journal>: refusing the snapshot: it covers the journal's first ${prefix.length} bytes, but the journal has only ${prefix.length - 5}: truncated, or another journal`,
    );
    expect(short.seen.skipped).toBe(true);
  });
});

it("refuses a dag journal whose header changed as a changed prefix, though its DAG no longer reads", async () => {
  const { engine, prefix } = models.find((m) => m.name === "dag") as Model;
  const snapshot = snapshotOf(engine, prefix);
  // A dependency renamed to a task the DAG does not have: the header no longer gives a DAG.
  const changed = prefix.slice();
  const dependency =
    new TextDecoder().decode(changed).indexOf('"deps":["task-') + '"deps":["task-'.length;
  changed[dependency] = 0x39;
  const { journal, seen } = fileOf("dag-header-changed", changed);
  expect(await refusal(engine, snapshot, journal)).toBe(
    `<journal>: refusing the snapshot: the journal's first ${prefix.length} bytes are not the ones it covers (changed since, or another journal)`,
  );
  expect(seen.skipped).toBe(true);
  // Audited whole, the header is what is wrong.
  expect(await asyncOutcomeOf(() => engine.auditBytes(changed))).toHaveProperty(
    "threw.class",
    "JournalError",
  );
});
