import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  type CliRun,
  expectCleanFailure,
  REPO_ROOT,
  statefold,
  statefoldInProcess,
  tempFiles,
} from "./cli-process.js";

/** Every bundled example journal, of every model, with the flags it is audited with. */
const EXAMPLES: readonly { readonly file: string; readonly args: readonly string[] }[] = [
  ...["examples", "examples/violations", "examples/operations", "examples/executive"].flatMap(
    (dir) =>
      readdirSync(join(REPO_ROOT, dir))
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => ({ file: `${dir}/${name}`, args: [] })),
  ),
  { file: "examples/runtime/campaign.lisp-expr", args: ["--dag", "examples/runtime/dag.json"] },
];

/** The example gzipped, as `name.gz` in a scratch directory of its own. */
function gzippedCopy(file: string): string {
  const name = `${basename(file)}.gz`;
  return join(tempFiles({ [name]: gzipSync(readFileSync(join(REPO_ROOT, file))) }), name);
}

/** A run's output with the file's name put for another's. */
function named(run: CliRun, from: string, to: string): CliRun {
  return {
    ...run,
    stdout: run.stdout.replaceAll(from, to),
    stderr: run.stderr.replaceAll(from, to),
  };
}

const HEADER =
  '{"statefold":"journal","version":1,"dag":{"nodes":[{"id":"A","deps":[]},{"id":"B","deps":["A"]},{"id":"C","deps":["B"]}]}}\n';
const START = '{"kind":"dispatched","id":"A"}\n{"kind":"landed","id":"A"}\n';
const APPENDED_GOOD =
  '{"kind":"gate-checked","id":"A","result":"pass"}\n{"kind":"dispatched","id":"B"}\n';
const APPENDED_BAD = '{"kind":"dispatched","id":"C"}\n';

