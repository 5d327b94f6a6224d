/**
 * The size up to which a journal is read whole to show its findings in context, and the view of a
 * journal past it (or otherwise unreadable again): its verdicts alone, saying why. Browser-safe,
 * shared by the command line (gather-journal-view.ts) and the in-browser auditor (web/).
 */
import type { AnyReport } from "../models/report-frame.js";
import type { JournalView } from "./views.js";

const MEGABYTE = 2 ** 20;
export const CONTEXT_JOURNAL_BYTES_MAX = 128 * MEGABYTE;

/** Why a journal of `bytes` bytes gets only its verdicts; null when it is read for context. */
export function tooLargeForContext(bytes: number): string | null {
  if (bytes <= CONTEXT_JOURNAL_BYTES_MAX) return null;
  return `The journal is ${Math.ceil(bytes / MEGABYTE)} MB, over the ${CONTEXT_JOURNAL_BYTES_MAX / MEGABYTE} MB up to which statefold reads a journal whole to show its findings in context`;
}

/** The view of a journal whose context cannot be gathered, saying why (a clause, no full stop). */
export function verdictsOnlyView<Report extends AnyReport>(
  audited: { readonly file: string; readonly report: Report },
  why: string,
): JournalView<Report> {
  const { file, report } = audited;
  return {
    file,
    report,
    context: { gathered: false, why: `${why}; only the verdicts are shown.` },
  };
}
