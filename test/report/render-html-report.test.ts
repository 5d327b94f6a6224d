import { describe, expect, it } from "vitest";
import { readJournalFile } from "../../src/journal/dag/files.js";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import { referenceEngine } from "../../src/models/dag/engine.js";
import { audit, type Dag, dagLayers, INVARIANT_NAMES } from "../../src/models/dag/index.js";
import { buildJournalView, linesToQuote } from "../../src/report/dag/build-journal-view.js";
import type { DagJournalView } from "../../src/report/dag/journal-view.js";
import { gatherJournalView } from "../../src/report/gather-journal-view.js";
import { quoteLines } from "../../src/report/quote-lines.js";
import { renderHtmlReport } from "../../src/report/render-html-report.js";
import type { JournalView } from "../../src/report/views.js";

const DIAMOND = "examples/diamond.jsonl";

/** An example journal's view, as `statefold audit --html` gathers it. */
async function exampleView(path: string): Promise<DagJournalView> {
  const { dag, events, lines, tornTail } = readJournalFile(path);
  const report = audit(dag, events, { lines, tornTail });
  const view = await gatherJournalView({ file: path, report }, {});
  if (view.report.model !== "dag") throw new Error(`${path} is no dag journal`);
  return view as DagJournalView;
}

/** The view of JSONL text held in memory, as a browser page would build it. */
async function viewOfText(file: string, text: string): Promise<JournalView> {
  const bytes = new TextEncoder().encode(text);
  const journal = readJsonlJournal(bytes, file);
  const dag = dagOfHeader(journal.header) as Dag;
  const report = audit(dag, journal.events, { lines: journal.lines, tornTail: journal.tornTail });
  const quoted = await quoteLines([bytes], linesToQuote(report, journal.lines));
  return buildJournalView({ ...journal, file, report, dag }, quoted, referenceEngine);
}

const jsonl = (...values: readonly unknown[]) =>
  values.map((v) => `${JSON.stringify(v)}\n`).join("");
const header = (nodes: readonly { id: string; deps: string[] }[]) => ({
  statefold: "journal",
  version: 1,
  dag: { nodes },
});

function unescapeHtml(html: string): string {
  const characters: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => characters[name] as string);
}

/** Each drawn node's id (as its tooltip quotes it) and status class, in drawing order. */
function drawnNodes(html: string): { id: string; status: string; x: number; flagged: boolean }[] {
  const pattern = /<g class="node s-(\w+)( flagged)?"><title>(.*?) · .*?<rect x="([\d.]+)"/g;
  return [...html.matchAll(pattern)].map(([, status, flagged, id, x]) => ({
    id: JSON.parse(unescapeHtml(id as string)) as string,
    status: status as string,
    x: Number(x),
    flagged: flagged !== undefined,
  }));
}

