/**
 * Reading the files a command is given, whole or as a stream of chunks. A file whose name ends in
 * `.gz` is read through gzip decompression, streamed (docs/journals.md, "Compressed journals"):
 * what every reader of a journal — or of a file beside it, a DAG file — gets is its content,
 * whatever the model and the command.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { createGunzip, gunzipSync } from "node:zlib";
import { JournalError } from "./errors.js";

/** The operating system's reasons a person meets most, in their words. */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
  ERR_FS_FILE_TOO_LARGE: "too large to read whole (the limit is 2 GiB)",
};

/** Whether a file is read through gzip decompression: its name ends in `.gz`. */
export function isGzipped(path: string): boolean {
  return path.endsWith(GZIP_EXTENSION);
}

export const GZIP_EXTENSION = ".gz";

/** A file's name as its content's: `x.lisp-expr.gz` holds a `.lisp-expr` journal. */
export function contentName(path: string): string {
  return isGzipped(path) ? path.slice(0, -GZIP_EXTENSION.length) : path;
}

/**
 * A whole file's content (decompressed when `isGzipped`); a failure to read it is a
 * `JournalError` naming the file and the reason.
 */
export function readFileBytes(path: string): Uint8Array {
  const stored = readStoredFileBytes(path);
  if (!isGzipped(path)) return stored;
  try {
    return gunzipSync(stored);
  } catch (error) {
    throw decompressionFailure(path, error);
  }
}

/** A whole file's bytes as they are on disk, whatever its name (a snapshot statefold wrote). */
export function readStoredFileBytes(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw readFailure(path, error);
  }
}

const CHUNK_BYTES = 1 << 20;

/**
 * Read buffers of finished streams, kept for the next: fresh memory costs a page fault per page on
 * its first touch, which for a journal of a few megabytes is as much as reading it. Two per stream
 * at most in flight; a few streams' worth is kept.
 */
const spareBuffers: Uint8Array[] = [];
const SPARE_BUFFERS_MAX = 8;

/**
 * A file's bytes as a stream of chunks, for journals of any size; failures as in `readFileBytes`.
 * `listedBytes` is the regular file's size when the caller has just listed it (null: unknown, or
 * not a regular file), which spares a small journal of a fleet a second `stat`.
 * Two buffers take turns: while the consumer works on one chunk, the next is read into the other
 * (the read runs on libuv's thread pool, so disk and audit overlap). A chunk is valid until the
 * next one is requested, so a consumer that keeps one copies it. Fresh buffers per chunk would
 * make a multi-gigabyte audit mostly garbage collection.
 */
export async function* readFileChunks(
  path: string,
  listedBytes: number | null = null,
): AsyncGenerator<Uint8Array> {
  if (isGzipped(path)) {
    yield* readGzippedChunks(path);
    return;
  }
  if (listedBytes === null ? isSmallFile(path) : listedBytes <= CHUNK_BYTES) {
    yield* readSmallFile(path);
    return;
  }
  let file: FileHandle;
  try {
    file = await open(path, "r");
  } catch (error) {
    throw readFailure(path, error);
  }
  let filling = spareBuffers.pop() ?? new Uint8Array(CHUNK_BYTES);
  let spare = spareBuffers.pop() ?? new Uint8Array(CHUNK_BYTES);
  let reading = readChunk(file, filling, path);
  try {
    while (true) {
      const read = await reading;
      if (read === 0) return;
      const chunk = filling.subarray(0, read);
      [filling, spare] = [spare, filling];
      reading = readChunk(file, filling, path);
      yield chunk;
    }
  } finally {
    // A consumer that stops early leaves a read in flight: the file stays open until it is done.
    await reading.catch(() => 0);
    await file.close();
    for (const buffer of [filling, spare]) {
      if (spareBuffers.length < SPARE_BUFFERS_MAX) spareBuffers.push(buffer);
    }
  }
}

/**
 * A regular file of at most one chunk — the journals of a fleet's runs, one file each — is read
 * in one synchronous call: its open, read and close on the thread pool cost ten times the read
 * (2 000 journals of 1 kB: ~0.3 ms each in round trips), and there is no audit to overlap.
 */
function isSmallFile(path: string): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  return stats?.isFile() === true && stats.size <= CHUNK_BYTES;
}

function* readSmallFile(path: string): Generator<Uint8Array> {
  const buffer = spareBuffers.pop() ?? new Uint8Array(CHUNK_BYTES);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw readFailure(path, error);
  }
  try {
    // A read that leaves the buffer short has met the end of the file: asking again for the 0
    // that says so would be a fifth of a small journal's system calls. A file that grew past
    // the chunk since it was measured fills it, and is read on to its end.
    let read: number;
    do {
      read = readSmallChunk(fd, buffer, path);
      if (read > 0) yield buffer.subarray(0, read);
    } while (read === buffer.length);
  } finally {
    closeSync(fd);
    if (spareBuffers.length < SPARE_BUFFERS_MAX) spareBuffers.push(buffer);
  }
}

function readSmallChunk(fd: number, buffer: Uint8Array, path: string): number {
  try {
    return readSync(fd, buffer, 0, buffer.length, null);
  } catch (error) {
    throw readFailure(path, error);
  }
}

async function readChunk(file: FileHandle, buffer: Uint8Array, path: string): Promise<number> {
  try {
    return (await file.read(buffer, 0, buffer.length, null)).bytesRead;
  } catch (error) {
    throw readFailure(path, error);
  }
}

/**
 * A gzipped file's content as a stream of chunks, decompressed as it is read: a journal of any
 * size is never held whole, compressed or not. Node's streams hand over fresh buffers, so unlike
 * the plain reader's, these chunks stay valid; decompression, not the copy, is the cost here.
 */
async function* readGzippedChunks(path: string): AsyncGenerator<Uint8Array> {
  const compressed = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
  compressed.on("error", (error) => gunzip.destroy(readFailure(path, error)));
  compressed.pipe(gunzip);
  try {
    yield* gunzip;
  } catch (error) {
    throw error instanceof JournalError ? error : decompressionFailure(path, error);
  } finally {
    compressed.destroy();
    gunzip.destroy();
  }
}

/** zlib's reasons, in a reader's words: a truncated file says so. */
function decompressionFailure(path: string, error: unknown): JournalError {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === "ERR_BUFFER_TOO_LARGE") return readFailure(path, { code: "ERR_FS_FILE_TOO_LARGE" });
  const reason =
    code === "Z_BUF_ERROR"
      ? "its gzip data ends early (a truncated file)"
      : `it is not gzip data, or is corrupt (${message})`;
  return new JournalError(path, `cannot decompress: ${reason}`);
}

function readFailure(path: string, error: unknown): JournalError {
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = (code === undefined ? undefined : READ_FAILURES[code]) ?? message;
  return new JournalError(path, `cannot read: ${reason}`);
}
