/**
 * What auditing one journal came to, in a shape that crosses a worker thread: its report, or the
 * one-line reason it could not be read (bad input is an answer, not a crash). Any other failure
 * is a bug in statefold and is thrown.
 */
import { JournalError } from "../journal/errors.js";
import type { ModelReport } from "../models/registry.js";
import { type AuditOptions, type AuditRun, auditJournalFile, auditJsonlStream } from "./engine.js";

export type JournalOutcome =
  | { readonly file: string; readonly report: ModelReport; readonly bytesRead: number }
  | { readonly file: string; readonly unreadable: string };

export async function auditFileOutcome(
  path: string,
  listedBytes: number | null,
  options: AuditOptions,
): Promise<JournalOutcome> {
  return outcomeOf(path, () => auditJournalFile(path, options, listedBytes));
}

export async function auditStreamOutcome(
  file: string,
  chunks: AsyncIterable<Uint8Array>,
  options: AuditOptions,
): Promise<JournalOutcome> {
  return outcomeOf(file, () => auditJsonlStream(file, chunks, options));
}

async function outcomeOf(file: string, audit: () => Promise<AuditRun>): Promise<JournalOutcome> {
  try {
    return await audit();
  } catch (error) {
    if (error instanceof JournalError) return { file, unreadable: error.message };
    throw error;
  }
}
