/**
 * The text and HTML frames render any model's report from its frame and ask the model only for
 * its own words (src/report/model-text.ts, src/report/model-html.ts): these hold each registered
 * model's facets to the report its engine gives.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MODELS } from "../../src/models/registry.js";
import { renderHtmlReport } from "../../src/report/render-html-report.js";
import { verdictsOnlyView } from "../../src/report/verdicts-only-view.js";

const HISTORIES = "test/data/real-histories";

/** A history with its `dropped`th event lost, as a truncated or spliced export loses one. */
function withEventLost(file: string, dropped: number): Uint8Array {
  const document = JSON.parse(readFileSync(file, "utf8"));
  const events: unknown[] = Array.isArray(document) ? document : document.events;
  events.splice(dropped, 1);
  return new TextEncoder().encode(JSON.stringify(document));
}

/** A journal of each model that breaks at least one of its rules. */
const BROKEN_JOURNAL: Readonly<Record<(typeof MODELS)[number]["name"], string>> = {
  dag: "examples/violations/unproven-dispatch.jsonl",
  operations: "examples/operations/retry-ladder.jsonl",
  executive: "examples/executive/resurrection.jsonl",
  // Written by the Java SDK's test server, which records a completed workflow task its own way.
  temporal: `${HISTORIES}/temporalio+sdk-java/temporal-sdk/src/test/resources/testUnknownHistoryEventClean.json`,
  cadence: `${HISTORIES}/uber-go+cadence-client/test/replaytests/greetings.json`,
  stepfunctions: `${HISTORIES}/stepfunctions/1172f64fefef.json`,
};

/** The bytes audited: a real history of a model none of whose bundled journals breaks a rule loses an event. */
function brokenBytes(name: (typeof MODELS)[number]["name"]): Uint8Array {
  const file = BROKEN_JOURNAL[name];
  return name === "cadence" || name === "stepfunctions"
    ? withEventLost(file, 2)
    : readFileSync(file);
}

describe.each(MODELS.map((model) => [model.name, model] as const))(
  "the %s model's facets",
  (name, model) => {
    const file = BROKEN_JOURNAL[name];
    const audited = async () => {
      const engine = await model.reference();
      return (await engine.auditBytes(brokenBytes(name), { file })) as never;
    };

    it("name every rule its report judges, so the text's label column fits them all", async () => {
      const report: { invariants: object } = await audited();
      expect([...model.text.ruleNames].sort()).toEqual(Object.keys(report.invariants).sort());
    });

    it("list each broken rule under a name the report gives as broken", async () => {
      const report: { invariants: Record<string, { holds: boolean }> } = await audited();
      const broken = model.text.brokenRules(report as never).map(({ rule }) => rule);
      expect(broken.length).toBeGreaterThan(0);
      for (const rule of broken) expect(report.invariants[rule]?.holds).toBe(false);
    });

    it("render the body of a journal with only its verdicts, the final line in the facts", async () => {
      const report = await audited();
      const html = renderHtmlReport([verdictsOnlyView({ file, report }, "Too big")], {
        strict: false,
      });
      expect(html).toContain(`· ${model.text.finalLine(report)}</p>`);
      expect(html).toContain('<p class="omitted">Too big; only the verdicts are shown.</p>');
    });
  },
);
