/**
 * The plain-JavaScript streaming auditor: the competitor the WASM kernel is measured against, and
 * held to the reference by test/bench/js-auditor.test.ts. It gives the reference's report for a
 * JSONL journal — integrity, the six invariants with the first failing index and line, legality
 * with reasons, the torn tail, the final counts — in one pass over the bytes, with a byte scanner
 * and typed arrays: no string per line, no `JSON.parse` per line.
 *
 * The header line is read as the WASM engine's bindings read it (the reference reader on the
 * first line, then `chooseDag`), and like them the auditor keeps the last header's DAG, so
 * auditing one campaign's journals again parses its DAG once.
 */

import { chunksOf, type JournalBytes, UNNAMED_JOURNAL } from "../../../src/engine.js";
import { chooseDag } from "../../../src/journal/dag/choose-dag.js";
import { dagOfHeader } from "../../../src/journal/dag/header.js";
import { readJsonlJournal } from "../../../src/journal/jsonl.js";
import { missingHeader } from "../../../src/journal/missing-header.js";
import type { Dag } from "../../../src/models/dag/dag.js";
import { type AuditBytesOptions, givenDag } from "../../../src/models/dag/engine.js";
import type { Report } from "../../../src/models/dag/report.js";
import { JsonlAudit } from "./jsonl-audit.js";
import { NodeStates, PreparedDag } from "./node-states.js";
import { buildReport } from "./report.js";

interface ByteAuditor {
  auditBytes(dag: Dag | null, bytes: JournalBytes, options?: AuditBytesOptions): Promise<Report>;
}

const LF = 0x0a;

export class JsAuditor implements ByteAuditor {
  private prepared: PreparedDag | null = null;
  private lastHeader: { readonly line: Uint8Array; readonly dag: Dag } | null = null;

  async auditBytes(
    dag: Dag | null,
    bytes: JournalBytes,
    options: AuditBytesOptions = {},
  ): Promise<Report> {
    const file = options.file ?? UNNAMED_JOURNAL;
    const chunks = chunksOf(bytes);
    const { read, firstLine } = await readThroughFirstLine(chunks, bytes instanceof Uint8Array);
    const headerDag = this.headerDag(firstLine, file);
    const missing = headerDag === null ? missingHeader(firstLine) : null;
    const chosen = chooseDag(file, headerDag, givenDag(dag, options), missing);
    if (this.prepared?.dag !== chosen) this.prepared = new PreparedDag(chosen);
    const audit = new JsonlAudit(this.prepared, new NodeStates(this.prepared), headerDag !== null);
    for (const chunk of read) audit.feed(chunk);
    for await (const chunk of chunks) audit.feed(chunk);
    audit.finish();
    return buildReport(chosen, audit);
  }

  private headerDag(firstLine: Uint8Array, file: string): Dag | null {
    if (this.lastHeader !== null && sameBytes(this.lastHeader.line, firstLine)) {
      return this.lastHeader.dag;
    }
    const dag = dagOfHeader(readJsonlJournal(firstLine, file).header);
    if (dag !== null) this.lastHeader = { line: firstLine.slice(), dag };
    return dag;
  }
}

/**
 * Reads chunks until they hold line 1 with its line feed (or the input ends): only line 1 can be
 * the header (docs/journals.md, "The header"), and it is known before the first event. Returns
 * the chunks read (copied when the stream may reuse its buffer) and the bytes through that line.
 */
async function readThroughFirstLine(
  chunks: AsyncGenerator<Uint8Array>,
  chunksStayValid: boolean,
): Promise<{ read: Uint8Array[]; firstLine: Uint8Array }> {
  const read: Uint8Array[] = [];
  let length = 0;
  let firstLineEnd = -1;
  while (firstLineEnd < 0) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = next.value;
    const lineFeed = chunk.indexOf(LF);
    if (lineFeed >= 0) firstLineEnd = length + lineFeed + 1;
    read.push(chunksStayValid ? chunk : chunk.slice());
    length += chunk.length;
  }
  const through = firstLineEnd < 0 ? length : firstLineEnd;
  const firstLine = new Uint8Array(through);
  let at = 0;
  for (const chunk of read) {
    if (at >= through) break;
    const part = chunk.subarray(0, through - at);
    firstLine.set(part, at);
    at += part.length;
  }
  return { read, firstLine };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
