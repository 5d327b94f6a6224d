/**
 * A dag journal in the page, against the DAG file picked beside it if any: a JSONL journal
 * streams through the dag kernel, counting events as it goes; a .lisp-expr journal is read whole,
 * as the command line reads it, and not read twice for its view.
 */
import { loadEngine, type WasmEngine } from "../../bindings/dag/engine.js";
import { chooseDag } from "../../src/journal/dag/choose-dag.js";
import { parseDagFile } from "../../src/journal/dag/dag-file.js";
import { dagOfHeader } from "../../src/journal/dag/header.js";
import { readLispExprJournal } from "../../src/journal/dag/lisp-expr.js";
import type { Journal } from "../../src/journal/journal.js";
import { readJsonlJournal } from "../../src/journal/jsonl.js";
import { contentName } from "../../src/journal/read-file-bytes.js";
import type { Dag } from "../../src/models/dag/dag.js";
import type { Report } from "../../src/models/dag/report.js";
import type { KernelOptions } from "../../src/models/model.js";
import {
  bytesOf,
  journalBytes,
  journalChunks,
  kernelBuild,
  type PageAudit,
  type Post,
  progressDue,
} from "../page-audit.js";

/** The DAG file picked, parsed, and its name. */
interface GivenDag {
  readonly dag: Dag;
  readonly name: string;
}

export const dagPageAudit: PageAudit<Report> = {
  async audit({ journal, dag: dagFile }, post) {
    const wasm = await loadEngine(kernel());
    const given =
      dagFile === null
        ? null
        : { dag: parseDagFile(await bytesOf(dagFile), dagFile.name), name: dagFile.name };
    if (isLispExpr(journal)) {
      // The .lisp-expr reader takes the journal whole, as the command line's does.
      const read = readLispExprJournal(await journalBytes(journal), journal.name);
      post({ type: "progress", bytes: journal.size, total: journal.size, events: null });
      const dag = chooseDag(journal.name, null, given, read.missingHeader);
      const report = wasm.audit(dag, read.events, { lines: read.lines, tornTail: read.tornTail });
      return { report, readAgain: async () => ({ ...read, fields: dag }) };
    }
    const report = await streamJsonl(wasm, journal, given, post);
    return { report, readAgain: async () => readJsonlAgain(journal, given) };
  },
  kernel,
  explain({ message, request }) {
    if (!message.includes("no DAG") || isLispExpr(request.journal)) return null;
    const otherModel =
      request.model === null ? " (or, for a journal of another model, pick its Model)" : "";
    return `${message}. A JSONL journal is one JSON object per line; without a DAG file its first line must be the header${otherModel}.`;
  },
};

// Literal `new URL(…, import.meta.url)`s, so Vite emits each kernel as an asset.
function kernel(): KernelOptions {
  return kernelBuild(
    new URL("../../build/statefold.simd.wasm", import.meta.url),
    new URL("../../build/statefold.wasm", import.meta.url),
  );
}

async function streamJsonl(
  wasm: WasmEngine,
  journal: File,
  given: GivenDag | null,
  post: Post,
): Promise<Report> {
  const auditor = wasm.openAuditor(given?.dag ?? null, {
    file: journal.name,
    dagName: given?.name,
  });
  const total = journal.size;
  let bytes = 0;
  let posted = 0;
  for await (const chunk of journalChunks(journal, (read) => (bytes = read))) {
    auditor.write(chunk);
    const now = performance.now();
    if (progressDue(posted, now)) {
      posted = now;
      post({ type: "progress", bytes, total, events: wasm.eventsSoFar() });
    }
  }
  const report = auditor.finish();
  post({ type: "progress", bytes, total, events: report.events });
  return report;
}

/** The JSONL journal read again, with the DAG it was audited against. */
async function readJsonlAgain(
  journal: File,
  given: GivenDag | null,
): Promise<Journal & { readonly fields: Dag }> {
  const read = readJsonlJournal(await journalBytes(journal), journal.name);
  const header = dagOfHeader(read.header);
  return { ...read, fields: chooseDag(journal.name, header, given, read.missingHeader) };
}

function isLispExpr(file: File): boolean {
  return contentName(file.name).endsWith(".lisp-expr");
}
