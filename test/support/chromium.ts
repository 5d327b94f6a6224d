/**
 * Headless Debian Chromium (never a downloaded browser), and a loopback server for the repository's
 * built files, for tests of what runs in a browser.
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A fresh profile in `userDataDir`, so no state of an earlier run leaks in. */
export function launchChromium(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
  });
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".jsonl": "application/x-ndjson",
  // The shipped models are JSON modules: a browser imports one only with this type.
  ".json": "application/json",
};

/** Serves `root` read-only on 127.0.0.1; `pages` are extra in-memory documents by path. */
export async function serveFiles(
  root: string,
  pages: Readonly<Record<string, string>>,
): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    const page = pages[path];
    try {
      const body = page ?? (await readFile(join(root, path)));
      response.writeHead(200, {
        "content-type": MIME_TYPES[extname(path)] ?? "application/octet-stream",
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}
