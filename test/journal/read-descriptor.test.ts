import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, constants, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { JournalError } from "../../src/journal/errors.js";
import {
  readDescriptorChunks,
  readFileHashed,
  resumableFile,
} from "../../src/journal/read-descriptor.js";
import { concatBytes } from "../support/bytes.js";
import { patternedFile } from "../support/patterned-file.js";
import { testTempDir } from "../support/temp-dirs.js";

const MIB = 2 ** 20;
const folder = testTempDir("statefold-descriptor-");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const fileOf = (size: number) => patternedFile(folder, size);

const noFallback = (): AsyncIterable<Uint8Array> => {
  throw new Error("the fallback was not to be used");
};

/** Every chunk, copied (a chunk is valid until the next is asked for), slowly when `pauseMs`. */
async function collect(chunks: AsyncIterable<Uint8Array>, pauseMs = 0): Promise<Uint8Array[]> {
  const received: Uint8Array[] = [];
  for await (const chunk of chunks) {
    if (pauseMs > 0) await sleep(pauseMs); // the thread reads ahead meanwhile
    received.push(chunk.slice());
  }
  return received;
}

/**
 * A named pipe, written by a child process in pieces with pauses, after `delayMs`; `opened` once
 * the child has opened it (a FIFO read non-blocking before its writer opens it reads as ended).
 */
