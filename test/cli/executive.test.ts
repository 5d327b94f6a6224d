/**
 * `statefold` on executive journals (docs/models/executive.md, "The journal and its audit"):
 * audit in text and JSON, replay, gate, the HTML report, and bad headers, on the examples.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliRun, statefold, statefoldInProcess, tempFiles } from "./cli-process.js";

const run = (...args: string[]): Promise<CliRun> => statefoldInProcess(args);
const EXAMPLE = (name: string) => `examples/executive/${name}.jsonl`;

describe("statefold on executive journals", () => {
  it("audits a conformant journal, and names each mismatch with both decisions", async () => {
    const good = await run("audit", EXAMPLE("conformant"));
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(
      /^✓ examples\/executive\/conformant.jsonl: strictly conformant \(9 events\)\n/,
    );
    expect(good.stdout).toContain("final: completed after 7 decisions; used steps 8, modelCalls 2");
    const seq = await run("audit", EXAMPLE("wrong-seq"));
    expect(seq.code).toBe(1);
    expect(seq.stdout).toContain("✗ decisionsMatch     line 6 (event 4)");
    expect(seq.stdout).toContain(
      'line 6 (event 4)  expected {"tag":"checkpoint","seq":4}, recorded {"tag":"checkpoint","seq":9}',
    );
    const resurrection = await run("audit", "--format", "json", EXAMPLE("resurrection"));
    expect(resurrection.code).toBe(1);
    const report = JSON.parse(resurrection.stdout);
    expect(report).toMatchObject({
      model: "executive",
      conformant: false,
      events: 10,
      invariants: {
        decisionsMatch: { holds: false, index: 9, line: 11 },
        terminalRespected: { holds: false, index: 9, line: 11 },
      },
      legality: {
        illegal: 1,
        first: [
          {
            index: 9,
            line: 11,
            reason: "decision-mismatch",
            expected: { tag: "reject", reason: "terminal" },
            recorded: { tag: "execute", seq: 8 },
          },
        ],
      },
      final: { status: "completed", seq: 7, outcome: { outcome: "completed" } },
    });
    const malformed = await run("audit", EXAMPLE("malformed-line"));
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toContain(
      'integrity          line 4 (event 2)  malformed-event: expected a field "decision", found none',
    );
  });

  it("gates on the first mismatch, and incrementally with --snapshot", async () => {
    expect((await run("gate", EXAMPLE("conformant"))).stdout).toBe(
      "resume: examples/executive/conformant.jsonl is conformant (9 events)\n",
    );
    const refused = await run("gate", EXAMPLE("wrong-attempt"));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe(
      'refuse: examples/executive/wrong-attempt.jsonl: decisionsMatch is broken at line 5 (event 3): the decision the host recorded is not the one the machine makes: expected {"tag":"execute","seq":3,"path":["sources","search"],"effect":"tool","attempt":2}, recorded {"tag":"execute","seq":3,"path":["sources","search"],"effect":"tool","attempt":3}\n',
    );
    // A run still under way: its first lines, gated, then the rest appended and gated again.
    const lines = readFileSync(EXAMPLE("conformant"), "utf8").split("\n");
    const dir = tempFiles({ "run.jsonl": `${lines.slice(0, 4).join("\n")}\n` });
    const journal = join(dir, "run.jsonl");
    const snapshot = join(dir, "run.snapshot");
    const first = await run("gate", journal, "--snapshot", snapshot);
    expect(first).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (3 events)\n`,
    });
    appendFileSync(journal, `${lines.slice(4).join("\n")}`);
    const second = await run("gate", journal, "--snapshot", snapshot);
    expect(second).toMatchObject({
      code: 0,
      stdout: `resume: ${journal} is conformant (9 events)\n`,
    });
    // A mismatch appended is caught where it is; the snapshot of the passing run stays.
    appendFileSync(journal, `${lines[5]}\n`);
    const caught = await run("gate", journal, "--snapshot", snapshot);
    expect(caught.code).toBe(1);
    expect(caught.stdout).toContain("decisionsMatch is broken at line 11 (event 9)");
    // A changed prefix, or a snapshot of another model's journal, is refused by name.
    writeFileSync(journal, readFileSync(EXAMPLE("wrong-seq")));
    const changed = await run("gate", journal, "--snapshot", snapshot);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain("are not the ones it covers");
    writeFileSync(join(dir, "dag.jsonl"), readFileSync("examples/diamond.jsonl"));
    expect(
      (await run("gate", join(dir, "dag.jsonl"), "--snapshot", join(dir, "dag.snapshot"))).code,
    ).toBe(0);
    writeFileSync(journal, readFileSync(EXAMPLE("conformant")));
    const foreign = await run("gate", journal, "--snapshot", join(dir, "dag.snapshot"));
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain(
      "it is a snapshot of a dag journal, and this is an executive journal",
    );
  });

  it("gives the same report on either engine, whatever the journal", async () => {
    for (const name of [
      "conformant",
      "wrong-seq",
      "wrong-attempt",
      "resurrection",
      "malformed-line",
    ]) {
      const kernel = await run("audit", "--format", "json", EXAMPLE(name));
      const reference = await run(
        "audit",
        "--format",
        "json",
        "--engine",
        "reference",
        EXAMPLE(name),
      );
      expect(kernel).toEqual(reference);
    }
  });

  it("replays a journal to the machine's state, in its canonical form", async () => {
    const replayed = await run("replay", "--engine", "reference", EXAMPLE("wrong-seq"));
    expect(replayed.code).toBe(0);
    const state = JSON.parse(replayed.stdout);
    expect(state).toMatchObject({
      version: 1,
      status: "completed",
      seq: 7,
      lastDetail: "draft written",
    });
    expect(state.frames[0].done).toEqual(["outline", "sources", "draft"]);
    // The kernel's machine (the default) prints the very same state.
    for (const name of ["wrong-seq", "conformant", "malformed-line"]) {
      const reference = await run("replay", "--engine", "reference", EXAMPLE(name));
      const kernel = await run("replay", EXAMPLE(name));
      expect(kernel).toEqual(reference);
    }
  });

  it("writes the mismatches side by side in the HTML report", async () => {
    const dir = tempFiles({});
    const html = join(dir, "report.html");
    expect((await run("audit", "--html", html, EXAMPLE("wrong-attempt"))).code).toBe(1);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("Where the recorded decisions differ from the machine");
    expect(page).toMatch(/&quot;attempt&quot;: 2[\s\S]*&quot;attempt&quot;: 3/);
    // The frames the machine held then: the sub-plan entered, its budgets narrowed and charged.
    const frames = page.slice(
      page.indexOf("root plan"),
      page.indexOf("</td></tr>", page.indexOf("root plan")),
    );
    expect(frames).toContain("sub-plan <code>sources</code>");
    const sources = frames.slice(frames.indexOf("sources"));
    expect(sources).toMatch(
      /toolCalls<\/span><span class="bar"><span style="width:66\.7%"><\/span><\/span><span class="num">2 \/ 3</,
    );
    expect(sources).toMatch(/retries<\/span>.*?<span class="num">1 \/ 2</);
    expect(sources).toMatch(/steps<\/span>.*?<span class="num">2 \/ 38</);
  });

  it("refuses a header without its spec and budget, or with ones the executive does not accept", async () => {
    const header = (fields: string) =>
      `{"statefold":"journal","version":1,"model":"executive"${fields}}\n`;
    const dir = tempFiles({
      "none.jsonl": header(""),
      "bad.jsonl": header(',"spec":{"task":"t","plan":{"steps":[]}},"budget":{"steps":-1}'),
    });
    const none = await run("audit", join(dir, "none.jsonl"));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('expected a field "spec", found none');
    const bad = await run("audit", join(dir, "bad.jsonl"));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "bad.jsonl:1:114: header.budget.steps: expected a spec and budget the executive accepts, found -1 (invalid-budget)",
    );
  });

  it("runs the machine as a tool: observations in, a journal out that audits as conformant", async () => {
    const observations = readFileSync(EXAMPLE("conformant"), "utf8")
      .split("\n")
      .slice(1, -1)
      .map((line) => JSON.stringify(JSON.parse(line).observation));
    const spec = "examples/executive/spec.json";
    const budget = "examples/executive/budget.json";
    const made = await statefold(["executive", spec, budget], {}, `${observations.join("\n")}\n\n`);
    expect(made).toMatchObject({ code: 0, stderr: "" });
    expect(made.stdout).toBe(readFileSync(EXAMPLE("conformant"), "utf8"));
    const onReference = await statefold(
      ["executive", "--engine", "reference", spec, budget],
      {},
      `${observations.join("\n")}\n`,
    );
    expect(onReference).toEqual(made);
    const dir = tempFiles({ "bad-budget.json": '{"steps":-1}' });
    const garbage = await statefold(
      ["executive", spec, budget],
      {},
      '{"tag":"start","now":1}\nnot json\n',
    );
    expect(garbage.code).toBe(2);
    expect(garbage.stdout.split("\n")).toHaveLength(3); // the header and the first answer
    expect(garbage.stderr).toBe(
      "statefold: <stdin>:2: expected an observation as JSON, found a line that is not\n",
    );
    const refused = await statefold(["executive", spec, join(dir, "bad-budget.json")], {}, "");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("bad-budget.json: refused (invalid-budget) at steps");
  });
});
