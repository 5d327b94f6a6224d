import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadEngine } from "../../bindings/dag/engine.js";
import { loadExecutiveEngine } from "../../bindings/executive/engine.js";
import { loadOperationsEngine } from "../../bindings/operations/engine.js";
import { decodeSnapshot } from "../../src/snapshot-format.js";
import { type CliRun, statefold, statefoldInProcess, tempFiles } from "./cli-process.js";

const gate = (...args: string[]): Promise<CliRun> => statefoldInProcess(["gate", ...args]);

const HEADER =
  '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"B","deps":["A"]},{"id":"C","deps":["B"]}]}}\n';
const START = '{"kind":"dispatched","id":"A"}\n{"kind":"landed","id":"A"}\n';
const APPENDED_GOOD =
  '{"kind":"gate-checked","id":"A","result":"pass"}\n{"kind":"dispatched","id":"B"}\n';
const APPENDED_BAD = '{"kind":"dispatched","id":"C"}\n';
const SNAPSHOTTING = { snapshots: true } as const;

describe("statefold gate", () => {
  it("exits 0 to resume from a conformant journal", async () => {
    const run = await gate("examples/diamond.jsonl");
    expect(run).toEqual({
      code: 0,
      stdout: "resume: examples/diamond.jsonl is conformant (21 events)\n",
      stderr: "",
    });
  });

  it("exits 1 to refuse, naming the invariant, the line and the node", async () => {
    const run = await gate("examples/violations/unproven-dispatch.jsonl");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      'refuse: examples/violations/unproven-dispatch.jsonl: scheduleCorrect is broken at line 11 (event 9), node "D": dispatched before its dependencies were proven\n',
    );
  });

  it("refuses illegal events only with --strict", async () => {
    expect((await gate("examples/violations/illegal-transition.jsonl")).code).toBe(0);
    const strict = await gate("--strict", "examples/violations/illegal-transition.jsonl");
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(
      /legality is broken at line 5 \(event 3\), node "A": landed is illegal \(wrong-status\)/,
    );
  });

  it("with --snapshot, audits what was appended since the last pass, and refuses what breaks", async () => {
    const dir = tempFiles({ "j.jsonl": HEADER + START });
    const journal = join(dir, "j.jsonl");
    const snapshot = join(dir, "j.snapshot");
    expect((await gate(journal, "--snapshot", snapshot)).code).toBe(0);
    expect(existsSync(snapshot)).toBe(true);
    appendFileSync(journal, APPENDED_GOOD);
    const resumed = await gate(journal, "--snapshot", snapshot);
    expect(resumed).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (4 events)\n`,
    });
    const passed = readFileSync(snapshot);
    appendFileSync(journal, APPENDED_BAD);
    const refused = await gate(journal, "--snapshot", snapshot);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/scheduleCorrect is broken at line 6 \(event 4\), node "C"/);
    expect(readFileSync(snapshot)).toEqual(passed); // a refused journal leaves the last good snapshot
  });

  it("with --snapshot, leaves the snapshot as it is while no line was completed since", async () => {
    const dir = tempFiles({ "j.jsonl": HEADER + START });
    const journal = join(dir, "j.jsonl");
    const snapshot = join(dir, "j.snapshot");
    await gate(journal, "--snapshot", snapshot);
    writeFileSync(snapshot, readFileSync(snapshot)); // the same bytes, a new modification time
    const written = statSync(snapshot).mtimeMs;
    const again = await gate(journal, "--snapshot", snapshot);
    expect(again).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (2 events)\n`,
    });
    appendFileSync(journal, '{"kind":"gate-che');
    expect((await gate(journal, "--snapshot", snapshot)).code).toBe(0);
    expect(statSync(snapshot).mtimeMs).toBe(written);
    appendFileSync(journal, 'cked","id":"A","result":"pass"}\n');
    expect((await gate(journal, "--snapshot", snapshot)).code).toBe(0);
    expect(statSync(snapshot).mtimeMs).not.toBe(written);
  });

  it("with --snapshot, refuses a tampered snapshot and a changed prefix (exit 2)", async () => {
    const dir = tempFiles({ "j.jsonl": HEADER + START });
    const journal = join(dir, "j.jsonl");
    const snapshot = join(dir, "j.snapshot");
    await gate(journal, "--snapshot", snapshot);
    // Latin-1 keeps every byte as it is: a snapshot's sections are binary.
    const original = readFileSync(snapshot, "latin1");
    writeFileSync(snapshot, original.replace('"started":true', '"started":false'), "latin1");
    const tampered = await gate(journal, "--snapshot", snapshot);
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toMatch(/refusing the snapshot: its checksum does not match/);
    writeFileSync(snapshot, original, "latin1");
    writeFileSync(
      journal,
      HEADER + START.replace('"A"}\n{"kind":"landed"', '"B"}\n{"kind":"landed"'),
    );
    const changed = await gate(journal, "--snapshot", snapshot);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/are not the ones it covers/);
  });

  it("with --snapshot, resumes an operations journal from its snapshot, and refuses a dag journal's", async () => {
    const lines = readFileSync("examples/operations/retry-and-readback.jsonl", "utf8").split(
      /(?<=\n)/,
    );
    const half = Math.floor(lines.length / 2);
    const dir = tempFiles({
      "ops.jsonl": lines.slice(0, half).join(""),
      "j.jsonl": HEADER + START,
    });
    const journal = join(dir, "ops.jsonl");
    const snapshot = join(dir, "ops.snapshot");
    expect(await gate(journal, "--snapshot", snapshot)).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (${half - 1} events)\n`,
    });
    const passed = readFileSync(snapshot);
    appendFileSync(journal, lines.slice(half).join(""));
    expect(await gate(journal, "--snapshot", snapshot)).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (${lines.length - 1} events)\n`,
    });
    expect(readFileSync(snapshot)).not.toEqual(passed);
    // A stale-epoch cancel appended: refused, the last good snapshot kept.
    const after = readFileSync(snapshot);
    appendFileSync(
      journal,
      '{"kind":"lease","strand":"s-new","epoch":2}\n{"kind":"lease","strand":"s-new","epoch":1}\n',
    );
    const refused = await gate(journal, "--snapshot", snapshot);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/fencing is broken at line \d+/);
    expect(readFileSync(snapshot)).toEqual(after);
    const foreign = await gate(join(dir, "j.jsonl"), "--snapshot", snapshot);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(
      /refusing the snapshot: it is a snapshot of an operations journal, and this is a dag journal/,
    );
  });

  it("with --snapshot, a first snapshot of a journal of mebibytes, hashed by its reading thread, covers the prefix the engine's own hash gives, and resumes", async () => {
    const engines = {
      dag: async () => (await loadEngine()).openAuditor(null, SNAPSHOTTING),
      operations: async () => (await loadOperationsEngine()).openAuditor(SNAPSHOTTING),
      executive: async () => (await loadExecutiveEngine()).openAuditor(SNAPSHOTTING),
    };
    for (const [model, events] of [
      ["dag", "15000"],
      ["operations", "15000"],
      ["executive", "20000"],
    ] as const) {
      const generated = await statefoldInProcess(["gen", "--model", model, "--events", events]);
      // The last line unterminated: no snapshot covers it until its line feed comes.
      const text = generated.stdout.slice(0, -1);
      expect(text.length).toBeGreaterThan(2 ** 20);
      const dir = tempFiles({ "j.jsonl": text });
      const journal = join(dir, "j.jsonl");
      const snapshot = join(dir, "j.snapshot");
      const first = await gate(journal, "--snapshot", snapshot);
      expect(first.code, model).toBe(0);
      const auditor = await engines[model]();
      auditor.write(readFileSync(journal));
      // The state's bytes may differ (the id tables' order follows each engine's hash key).
      const prefixOf = (bytes: Uint8Array) => decodeSnapshot(bytes, snapshot).prefix;
      expect(prefixOf(readFileSync(snapshot)), model).toEqual(prefixOf(auditor.snapshot()));
      appendFileSync(journal, "\n");
      expect((await gate(journal, "--snapshot", snapshot)).stdout, model).toMatch(/^resume: /);
    }
  });

  describe("a torn tail (a last line cut mid-write)", () => {
    const TORN = '{"kind":"gate-che';
    const tornAt = Buffer.byteLength(HEADER + START);
    const warning = (journal: string) =>
      `statefold: ${journal}:4: warning: torn tail: the last line was cut mid-write (no line end, it does not parse) and is left out; truncate the journal to ${tornAt} bytes before appending to it\n`;

    it("resumes, saying so on stdout and giving the line and the byte offset to truncate to on stderr", async () => {
      const journal = join(tempFiles({ "t.jsonl": HEADER + START + TORN }), "t.jsonl");
      expect(await gate(journal)).toEqual({
        code: 0,
        stdout: `resume: ${journal} is conformant (2 events), with a torn tail at line 4\n`,
        stderr: warning(journal),
      });
    });

    it("gives the torn tail in the JSON output", async () => {
      const journal = join(tempFiles({ "t.jsonl": HEADER + START + TORN }), "t.jsonl");
      const run = await gate(journal, "--format", "json");
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(warning(journal));
      expect(JSON.parse(run.stdout)).toEqual({
        file: journal,
        decision: "resume",
        strict: false,
        events: 2,
        tornTail: { line: 4, offset: tornAt },
        refusal: null,
      });
    });

    it("warns of it when it refuses, too", async () => {
      const journal = join(
        tempFiles({ "t.jsonl": HEADER + START + APPENDED_BAD + TORN }),
        "t.jsonl",
      );
      const run = await gate(journal, "--format", "json");
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/:5: warning: torn tail: .* truncate the journal to \d+ bytes/);
      expect(JSON.parse(run.stdout)).toMatchObject({
        decision: "refuse",
        tornTail: { line: 5, offset: tornAt + APPENDED_BAD.length },
        refusal: { rule: "scheduleCorrect", index: 2, line: 4 },
      });
    });

    it("with --snapshot, on the first gate and on a resumed one", async () => {
      const dir = tempFiles({ "t.jsonl": HEADER + START + TORN });
      const journal = join(dir, "t.jsonl");
      const snapshot = join(dir, "t.snapshot");
      expect(await gate(journal, "--snapshot", snapshot)).toEqual({
        code: 0,
        stdout: `resume: ${journal} is conformant (2 events), with a torn tail at line 4\n`,
        stderr: warning(journal),
      });
      const resumed = await gate(journal, "--snapshot", snapshot, "--format", "json");
      expect(resumed.stderr).toBe(warning(journal));
      expect(JSON.parse(resumed.stdout)).toMatchObject({ tornTail: { line: 4, offset: tornAt } });
      // Truncated where the warning says, the journal takes the completed entry and resumes.
      writeFileSync(journal, `${HEADER + START}{"kind":"gate-checked","id":"A","result":"pass"}\n`);
      expect(await gate(journal, "--snapshot", snapshot)).toEqual({
        code: 0,
        stdout: `resume: ${journal} is conformant (3 events)\n`,
        stderr: "",
      });
    });
  });

  describe("- (the journal on the standard input)", () => {
    it("gates it as it gates a file", async () => {
      const piped = await statefold(["gate", "-"], {}, readFileSync("examples/diamond.jsonl"));
      expect(piped).toEqual({
        code: 0,
        stdout: "resume: <stdin> is conformant (21 events)\n",
        stderr: "",
      });
      const refused = await statefold(["gate", "-"], {}, HEADER + START + APPENDED_BAD);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(/^refuse: <stdin>: scheduleCorrect is broken at line 4/);
    });

    it("with --snapshot, checks the prefix the snapshot covers as it streams by, and audits the rest", async () => {
      const dir = tempFiles({});
      const snapshot = join(dir, "j.snapshot");
      const first = await statefold(["gate", "-", "--snapshot", snapshot], {}, HEADER + START);
      expect(first).toEqual({
        code: 0,
        stdout: "resume: <stdin> is conformant (2 events)\n",
        stderr: "",
      });
      const grown = HEADER + START + APPENDED_GOOD;
      const resumed = await statefold(["gate", "-", "--snapshot", snapshot], {}, grown);
      expect(resumed.stdout).toBe("resume: <stdin> is conformant (4 events)\n");
      const changed = await statefold(
        ["gate", "-", "--snapshot", snapshot],
        {},
        grown.replace('"A"}', '"B"}'),
      );
      expect(changed.code).toBe(2);
      expect(changed.stderr).toMatch(
        /^statefold: <stdin>: refusing the snapshot: .* not the ones it covers/,
      );
    });

    it("refuses - as the snapshot's file", async () => {
      const run = await gate("examples/diamond.jsonl", "--snapshot", "-");
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /--snapshot names a file: the standard input \(-\) cannot hold one/,
      );
    });
  });

  it("will not overwrite the journal with a snapshot", async () => {
    const run = await gate("examples/diamond.jsonl", "--snapshot", "examples/diamond.jsonl");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/must not name the journal/);
  });
});
