/**
 * The page with models defined by data (issue 35, docs/models/data.md): a shipped model picked by
 * its name, or a model file of one's own picked beside the journal, checked as `--model FILE`
 * checks it. A journal of either — JSONL or one JSON document — is audited by the data kernel in
 * the page's worker, and the page shows what `statefold audit --model … --format json` prints, in
 * the HTML report's data view; a refused model file is shown with its line, column and pointer.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODEL_NAMES, SHIPPED_DATA_MODELS } from "../../src/models/registry.js";
import { testTempDir } from "../support/temp-dirs.js";
import {
  auditInPage,
  buildAndServe,
  pickModelFile,
  REPO_ROOT,
  reportFrame,
  screenshotPath,
  shownReport,
  type WebPage,
} from "./web-page.js";

let web: WebPage;
const scratch = testTempDir("statefold-web-data-");

beforeAll(async () => {
  web = await buildAndServe();
}, 60_000);

afterAll(async () => {
  await web?.close();
});

const example = (path: string) => join(REPO_ROOT, "examples", path);

/** What `statefold audit --model MODEL --format json` prints of the journal, run in `cwd`. */
function cli(journal: string, model: string, cwd = REPO_ROOT) {
  const run = spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, "dist/src/cli/main.js"),
      "audit",
      "--format",
      "json",
      "--quiet",
      "--model",
      model,
      journal,
    ],
    { cwd, encoding: "utf8" },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function cliReport(journal: string, model: string): unknown {
  const run = cli(journal, model);
  expect([0, 1]).toContain(run.status);
  return JSON.parse(run.stdout);
}

async function shownStatus(page: Page): Promise<string> {
  return (await page.textContent("#status")) ?? "";
}

/** The rule names of the findings the report's view lists. */
async function findingRules(page: Page): Promise<string[]> {
  const frame = await reportFrame(page);
  return frame.$$eval("table.findings tbody tr td:nth-child(4)", (cells) =>
    cells.map((cell) => cell.firstChild?.textContent ?? ""),
  );
}

