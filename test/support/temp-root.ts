/**
 * vitest's global setup: the run's scratch root (test/support/temp-dirs.ts), made before the
 * first test file and removed, with everything the tests wrote into it, after the last.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject): () => void {
  const root = mkdtempSync(join(tmpdir(), "statefold-test-run-"));
  project.provide("tempRoot", root);
  return () => rmSync(root, { recursive: true, force: true });
}
