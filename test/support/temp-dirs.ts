/**
 * Scratch directories for tests, all inside one directory per test run that the run's global
 * teardown removes (test/support/temp-root.ts), so a run leaves nothing behind in the OS temp
 * directory — tens of megabytes of journals before.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    tempRoot: string;
  }
}

/** A fresh, empty directory whose name starts with `prefix`, inside the run's scratch root. */
export function testTempDir(prefix: string): string {
  return mkdtempSync(join(inject("tempRoot"), prefix));
}