describe("the page with models defined by data", () => {
  it("offers every shipped model and a model file, each with a guide from its own file", async () => {
    const page = await web.open();
    const options = await page.$$eval("#model option", (found) =>
      found.map((option) => (option as HTMLOptionElement).value),
    );
    expect(options).toEqual(["", ...MODEL_NAMES, "file"]);
    expect(
      await page.$eval('#model option[value="file"]', (o) => (o as HTMLOptionElement).disabled),
    ).toBe(true);
    for (const model of SHIPPED_DATA_MODELS) {
      const guide = (await page.textContent(`#drop li[data-model="${model.name}"]`)) ?? "";
      expect(guide).toContain(`${model.name}: ${model.summary}: a model defined by data.`);
      expect(guide).toContain(`docs/models/${model.name}.md`);
    }
    const temporal = (await page.textContent('#drop li[data-model="temporal"]')) ?? "";
    expect(temporal).toContain("one JSON document (.json), whose records are the array at events");
    const file = (await page.textContent('#drop li[data-model="a model file"]')) ?? "";
    expect(file).toMatch(/JSON or YAML.*statefold audit --model FILE.*JSON Pointer/);
    await page.close();
  });

  it("chooses a model file once picked, and lets it go without changing another model chosen since", async () => {
    const page = await web.open();
    const fileOption = async () =>
      page.$eval('#model option[value="file"]', (option) => ({
        text: (option as HTMLOptionElement).text,
        disabled: (option as HTMLOptionElement).disabled,
      }));
    expect(await pickModelFile(page, example("data/payment-intents.json"))).toBe("model-checked");
    expect(await page.inputValue("#model")).toBe("file");
    expect(await fileOption()).toEqual({
      text: "the model file payment-intents.json",
      disabled: false,
    });
    await page.selectOption("#model", "temporal");
    await page.setInputFiles("#model-file", []);
    expect(await page.inputValue("#model")).toBe("temporal");
    expect(await fileOption()).toEqual({
      text: "the model file picked (none yet)",
      disabled: true,
    });
    await page.close();
  });

  it("audits Temporal histories as temporal: the server's export conformant, the test server's findings by rule", async () => {
    const page = await web.open();
    await page.selectOption("#model", "temporal");
    const conformant = example("temporal/worker-deployment.json");
    expect(await auditInPage(page, conformant)).toBe("done");
    expect(await shownReport(page)).toEqual(cliReport(conformant, "temporal"));
    expect(await shownStatus(page)).toContain("worker-deployment.json: strictly conformant");
    let frame = await reportFrame(page);
    expect((await frame.textContent(".journal h2 .pill"))?.trim()).toBe("strictly conformant");

    const broken = example("temporal/java-test-server.json");
    expect(await auditInPage(page, broken)).toBe("done");
    expect(await shownReport(page)).toEqual(cliReport(broken, "temporal"));
    expect(await shownStatus(page)).toContain("java-test-server.json: not conformant");
    frame = await reportFrame(page);
    expect((await frame.textContent(".journal h2 .pill"))?.trim()).toBe("not conformant");
    expect(await findingRules(page)).toEqual([
      "workflow-task-references",
      "commands-follow-their-task",
      "commands-follow-their-task",
    ]);
    // Beside each finding, the rule's description from the model file and the record as written.
    const findings = (await frame.textContent("table.findings")) ?? "";
    expect(findings).toContain("names the task's WorkflowTaskStarted in startedEventId");
    expect(findings).toContain('"eventType": "WorkflowTaskCompleted"');
    await page.screenshot({ path: screenshotPath("web-temporal.png"), fullPage: true });
    await page.close();
  });

  it("audits a JSONL journal with a model file picked, as --model FILE does", async () => {
    const page = await web.open();
    const model = example("data/payment-intents.json");
    expect(await pickModelFile(page, model)).toBe("model-checked");
    expect(await shownStatus(page)).toContain(
      'payment-intents.json states the model "payment-intents". Its journal is JSONL',
    );
    expect(await page.inputValue("#model")).toBe("file");
    const journal = example("data/payment-intents-violations.jsonl");
    expect(await auditInPage(page, journal)).toBe("done");
    expect(await shownReport(page)).toEqual(cliReport(journal, model));
    expect(await findingRules(page)).toContain("amount-kept");
    const frame = await reportFrame(page);
    expect((await frame.textContent(".journal h2 .pill"))?.trim()).toBe("not conformant");
    expect(await frame.textContent("table.findings")).toContain('"amount":1200');
    // A header may name the model file's model, and only that (docs/models/data.md, "Journals").
    const withHeader = join(scratch, "payment-intents-with-header.jsonl");
    const header = '{"statefold":"journal","version":1,"model":"payment-intents"}';
    writeFileSync(
      withHeader,
      `${header}\n${readFileSync(example("data/payment-intents.jsonl"), "utf8")}`,
    );
    expect(await auditInPage(page, withHeader)).toBe("done");
    expect(await shownReport(page)).toEqual(cliReport(withHeader, model));
    expect(await shownStatus(page)).toContain(
      "payment-intents-with-header.jsonl: strictly conformant",
    );
    await page.screenshot({ path: screenshotPath("web-model-file.png"), fullPage: true });
    await page.close();
  });

  it("audits a JSON document journal with a YAML model file picked after it", async () => {
    const page = await web.open();
    const journal = example("data/ci-jobs-violations.journal.json");
    expect(await auditInPage(page, journal)).toBe("error");
    const model = example("data/ci-jobs.yaml");
    await page.setInputFiles("#model-file", model);
    await page.waitForFunction(() => document.body.dataset.state === "done");
    expect(await shownReport(page)).toEqual(cliReport(journal, model));
    expect(await findingRules(page)).toContain("one-job-per-runner");
    const conformant = example("data/ci-jobs.journal.json");
    expect(await auditInPage(page, conformant)).toBe("done");
    expect(await shownReport(page)).toEqual(cliReport(conformant, model));
    await page.close();
  });

  it("takes a model file dropped with its journal as the Model, and one dropped alone to be checked", async () => {
    const drop = async (page: Page, paths: readonly string[]) => {
      const files = paths.map((path) => ({
        name: path.split("/").at(-1) as string,
        text: readFileSync(example(path), "utf8"),
      }));
      const transfer = await page.evaluateHandle((dropped) => {
        const data = new DataTransfer();
        for (const { name, text } of dropped) data.items.add(new File([text], name));
        return data;
      }, files);
      await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer });
    };
    const journal = example("data/ci-jobs-violations.journal.json");
    const expected = cliReport(journal, example("data/ci-jobs.yaml"));
    const together = await web.open();
    await drop(together, ["data/ci-jobs-violations.journal.json", "data/ci-jobs.yaml"]);
    await together.waitForFunction(() => document.body.dataset.state === "done");
    expect(await together.inputValue("#model")).toBe("file");
    expect(await shownReport(together)).toEqual(expected);
    await together.close();

    const after = await web.open();
    expect(await auditInPage(after, journal)).toBe("error");
    await drop(after, ["data/ci-jobs.yaml"]);
    await after.waitForFunction(() => document.body.dataset.state === "done");
    expect(await shownReport(after)).toEqual(expected);
    await after.close();

    const alone = await web.open();
    await drop(alone, ["data/payment-intents.json"]);
    await alone.waitForFunction(() => document.body.dataset.state === "model-checked");
    expect(await shownStatus(alone)).toContain('states the model "payment-intents"');
    await alone.close();
  });

  it("refuses a broken model file as the command line does, with its line, column and JSON Pointer", async () => {
    const files: [name: string, text: string][] = [
      [
        "undeclared.json",
        '{"statefold": "model", "version": 1, "name": "broken",\n "records": {"source": "lines", "kind": {"path": "type"}},\n "kinds": {"a": [{"step": "nope", "key": "$k", "from": ["x"], "to": "y"}]}}\n',
      ],
      [
        "unknown-key.yaml",
        "statefold: model\nversion: 1\nname: broken\nrecords:\n  source: lines\n  kind: {path: type}\n  colour: blue\nkinds: {}\n",
      ],
    ];
    for (const [name, text] of files) {
      writeFileSync(join(scratch, name), text);
      const run = cli("nothing.jsonl", name, scratch);
      expect(run.status).toBe(2);
      const refusal = run.stderr.trim().replace(/^statefold: /, "");
      expect(refusal).toMatch(new RegExp(`^${name.replace(".", "\\.")}:\\d+:\\d+: model file /`));
      const page = await web.open();
      expect(await pickModelFile(page, join(scratch, name))).toBe("error");
      expect(await shownStatus(page)).toBe(`Cannot audit this: ${refusal}`);
      await page.close();
    }
  });

  it("refuses a model file named like a shipped model, and a journal whose header names another model", async () => {
    const renamed = join(scratch, "renamed.json");
    writeFileSync(
      renamed,
      '{"statefold":"model","version":1,"name":"temporal","records":{"source":"lines","kind":{"path":"type"}},"kinds":{"a":[]}}',
    );
    const page = await web.open();
    expect(await pickModelFile(page, renamed)).toBe("error");
    expect(await shownStatus(page)).toContain(
      'renamed.json: "temporal" is the name of a model statefold ships; a model file needs a name of its own',
    );
    expect(await pickModelFile(page, example("data/payment-intents.json"))).toBe("model-checked");
    expect(await auditInPage(page, example("operations/retry-ladder.jsonl"))).toBe("error");
    expect(await shownStatus(page)).toContain(
      'expected a "payment-intents" journal (the page\'s Model), found one whose header names the model "operations"',
    );
    await page.close();
  });

  it("shows a stream split by journal.key as the command line prints it: a report per journal", async () => {
    const model = example("data/orders.json");
    const page = await web.open();
    expect(await pickModelFile(page, model)).toBe("model-checked");
    for (const [name, verdict] of [
      ["orders.jsonl", "strictly conformant"],
      ["orders-violations.jsonl", "not conformant"],
    ] as const) {
      const journal = example(`data/${name}`);
      const expected = cliReport(journal, model) as { journals: { events: number }[] };
      expect(await auditInPage(page, journal)).toBe("done");
      expect(await shownReport(page)).toEqual(expected);
      const events = expected.journals.reduce((sum, each) => sum + each.events, 0);
      expect(await shownStatus(page)).toContain(
        `${name}: ${verdict} (${expected.journals.length} journals, ${events} events`,
      );
      const frame = await reportFrame(page);
      expect(await frame.$$eval(".journal", (sections) => sections.length)).toBe(
        expected.journals.length,
      );
    }
    expect(await findingRules(page)).toContain("paid-in-full");
    await page.screenshot({ path: screenshotPath("web-split-stream.png"), fullPage: true });
    await page.close();
  });

  it("fetches nothing but the page's own files, the data kernel among them, and logs no error", () => {
    for (const url of web.requests) expect(url.startsWith(`${web.url}/`)).toBe(true);
    expect(web.requests.some((url) => /statefold-data[^/]*\.wasm$/.test(url))).toBe(true);
    expect(web.errors).toEqual([]);
  });
});
