import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { JournalError } from "./errors.js";

/** The operating system's reasons a person meets most, in their words. */
const READ_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
  ERR_FS_FILE_TOO_LARGE: "too large to read whole (the limit is 2 GiB)",
};

/** A whole file's bytes; a failure to read it is a `JournalError` naming the file and the reason. */
export function readFileBytes(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw readFailure(path, error);
  }
}

const CHUNK_BYTES = 1 << 20;

/**
 * A file's bytes as a stream of chunks, for journals of any size; failures as in `readFileBytes`.
 * One buffer is reused: a chunk is valid until the next one is requested, so a consumer that
 * keeps one copies it. Fresh buffers per chunk would make a multi-gigabyte audit mostly garbage
 * collection.
 */
export async function* readFileChunks(path: string): AsyncGenerator<Uint8Array> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "r");
  } catch (error) {
    throw readFailure(path, error);
  }
  const buffer = new Uint8Array(CHUNK_BYTES);
  try {
    while (true) {
      let read: number;
      try {
        ({ bytesRead: read } = await file.read(buffer, 0, CHUNK_BYTES, null));
      } catch (error) {
        throw readFailure(path, error);
      }
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    await file.close();
  }
}

function readFailure(path: string, error: unknown): JournalError {
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = (code === undefined ? undefined : READ_FAILURES[code]) ?? message;
  return new JournalError(path, `cannot read: ${reason}`);
}
