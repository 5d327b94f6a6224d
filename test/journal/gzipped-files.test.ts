import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { JournalError } from "../../src/journal/errors.js";
import { readFileHashed } from "../../src/journal/read-descriptor.js";
import {
  contentName,
  isGzipped,
  readFileBytes,
  readFileChunks,
  readStoredFileBytes,
} from "../../src/journal/read-file-bytes.js";
import { patternedFile } from "../support/patterned-file.js";
import { testTempDir } from "../support/temp-dirs.js";

const folder = testTempDir("statefold-gzipped-");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Writes `content` gzipped as `name` in the folder; its path. */
function gzipped(name: string, content: Uint8Array): string {
  const path = join(folder, name);
  writeFileSync(path, gzipSync(content));
  return path;
}

async function chunksOf(path: string): Promise<Buffer> {
  const received: Uint8Array[] = [];
  for await (const chunk of readFileChunks(path)) received.push(chunk.slice());
  return Buffer.concat(received);
}

async function refusalOf(read: () => unknown): Promise<JournalError> {
  try {
    await read();
  } catch (error) {
    if (error instanceof JournalError) return error;
    throw error;
  }
  throw new Error("expected a JournalError");
}

describe("a file whose name ends in .gz", () => {
  it("is read decompressed, in chunks and whole, past a chunk's size and over several gzip members", async () => {
    const { content } = patternedFile(folder, 2.5 * 2 ** 20);
    const path = gzipped("big.jsonl.gz", content);
    expect((await chunksOf(path)).equals(content)).toBe(true);
    expect(Buffer.from(readFileBytes(path)).equals(content)).toBe(true);
    const members = join(folder, "members.jsonl.gz");
    writeFileSync(
      members,
      Buffer.concat([gzipSync("first\n"), gzipSync("second\n"), gzipSync("")]),
    );
    expect((await chunksOf(members)).toString()).toBe("first\nsecond\n");
    expect(Buffer.from(readFileBytes(members)).toString()).toBe("first\nsecond\n");
  });

  it("is left as it was: neither its bytes nor its modification time change", async () => {
    const path = gzipped("kept.jsonl.gz", new TextEncoder().encode('{"kind":"x"}\n'));
    const before = { bytes: readFileSync(path), mtime: statSync(path).mtimeMs };
    await chunksOf(path);
    readFileBytes(path);
    expect({ bytes: readFileSync(path), mtime: statSync(path).mtimeMs }).toEqual(before);
  });

  it("that is truncated is refused naming the file, read in chunks or whole", async () => {
    const whole = gzipSync(patternedFile(folder, 100_000).content);
    const path = join(folder, "truncated.jsonl.gz");
    writeFileSync(path, whole.subarray(0, whole.length - 100));
    const message = `${path}: cannot decompress: its gzip data ends early (a truncated file)`;
    expect((await refusalOf(() => chunksOf(path))).message).toBe(message);
    expect((await refusalOf(() => readFileBytes(path))).message).toBe(message);
    const empty = join(folder, "empty.jsonl.gz");
    writeFileSync(empty, "");
    expect((await refusalOf(() => chunksOf(empty))).message).toMatch(/ends early/);
  });

  it("that is not gzip data, or is missing, is refused naming the file", async () => {
    const plain = join(folder, "plain.jsonl.gz");
    writeFileSync(plain, '{"kind":"dispatched","id":"A"}\n');
    for (const read of [() => chunksOf(plain), () => readFileBytes(plain)]) {
      expect((await refusalOf(read)).message).toBe(
        `${plain}: cannot decompress: it is not gzip data, or is corrupt (incorrect header check)`,
      );
    }
    const missing = join(folder, "missing.jsonl.gz");
    for (const read of [() => chunksOf(missing), () => readFileBytes(missing)]) {
      expect((await refusalOf(read)).message).toBe(`${missing}: cannot read: no such file`);
    }
  });

  it("is read as stored by readStoredFileBytes (a snapshot statefold wrote), and has no hashing thread", () => {
    const path = gzipped("stored.gz", new Uint8Array(3 * 2 ** 20));
    expect(Buffer.from(readStoredFileBytes(path)).equals(readFileSync(path))).toBe(true);
    expect(readFileHashed(path)).toBeNull();
  });
});

describe("contentName and isGzipped", () => {
  it("name a gzipped file's content by its name before .gz", () => {
    expect(isGzipped("run.jsonl.gz")).toBe(true);
    expect(isGzipped("run.jsonl")).toBe(false);
    expect(contentName("campaign.lisp-expr.gz")).toBe("campaign.lisp-expr");
    expect(contentName("history.json")).toBe("history.json");
  });
});