describe("renderHtmlReport", () => {
  it("escapes every string from the journal: ids, kinds, paths, lines and the file name", async () => {
    const nasty = '<script>alert("x")</script>';
    const ids = [nasty, `it's "quoted" & 😀`, "tab\tand\u0007bell"];
    const text = jsonl(
      header(ids.map((id) => ({ id, deps: [] }))),
      { kind: "dispatched", id: ids[0] },
      { kind: "surface-widened", id: ids[0], surface: [`</code>${nasty}`] },
      { kind: "landed", id: ids[0] },
      { kind: "landed", id: ids[0] },
      { kind: "skipped", id: ids[1] },
      { kind: "surface-widened", id: ids[2], surface: "<b>not a list</b>" },
      { kind: `<i>${nasty}`, id: ids[1] },
    );
    const view = await viewOfText(`weird<${nasty}>.jsonl`, text);
    const html = renderHtmlReport([view], { strict: false, generator: `statefold <${nasty}>` });

    expect(html).not.toMatch(/<script|<\/script|<i>|<b>not/i);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("it&#39;s \\&quot;quoted\\&quot; &amp; 😀"); // quoted as JSON, then escaped
    expect(html).toContain("tab\tand\u2407bell"); // a control character made visible
    expect(html).toContain("weird&lt;&lt;script&gt;");
    expect(drawnNodes(html).map((node) => node.id)).toEqual(
      dagLayers(
        dagOfHeader(readJsonlJournal(new TextEncoder().encode(text), "x").header) as Dag,
      ).flat(),
    );
  });

  it("shows every section for a non-conformant journal", async () => {
    const html = renderHtmlReport(
      [await exampleView("examples/violations/unproven-dispatch.jsonl")],
      {
        strict: false,
      },
    );
    // The summary table, with the journal's verdict and counts.
    expect(html).toMatch(
      /<td class="mark bad">✗<\/td>\s*<td class="file"><a href="#journal-1">examples\/violations\/unproven-dispatch.jsonl<\/a><\/td>\s*<td><span class="pill bad">not conformant<\/span><\/td>\s*<td class="num">13<\/td>\s*<td class="num">1<\/td>\s*<td><code>scheduleCorrect<\/code><\/td>/,
    );
    // A verdict chip per check.
    for (const name of INVARIANT_NAMES)
      expect(html).toMatch(new RegExp(`<span class="chip (good|bad)">[✓✗] ${name}`));
    expect(html).toContain(
      '<span class="chip bad">✗ scheduleCorrect <span class="detail">line 11 (event 9), node &quot;D&quot;</span>',
    );
    expect(html).toContain('<span class="chip warn">! 1 illegal event</span>');
    // The finding: rule, line, node and why, the lines before it as written, D's state around it.
    expect(html).toContain('<article class="finding grave">');
    expect(html).toContain('<span class="at-line">line 11</span>');
    expect(html).toContain('node <code class="id">&quot;D&quot;</code>');
    expect(html).toContain(
      '<span class="rule bad">✗ scheduleCorrect</span> dispatched before its dependencies were proven',
    );
    expect(html).toContain('<span class="rule warn">! illegal: dependencies-not-proven</span>');
    const quotedLines = [
      ...html.matchAll(/<li( class="offending")?><span class="gutter">(\d+)<\/span>/g),
    ];
    expect(quotedLines.map(([, offending, line]) => [line, offending !== undefined])).toEqual([
      ["8", false],
      ["9", false],
      ["10", false],
      ["11", true],
    ]);
    expect(html).toContain(
      "<code>{&quot;ts&quot;:&quot;2026-11-02T09:20:17.724Z&quot;,&quot;seq&quot;:10,&quot;kind&quot;:&quot;dispatched&quot;,&quot;id&quot;:&quot;D&quot;,&quot;worker&quot;:&quot;w-2&quot;}</code>",
    );
    expect(html).toMatch(
      /<tr><th>status<\/th><td><span class="pill s-queued">queued<\/span><\/td><td class="changed"><span class="pill s-dispatched">dispatched<\/span><\/td><\/tr>/,
    );
    expect(html).toContain(
      '<code class="id">&quot;C&quot;</code> <span class="pill s-landed">landed</span>',
    );
    // The DAG, after the findings.
    expect(html.indexOf('<svg class="dag"')).toBeGreaterThan(
      html.indexOf('<article class="finding'),
    );
  });

  it("draws the DAG by Kahn layers, coloured by final status, ringing the nodes findings name", async () => {
    const html = renderHtmlReport([await exampleView("examples/violations/unknown-node.jsonl")], {
      strict: false,
    });
    const nodes = drawnNodes(html);
    const columns = [...new Set(nodes.map((node) => node.x))].sort((a, b) => a - b);
    const layers = columns.map((x) => nodes.filter((node) => node.x === x).map((node) => node.id));
    expect(layers).toEqual([["A"], ["B", "C"], ["D"]]);
    // The states before the integrity error (line 7): A proven, B dispatched, C and D queued.
    expect(nodes.map((node) => [node.id, node.status])).toEqual([
      ["A", "proven"],
      ["B", "dispatched"],
      ["C", "queued"],
      ["D", "queued"],
    ]);
    expect(html).toContain("The DAG by layers, coloured by status before the integrity error");
    expect(html).toContain('<span class="pill s-dispatched">dispatched <b>1</b></span>');
  });

  it("rings the node a finding names", async () => {
    const html = renderHtmlReport([await exampleView("examples/violations/surface-shrink.jsonl")], {
      strict: false,
    });
    expect(
      drawnNodes(html)
        .filter((node) => node.flagged)
        .map((node) => node.id),
    ).toEqual(["B"]);
    expect(html).toContain('<code class="path dropped">− src/b_util.ts</code>');
  });

  it("summarises a DAG too large to draw", async () => {
    const nodes = Array.from({ length: 301 }, (_, i) => ({
      id: `n${i}`,
      deps: i === 0 ? [] : ["n0"],
    }));
    const view = await viewOfText("big.jsonl", jsonl(header(nodes), { kind: "skipped", id: "n0" }));
    const html = renderHtmlReport([view], { strict: false });
    expect(drawnNodes(html)).toEqual([]);
    expect(html).toContain("The DAG has 301 nodes in 2 layers, too many to draw one by one");
    expect(html).toContain(
      '<tr><th>layer 2</th><td class="num">300</td><td><div class="bar"><span class="s-queued" style="flex:300" title="300 queued"></span></div></td><td class="counts">300 queued</td></tr>',
    );
  });

  it("says why a journal has only its verdicts, and still lists what broke", async () => {
    const { report } = await exampleView("examples/violations/unproven-dispatch.jsonl");
    const view: JournalView = {
      file: "huge.jsonl",
      report,
      context: { gathered: false, why: "The journal is 3000 MB; only the verdicts are shown." },
    };
    const html = renderHtmlReport([view], { strict: false });
    expect(html).toContain(
      '<p class="omitted">The journal is 3000 MB; only the verdicts are shown.</p>',
    );
    expect(html).toContain(
      '<li><span class="rule bad">✗ scheduleCorrect</span> line 11 (event 9), node &quot;D&quot;: dispatched before its dependencies were proven</li>',
    );
    expect(html).not.toContain("<svg");
  });

  it("judges under --strict as the command line does", async () => {
    const view = await exampleView("examples/violations/illegal-transition.jsonl");
    expect(renderHtmlReport([view], { strict: false })).toContain(
      '<span class="pill warn">conformant, not strictly</span>',
    );
    const strict = renderHtmlReport([view], { strict: true });
    expect(strict).toContain('<span class="pill bad">conformant, not strictly</span>');
    expect(strict).toContain("<title>statefold audit: 0 of 1 journal strictly conformant</title>");
    expect(strict).toContain('<article class="finding warning">');
  });

  it("is one self-contained page: no script, no external resource, a policy that forbids both", async () => {
    const html = renderHtmlReport([await exampleView("examples/diamond.jsonl")], { strict: false });
    expect(html).not.toMatch(/<script|\bsrc=|url\(|@import|https?:/i);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toContain("What went wrong");
    expect(drawnNodes(html).map((node) => node.status)).toEqual(Array(4).fill("proven"));
  });

  it("shows a tamperEvident break with its nodes as they ended", async () => {
    // The fold proves a node only on a logged pass, so no journal breaks tamperEvident; a report
    // that says it is broken still gets its card.
    const { dag, events, lines } = readJournalFile(DIAMOND);
    const honest = audit(dag, events, { lines });
    const report = {
      ...honest,
      conformant: false,
      strictlyConformant: false,
      invariants: { ...honest.invariants, tamperEvident: { holds: false, nodes: ["B"] } },
    } as const;
    const view = buildJournalView(
      { file: DIAMOND, report, dag, events, lines },
      new Map(),
      referenceEngine,
    );
    const html = renderHtmlReport([view], { strict: false });
    expect(html).toContain(
      '<span class="rule bad">✗ tamperEvident</span> a node proven without a logged pass',
    );
    expect(html).toContain(
      '<li><code class="id">&quot;B&quot;</code> <span class="pill s-proven">proven</span> phase 2 · deposit proven · gated · phase 2</li>',
    );
    expect(
      drawnNodes(html)
        .filter((node) => node.flagged)
        .map((node) => node.id),
    ).toEqual(["B"]);
  });

  it("counts the illegal events it does not list, before the torn-tail card", async () => {
    const nodes = [{ id: "A", deps: [] }];
    const landings = Array.from({ length: 12 }, () => JSON.stringify({ kind: "landed", id: "A" }));
    const text = `${[JSON.stringify(header(nodes)), ...landings].join("\n")}\n{"kind":"lan`;
    const html = renderHtmlReport([await viewOfText("many.jsonl", text)], { strict: false });
    expect(html.match(/<article class="finding warning">/g)).toHaveLength(11); // 10 + torn tail
    const note = html.indexOf(
      '<p class="note">… and 2 more illegal events, not listed (the report lists the first 10).</p>',
    );
    expect(note).toBeGreaterThan(html.lastIndexOf("! illegal: wrong-status"));
    expect(note).toBeLessThan(html.indexOf("! torn tail</span>"));
  });

  it("warns of a torn tail with the unfinished line as written", async () => {
    const html = renderHtmlReport([await exampleView("examples/violations/torn-tail.jsonl")], {
      strict: false,
    });
    expect(html).toContain('<article class="finding warning">');
    expect(html).toContain(
      '<span class="rule warn">! torn tail</span> an unfinished last entry (a crash mid-write?) was left out',
    );
    expect(html).toMatch(
      /<li class="offending"><span class="gutter">8<\/span><code>\{&quot;ts&quot;/,
    );
  });
});
