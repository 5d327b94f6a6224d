import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { JournalError } from "../../src/journal/errors.js";
import { readFileChunks } from "../../src/journal/read-file-bytes.js";
import { patternedFile } from "../support/patterned-file.js";
import { testTempDir } from "../support/temp-dirs.js";

const folder = testTempDir("statefold-chunks-");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const fileOf = (size: number) => patternedFile(folder, size);

describe("readFileChunks", () => {
  it("yields the file's bytes in order, each chunk intact while the next one is being read", async () => {
    const { path, content } = fileOf(2.5 * 2 ** 20);
    const received: Uint8Array[] = [];
    for await (const chunk of readFileChunks(path)) {
      await sleep(5); // the read of the next chunk lands meanwhile
      received.push(chunk.slice());
    }
    expect(received.length).toBe(3);
    expect(Buffer.concat(received).equals(content)).toBe(true);
  });

  it("reads the file as it is, whatever size it was listed at", async () => {
    for (const [actual, listed] of [
      [3 * 2 ** 20 + 7, 10], // grew past a chunk since it was listed
      [2 ** 20, 2 ** 20], // exactly one chunk
      [500, 2 ** 20 + 1], // shrank since
      [0, 12],
    ] as const) {
      const { path, content } = fileOf(actual);
      const received: Uint8Array[] = [];
      for await (const chunk of readFileChunks(path, listed)) received.push(chunk.slice());
      expect(Buffer.concat(received).equals(content), `${actual} listed as ${listed}`).toBe(true);
    }
    const missing = join(folder, "listed-then-removed.jsonl");
    await expect(async () => {
      for await (const _ of readFileChunks(missing, 0)) break;
    }).rejects.toThrow(/no such file/);
  });

  it("yields nothing for an empty file", async () => {
    const { path } = fileOf(0);
    const received: Uint8Array[] = [];
    for await (const chunk of readFileChunks(path)) received.push(chunk);
    expect(received).toEqual([]);
  });

  it("lets a consumer stop early and closes the file", async () => {
    const { path, content } = fileOf(3 * 2 ** 20);
    for await (const chunk of readFileChunks(path)) {
      expect(chunk[1]).toBe(content[1]);
      break;
    }
    const openBefore = readdirSync("/proc/self/fd").length;
    for (let run = 0; run < 20; run++) {
      for await (const _ of readFileChunks(path)) break;
    }
    expect(readdirSync("/proc/self/fd").length).toBe(openBefore);
    const again: Uint8Array[] = [];
    for await (const chunk of readFileChunks(path)) again.push(chunk.slice());
    expect(Buffer.concat(again).equals(content)).toBe(true);
  });

  it("keeps streams apart when several read at once (buffers are reused between streams)", async () => {
    const files = [fileOf(2.2 * 2 ** 20), fileOf(3.7 * 2 ** 20), fileOf(1.1 * 2 ** 20)];
    for (let round = 0; round < 3; round++) {
      const received = await Promise.all(
        files.map(async ({ path }) => {
          const chunks: Uint8Array[] = [];
          for await (const chunk of readFileChunks(path)) {
            await sleep(1);
            chunks.push(chunk.slice());
          }
          return Buffer.concat(chunks);
        }),
      );
      for (const [at, { content }] of files.entries()) {
        expect(received[at]?.equals(content)).toBe(true);
      }
    }
  });

  it("names the file and the reason when it cannot be read", async () => {
    const missing = join(folder, "missing.jsonl");
    const read = async () => {
      for await (const _ of readFileChunks(missing)) {
        // nothing to read
      }
    };
    await expect(read()).rejects.toThrow(JournalError);
    await expect(read()).rejects.toThrow(`${missing}: cannot read: no such file`);
  });
});
