import { readFileSync } from "node:fs";
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
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = (code === undefined ? undefined : READ_FAILURES[code]) ?? message;
    throw new JournalError(path, `cannot read: ${reason}`);
  }
}
