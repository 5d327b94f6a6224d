import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceEngine } from "../../src/models/dag/engine.js";
import type { Report } from "../../src/models/dag/report.js";
import { launchChromium, serveFiles } from "../support/chromium.js";
import { testTempDir } from "../support/temp-dirs.js";

// The built package (dist/, with the kernel in dist/build/) as a browser loads it: no bundler, no
// file system, the kernel fetched over HTTP.
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const EXAMPLES = [
  "examples/diamond.jsonl",
  "examples/violations/unproven-dispatch.jsonl",
  "examples/violations/torn-tail.jsonl",
];

let browser: BrowserContext;
let server: Server;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  const served = await serveFiles(ROOT, { "/index.html": PAGE });
  server = served.server;
  browser = await launchChromium(testTempDir("statefold-chromium-"));
  page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  await page.goto(`${served.url}/index.html`);
  await page.waitForFunction(() => document.title === "ready", undefined, { timeout: 30_000 });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

type Flavour = "simd" | "scalar";

/**
 * The page imports the bindings as a module and offers two calls to the test. (The test cannot
 * send an `import()` itself: vitest rewrites dynamic imports in test code for Node.)
 */
const PAGE = `<!doctype html><title>statefold</title><link rel="icon" href="data:,">
<script type="module">
import { loadEngine } from "/dist/bindings/index.js";
window.statefold = {
  async audit(text, flavour, wasm) {
    const file = flavour === "simd" ? "/dist/build/statefold.simd.wasm" : "/dist/build/statefold.wasm";
    const bytes = wasm === "bytes" ? new Uint8Array(await (await fetch(file)).arrayBuffer()) : undefined;
    const engine = await loadEngine(bytes === undefined ? { flavour } : { flavour, wasm: bytes });
    const report = await engine.auditBytes(null, new TextEncoder().encode(text));
    return { flavour: engine.flavour, report };
  },
  async chosenFlavour() {
    return (await loadEngine()).flavour;
  },
};
document.title = "ready";
</script>`;

interface PageApi {
  audit(
    text: string,
    flavour: Flavour,
    wasm: "default" | "bytes",
  ): Promise<{ flavour: string; report: Report }>;
  chosenFlavour(): Promise<string>;
}

/** Audits JSONL text in the page with the WASM engine, the kernel loaded as the options say. */
function auditInBrowser(text: string, flavour: Flavour, wasm: "default" | "bytes") {
  return page.evaluate(
    (args) => (globalThis as unknown as { statefold: PageApi }).statefold.audit(...args),
    [text, flavour, wasm] as const,
  );
}

describe("loadEngine in Chromium", () => {
  it.each(EXAMPLES)(
    "audits %s as the reference does in Node, with the kernel fetched by URL",
    async (example) => {
      const bytes = readFileSync(join(ROOT, example));
      const expected = await referenceEngine.auditBytes(null, bytes);
      for (const flavour of ["simd", "scalar"] as const) {
        const audited = await auditInBrowser(bytes.toString("utf8"), flavour, "default");
        expect(audited.flavour).toBe(flavour);
        expect(audited.report).toEqual(expected);
      }
    },
  );

  it("takes the kernel as bytes, and picks the SIMD build where the browser supports it", async () => {
    const bytes = readFileSync(join(ROOT, "examples/diamond.jsonl"));
    const audited = await auditInBrowser(bytes.toString("utf8"), "scalar", "bytes");
    expect(audited.report).toEqual(await referenceEngine.auditBytes(null, bytes));
    const chosen = await page.evaluate(() =>
      (globalThis as unknown as { statefold: PageApi }).statefold.chosenFlavour(),
    );
    expect(chosen).toBe("simd");
    expect(consoleErrors).toEqual([]);
  });
});