describe("gzipped journals (name.gz)", () => {
  it("covers examples of every model", () => {
    const models = EXAMPLES.map(({ file }) => file.split("/")[1]);
    for (const model of ["operations", "executive", "violations", "runtime"]) {
      expect(models).toContain(model);
    }
  });

  it("give audit the very report of the plain journal, every example of every model, text and JSON", async () => {
    const differences: string[] = [];
    const exits = new Set<number | null>();
    for (const { file, args } of EXAMPLES) {
      const gz = gzippedCopy(file);
      for (const format of ["text", "json"]) {
        const plain = await statefoldInProcess(["audit", file, ...args, "--format", format]);
        const unzipped = await statefoldInProcess(["audit", gz, ...args, "--format", format]);
        exits.add(unzipped.code);
        const progressFree = (run: CliRun) => ({ ...run, stdout: withoutThroughput(run.stdout) });
        if (
          JSON.stringify(progressFree(named(unzipped, gz, file))) !==
          JSON.stringify(progressFree(plain))
        ) {
          differences.push(`${file} (${format})`);
        }
      }
    }
    expect(differences).toEqual([]);
    expect(exits).toEqual(new Set([0, 1])); // conformant examples and broken ones, none unread
  });

  it("give gate and replay what the plain journal gives", async () => {
    for (const file of ["examples/diamond.jsonl", "examples/violations/unproven-dispatch.jsonl"]) {
      const gz = gzippedCopy(file);
      for (const command of ["gate", "replay"]) {
        const plain = await statefoldInProcess([command, file]);
        expect(named(await statefoldInProcess([command, gz]), gz, file)).toEqual(plain);
      }
    }
  });

  it("give layers and the HTML page, which quotes the journal's lines, what the plain journal gives", async () => {
    const file = "examples/violations/unproven-dispatch.jsonl";
    const gz = gzippedCopy(file);
    expect(await statefoldInProcess(["layers", gz])).toEqual(
      await statefoldInProcess(["layers", file]),
    );
    const pages = tempFiles({});
    const [plainPage, gzPage] = [join(pages, "plain.html"), join(pages, "gz.html")];
    await statefoldInProcess(["audit", file, "--html", plainPage]);
    await statefoldInProcess(["audit", gz, "--html", gzPage]);
    const page = readFileSync(gzPage, "utf8");
    expect(page).toContain("&quot;kind&quot;:&quot;dispatched&quot;,&quot;id&quot;:&quot;D&quot;");
    expect(page.replaceAll(gz, file)).toBe(readFileSync(plainPage, "utf8"));
  });

  it("are audited by the worker pool (--jobs) as in process", async () => {
    const files = EXAMPLES.slice(0, 4).map(({ file }) => file);
    const gz = files.map(gzippedCopy);
    const pooled = await statefold(["audit", "--jobs", "2", "--format", "json", ...gz]);
    const plain = await statefoldInProcess(["audit", "--format", "json", ...files]);
    const renamed = gz.reduce(
      (run, path, index) => named(run, path, files[index] as string),
      pooled,
    );
    expect(renamed.code).toBe(plain.code);
    expect(JSON.parse(renamed.stdout)).toEqual(JSON.parse(plain.stdout));
  });

  it("in a directory are audited beside the plain ones, in name order; other .gz files are not journals", async () => {
    const dir = tempFiles({
      "a.jsonl": readFileSync("examples/diamond.jsonl"),
      "b.jsonl.gz": gzipSync(readFileSync("examples/violations/unproven-dispatch.jsonl")),
      "c.txt.gz": gzipSync("not a journal"),
    });
    const run = await statefoldInProcess(["audit", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /a\.jsonl: strictly conformant \(21 events\)[\s\S]*b\.jsonl\.gz: NOT CONFORMANT/,
    );
    expect(run.stdout).toMatch(/^2 journals, 34 events, 1 not conformant/m);
    expect(run.stdout).not.toMatch(/c\.txt/);
  });

  it("that is truncated is a clear error naming the file (exit 2), for every command; the rest are audited", async () => {
    const whole = gzipSync(readFileSync("examples/diamond.jsonl"));
    const dir = tempFiles({
      "cut.jsonl.gz": whole.subarray(0, whole.length - 20),
      "good.jsonl.gz": whole,
    });
    const cut = join(dir, "cut.jsonl.gz");
    const message = `statefold: ${cut}: cannot decompress: its gzip data ends early (a truncated file)\n`;
    for (const command of ["gate", "replay"]) {
      const run = await statefoldInProcess([command, cut]);
      expectCleanFailure(run);
      expect(run.stderr).toBe(message);
    }
    const audit = await statefold(["audit", dir]);
    expectCleanFailure(audit);
    expect(audit.stderr).toContain(message);
    expect(audit.stdout).toMatch(/good\.jsonl\.gz: strictly conformant/);
  });

  it("are left as they were", async () => {
    const gz = gzippedCopy("examples/diamond.jsonl");
    const before = { bytes: readFileSync(gz), mtime: statSync(gz).mtimeMs };
    await statefoldInProcess(["audit", gz]);
    await statefoldInProcess(["gate", gz, "--snapshot", `${gz}.snapshot`]);
    expect({ bytes: readFileSync(gz), mtime: statSync(gz).mtimeMs }).toEqual(before);
  });

  it("with gate --snapshot, resume once a gzip member is appended, checking the decompressed prefix the snapshot covers", async () => {
    const dir = tempFiles({ "j.jsonl.gz": gzipSync(HEADER + START) });
    const journal = join(dir, "j.jsonl.gz");
    // A snapshot's name ending in .gz is a name like another: it is written and read as stored.
    const snapshot = join(dir, "j.snapshot.gz");
    const gate = () => statefoldInProcess(["gate", journal, "--snapshot", snapshot]);
    expect(await gate()).toEqual({
      code: 0,
      stdout: `resume: ${journal} is conformant (2 events)\n`,
      stderr: "",
    });
    appendFileSync(journal, gzipSync(APPENDED_GOOD));
    expect(await gate()).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (4 events)\n`,
    });
    appendFileSync(journal, gzipSync(APPENDED_BAD));
    const refused = await gate();
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/scheduleCorrect is broken at line 6 \(event 4\), node "C"/);
    writeFileSync(journal, gzipSync(HEADER + START.replace('"A"}', '"B"}') + APPENDED_GOOD));
    const changed = await gate();
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/refusing the snapshot: .* not the ones it covers/);
  });

  it("a plain journal's snapshot resumes on the journal gzipped, and back", async () => {
    const dir = tempFiles({ "j.jsonl": HEADER + START });
    const plain = join(dir, "j.jsonl");
    const snapshot = join(dir, "j.snapshot");
    expect((await statefoldInProcess(["gate", plain, "--snapshot", snapshot])).code).toBe(0);
    const gz = join(dir, "j.jsonl.gz");
    writeFileSync(gz, gzipSync(HEADER + START + APPENDED_GOOD));
    expect(await statefoldInProcess(["gate", gz, "--snapshot", snapshot])).toMatchObject({
      code: 0,
      stdout: `resume: ${gz} is conformant (4 events)\n`,
    });
  });
});

/** The audit's summary line without its timing, which differs from run to run. */
function withoutThroughput(stdout: string): string {
  return stdout.replace(/ in [\d.]+ s \([\d.]+ MB\/s\)/g, "");
}