function pipeFrom(
  path: string,
  name: string,
  delayMs = 0,
): { fifo: string; opened: Promise<void>; writer: Promise<number | null> } {
  const fifo = join(folder, name);
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  const writer = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("node:fs");
       const bytes = fs.readFileSync(${JSON.stringify(path)});
       const out = fs.openSync(${JSON.stringify(fifo)}, "w");
       process.stdout.write("open\\n");
       const pause = new Int32Array(new SharedArrayBuffer(4));
       Atomics.wait(pause, 0, 0, ${delayMs});
       for (let at = 0; at < bytes.length; at += 300000) {
         fs.writeSync(out, bytes.subarray(at, at + 300000));
         Atomics.wait(pause, 0, 0, 3);
       }
       fs.closeSync(out);`,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const opened = new Promise<void>((resolve) => writer.stdout.once("data", () => resolve()));
  return { fifo, opened, writer: new Promise((resolve) => writer.on("close", resolve)) };
}

describe("readDescriptorChunks", () => {
  it("yields a file's bytes in order, for every size around a chunk", async () => {
    for (const size of [0, 1, MIB - 1, MIB, MIB + 1, 5.5 * MIB]) {
      const { path, content } = fileOf(size);
      const fd = openSync(path, "r");
      try {
        const received = await collect(readDescriptorChunks(fd, path, noFallback), 1);
        expect(received.every((chunk) => chunk.length > 0 && chunk.length <= MIB)).toBe(true);
        expect(Buffer.concat(received).equals(content)).toBe(true);
      } finally {
        closeSync(fd);
      }
    }
  });

  it("yields a pipe's bytes in order while its writer pauses, read ahead by the thread", async () => {
    const { path, content } = fileOf(9 * MIB + 12345);
    const { fifo, writer } = pipeFrom(path, "blocking");
    const fd = openSync(fifo, "r");
    try {
      const received = await collect(readDescriptorChunks(fd, fifo, noFallback), 2);
      expect(Buffer.concat(received).equals(content)).toBe(true);
      expect(received.length).toBeGreaterThanOrEqual(9);
    } finally {
      closeSync(fd);
    }
    expect(await writer).toBe(0);
  });

  it("reads a non-blocking descriptor that has nothing yet through the fallback, losing no byte", async () => {
    const { path, content } = fileOf(3 * MIB);
    const { fifo, opened, writer } = pipeFrom(path, "non-blocking", 50);
    const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    await opened;
    let fellBack = false;
    // The fallback a test can have: the same descriptor, polled.
    async function* polled(): AsyncGenerator<Uint8Array> {
      fellBack = true;
      const buffer = new Uint8Array(64 * 1024);
      while (true) {
        let read: number;
        try {
          read = readSync(fd, buffer, 0, buffer.length, null);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
          await sleep(1);
          continue;
        }
        if (read === 0) return;
        yield buffer.subarray(0, read);
      }
    }
    try {
      const received = await collect(readDescriptorChunks(fd, fifo, polled));
      expect(Buffer.concat(received).equals(content)).toBe(true);
    } finally {
      closeSync(fd);
    }
    expect(fellBack).toBe(true);
    expect(await writer).toBe(0);
  });

  it("lets a consumer stop early", async () => {
    const { path, content } = fileOf(6 * MIB);
    const fd = openSync(path, "r");
    try {
      for await (const chunk of readDescriptorChunks(fd, path, noFallback)) {
        expect(chunk[MIB - 1]).toBe(content[MIB - 1]);
        break;
      }
    } finally {
      closeSync(fd);
    }
  });

  it("names the input when it cannot be read", async () => {
    const fd = openSync(folder, "r"); // a directory: EISDIR
    try {
      await expect(collect(readDescriptorChunks(fd, "<stdin>", noFallback))).rejects.toThrow(
        new JournalError("<stdin>", "cannot read: EISDIR: illegal operation on a directory, read"),
      );
    } finally {
      closeSync(fd);
    }
  });
});

describe("readFileHashed", () => {
  const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

  it("hands over the file's bytes, and with each chunk the digest of the complete lines so far", async () => {
    for (const [size, pauseMs] of [
      [MIB + 1, 0],
      [3.5 * MIB, 2], // the thread reads ahead: each chunk's digest is its own, not the thread's latest
      [9 * MIB + 123, 0],
    ] as const) {
      const { path, content } = fileOf(size);
      const hashed = readFileHashed(path);
      if (hashed === null) throw new Error("a file of more than a chunk is read on a thread");
      let read = 0;
      for await (const chunk of hashed.chunks) {
        expect(Buffer.compare(chunk, content.subarray(read, read + chunk.length))).toBe(0);
        read += chunk.length;
        const linesEnd = content.subarray(0, read).lastIndexOf(0x0a) + 1;
        expect(linesEnd).toBeGreaterThan(0);
        expect(hashed.digests.hex(linesEnd)).toBe(sha256Hex(content.subarray(0, linesEnd)));
        if (linesEnd < read) expect(() => hashed.digests.hex(read)).toThrow(/first \d+ bytes/);
        if (pauseMs > 0) await sleep(pauseMs);
      }
      expect(read).toBe(content.length);
    }
  });

  it("gives the digest of no bytes while no line is complete", async () => {
    const path = join(folder, "one-long-line");
    writeFileSync(path, new Uint8Array(2 * MIB + 5).fill(0x61));
    const hashed = readFileHashed(path);
    if (hashed === null) throw new Error("a file of more than a chunk is read on a thread");
    expect(hashed.digests.hex(0)).toBe(sha256Hex(new Uint8Array(0)));
    expect((await collect(hashed.chunks)).reduce((sum, chunk) => sum + chunk.length, 0)).toBe(
      2 * MIB + 5,
    );
    expect(hashed.digests.hex(0)).toBe(sha256Hex(new Uint8Array(0)));
  });

  it("leaves a file of a chunk or less, a directory and a missing file to the plain reader", () => {
    expect(readFileHashed(fileOf(MIB).path)).toBeNull();
    expect(readFileHashed(folder)).toBeNull();
    expect(readFileHashed(join(folder, "missing"))).toBeNull();
  });
});

describe("resumableFile", () => {
  const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  const fromStart = (): AsyncIterable<Uint8Array> => {
    throw new Error("the file's start was not to be read");
  };

  it("hashes the prefix on the thread, then hands over what follows with the digests of the complete lines from the start", async () => {
    for (const [size, prefix, pauseMs] of [
      [3.5 * MIB, MIB + 17, 0],
      [9 * MIB + 123, 5 * MIB, 2],
      [2 * MIB, 2 * MIB, 0], // nothing after the prefix
    ] as const) {
      const { path, content } = fileOf(size);
      const skipped = resumableFile(path, fromStart).afterPrefix(prefix);
      if (skipped === null) throw new Error("a prefix of more than a chunk is hashed on a thread");
      try {
        let read = prefix;
        for await (const chunk of skipped.chunks) {
          expect(Buffer.compare(chunk, content.subarray(read, read + chunk.length))).toBe(0);
          read += chunk.length;
          const linesEnd = content.subarray(0, read).lastIndexOf(0x0a) + 1;
          expect(skipped.digests.hex(linesEnd)).toBe(sha256Hex(content.subarray(0, linesEnd)));
          if (pauseMs > 0) await sleep(pauseMs);
        }
        expect(read).toBe(content.length);
        // With nothing after the prefix, the digests are the prefix's complete lines'.
        const linesEnd = content.lastIndexOf(0x0a) + 1;
        expect(skipped.digests.hex(linesEnd)).toBe(sha256Hex(content.subarray(0, linesEnd)));
        expect(await skipped.prefix()).toEqual({
          bytes: prefix,
          sha256: sha256Hex(content.subarray(0, prefix)),
        });
      } finally {
        skipped.stop();
      }
    }
  });

  it("hashes again from the start a prefix it learns of only once it hashed past it", async () => {
    const { path, content } = fileOf(9 * MIB + 5);
    const file = resumableFile(path, fromStart);
    await sleep(300); // the thread has hashed the whole file meanwhile, and waits
    const skipped = file.afterPrefix(MIB + 3);
    if (skipped === null) throw new Error("a prefix of more than a chunk is hashed on a thread");
    try {
      const received = concatBytes(...(await collect(skipped.chunks)));
      expect(Buffer.compare(received, content.subarray(MIB + 3))).toBe(0);
      const linesEnd = content.lastIndexOf(0x0a) + 1;
      expect(skipped.digests.hex(linesEnd)).toBe(sha256Hex(content.subarray(0, linesEnd)));
      expect(await skipped.prefix()).toEqual({
        bytes: MIB + 3,
        sha256: sha256Hex(content.subarray(0, MIB + 3)),
      });
    } finally {
      file.close();
    }
  });

  it("says how many bytes a file shorter than the prefix had, and hands over nothing", async () => {
    const { path, content } = fileOf(3 * MIB + 5);
    const skipped = resumableFile(path, fromStart).afterPrefix(4 * MIB);
    if (skipped === null) throw new Error("a prefix of more than a chunk is hashed on a thread");
    try {
      expect(await collect(skipped.chunks)).toEqual([]);
      expect(await skipped.prefix()).toEqual({
        bytes: content.length,
        sha256: sha256Hex(content),
      });
    } finally {
      skipped.stop();
    }
  });

  it("leaves a prefix of a chunk or less, a directory and a missing file to the chunks from the start", () => {
    const { path } = fileOf(3 * MIB);
    expect(resumableFile(path, fromStart).afterPrefix(MIB)).toBeNull();
    expect(resumableFile(folder, fromStart).afterPrefix(2 * MIB)).toBeNull();
    expect(resumableFile(join(folder, "missing"), fromStart).afterPrefix(2 * MIB)).toBeNull();
  });
});
