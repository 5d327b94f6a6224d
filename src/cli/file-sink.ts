import { open } from "node:fs/promises";
import { JournalError } from "../journal/errors.js";

/** The operating system's reasons a person meets most, in their words. */
const WRITE_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: "no such directory",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
};

export interface FileSink {
  /** Resolves once the text (or bytes) is written: awaiting it paces the writer to the disk. */
  readonly write: (piece: string | Uint8Array) => Promise<void>;
  readonly close: () => Promise<void>;
}

/** A file opened for writing (created or truncated); failures name the file and the reason. */
export async function openFileSink(path: string): Promise<FileSink> {
  const handle = await open(path, "w").catch((error: unknown) => {
    throw writeFailure(path, error);
  });
  return {
    write: async (piece) => {
      // Two calls: one overload of `write` takes text, another bytes, none either.
      const written = typeof piece === "string" ? handle.write(piece) : handle.write(piece);
      await written.catch((error: unknown) => {
        throw writeFailure(path, error);
      });
    },
    close: () => handle.close(),
  };
}

function writeFailure(path: string, error: unknown): JournalError {
  return new JournalError(path, `cannot write: ${writeFailureReason(error)}`);
}

/** Why a write failed, in a person's words where the reason is a common one. */
export function writeFailureReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return (code === undefined ? undefined : WRITE_FAILURES[code]) ?? message;
}
