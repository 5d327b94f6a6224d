/**
 * The page's audit, off the main thread. The journal streams from the `File` through the WASM
 * engine chunk by chunk (`File.stream()`), so memory stays bounded whatever its size; progress is
 * posted as it goes. The findings' context is then gathered by reading the `File` again, as
 * `statefold audit --html` reads a journal file again, under the same size bound; a .lisp-expr
 * journal, read whole to be audited, is not read twice. The model picked on the page, or else
 * the header's, decides which model audits the journal, and on which kernel, by the command
 * line's rule for `--model` (src/journal/choose-model.ts).
 */

import { loadExecutiveEngine, type WasmExecutiveEngine } from "../bindings/executive/index.js";
import { loadEngine, supportsSimd, type WasmEngine } from "../bindings/index.js";
import { loadOperationsEngine, type WasmOperationsEngine } from "../bindings/operations/index.js";
import { chooseModel } from "../src/journal/choose-model.js";
import { chooseDag } from "../src/journal/dag/choose-dag.js";
import { parseDagFile } from "../src/journal/dag/dag-file.js";
import { dagOfHeader } from "../src/journal/dag/header.js";
import { readLispExprJournal } from "../src/journal/dag/lisp-expr.js";
import { JournalError } from "../src/journal/errors.js";
import type { Journal } from "../src/journal/journal.js";
import { readJsonlJournal } from "../src/journal/jsonl.js";
import { peekModel } from "../src/journal/peek-model.js";
import type { Dag } from "../src/models/dag/dag.js";
import type { Report } from "../src/models/dag/report.js";
import type { ExecutiveReport } from "../src/models/executive/audit.js";
import { executiveRunOf } from "../src/models/executive/engine.js";
import type { OperationsReport } from "../src/models/operations/index.js";
import type { ModelName } from "../src/models/registry.js";
import { buildJournalView, linesToQuote } from "../src/report/dag/build-journal-view.js";
import { buildExecutiveView } from "../src/report/executive/view.js";
import { buildOperationsView, operationsLinesToQuote } from "../src/report/operations/view.js";
import { quoteLines } from "../src/report/quote-lines.js";
import { renderHtmlReport } from "../src/report/render-html-report.js";
import { tooLargeForContext, verdictsOnlyView } from "../src/report/verdicts-only-view.js";
import type { JournalView } from "../src/report/views.js";
import type { AuditMessage, AuditRequest } from "./protocol.js";

/** How the page's model choice is named in messages, where the command line says `--model`. */
const MODEL_CHOICE = "the page's Model";

/** How the executive engines refuse a journal without its run's spec and budget (executiveRunOf). */
const EXECUTIVE_RUN_MISSING = 'expected a header with the run\'s "spec" and "budget"';

/** At most this many progress messages a second. */
const PROGRESS_INTERVAL_MS = 50;

const scope = globalThis as unknown as {
  postMessage(message: AuditMessage): void;
  onmessage: ((event: MessageEvent<AuditRequest>) => void) | null;
};

let engine: Promise<WasmEngine> | undefined;
let operationsEngine: Promise<WasmOperationsEngine> | undefined;
let executiveEngine: Promise<WasmExecutiveEngine> | undefined;

/** The build the browser runs: the SIMD module where the engine validates one. */
function ofFlavour<E>(
  load: (options: { flavour: "simd" | "scalar"; wasm: URL }) => Promise<E>,
  simd: URL,
  scalar: URL,
): Promise<E> {
  return supportsSimd()
    ? load({ flavour: "simd", wasm: simd })
    : load({ flavour: "scalar", wasm: scalar });
}

// Literal `new URL(…, import.meta.url)`s, so Vite emits each kernel as an asset.
function wasmEngine(): Promise<WasmEngine> {
  engine ??= ofFlavour(
    loadEngine,
    new URL("../build/statefold.simd.wasm", import.meta.url),
    new URL("../build/statefold.wasm", import.meta.url),
  );
  return engine;
}

function wasmOperationsEngine(): Promise<WasmOperationsEngine> {
  operationsEngine ??= ofFlavour(
    loadOperationsEngine,
    new URL("../build/statefold-operations.simd.wasm", import.meta.url),
    new URL("../build/statefold-operations.wasm", import.meta.url),
  );
  return operationsEngine;
}

function wasmExecutiveEngine(): Promise<WasmExecutiveEngine> {
  executiveEngine ??= ofFlavour(
    loadExecutiveEngine,
    new URL("../build/statefold-executive.simd.wasm", import.meta.url),
    new URL("../build/statefold-executive.wasm", import.meta.url),
  );
  return executiveEngine;
}

scope.onmessage = (event) => {
  audit(event.data).then(scope.postMessage, (error: unknown) => {
    if (error instanceof JournalError) {
      scope.postMessage({ type: "unreadable", message: explain(error, event.data) });
    } else {
      scope.postMessage({ type: "failed", message: String((error as Error)?.stack ?? error) });
    }
  });
};

async function audit(request: AuditRequest): Promise<AuditMessage> {
  const model = await modelOf(request);
  switch (model) {
    case "dag":
      return auditDag(request);
    case "operations":
      return auditOperations(request);
    case "executive":
      return auditExecutive(request);
    default: {
      const unreachable: never = model;
      return unreachable;
    }
  }
}

/** The model picked on the page or named by the header: both, and different, is an error naming both. */
async function modelOf({ journal, model }: AuditRequest): Promise<ModelName> {
  const picked = model ?? undefined;
  if (isLispExpr(journal)) {
    return chooseModel(
      journal.name,
      "dag",
      picked,
      `${MODEL_CHOICE}; a .lisp-expr journal is a dag journal`,
    );
  }
  const header = await peekModel(chunksOf(journal), journal.name);
  return chooseModel(journal.name, header.model, picked, MODEL_CHOICE);
}

/**
 * An operations journal, streamed through the operations kernel whatever its size; then, up to
 * the context bound, read again for its findings in context as `statefold audit --html` shows
 * them.
 */
async function auditOperations({ journal, dag }: AuditRequest): Promise<AuditMessage> {
  if (dag !== null) {
    throw new JournalError(
      dag.name,
      "a DAG file is for dag journals; an operations journal needs none",
    );
  }
  const started = performance.now();
  const wasm = await wasmOperationsEngine();
  const report = await wasm.auditBytes(withProgress(journal), { file: journal.name });
  scope.postMessage({
    type: "progress",
    bytes: journal.size,
    total: journal.size,
    events: report.events,
  });
  const auditMs = performance.now() - started;
  scope.postMessage({ type: "context" });
  const view = await gatherOperationsView(journal, report);
  const html = renderHtmlReport([view], { strict: false, generator: "statefold in the browser" });
  return { type: "done", report, html, auditMs };
}

/** The journal's chunks, posting how far the audit has read (the kernel counts records at the end). */
async function* withProgress(journal: File): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  let posted = 0;
  for await (const chunk of chunksOf(journal)) {
    yield chunk;
    bytes += chunk.length;
    const now = performance.now();
    if (now - posted >= PROGRESS_INTERVAL_MS) {
      posted = now;
      scope.postMessage({ type: "progress", bytes, total: journal.size, events: null });
    }
  }
}

async function gatherOperationsView(journal: File, report: OperationsReport): Promise<JournalView> {
  const audited = { file: journal.name, report };
  const tooLarge = tooLargeForContext(journal.size);
  if (tooLarge !== null) return verdictsOnlyView(audited, tooLarge);
  try {
    const bytes = await bytesOf(journal);
    const { events: records, lines } = readJsonlJournal(bytes, journal.name, "operations");
    const quoted = await quoteLines(chunksOf(journal), operationsLinesToQuote(report, lines));
    return buildOperationsView({ ...audited, records, lines }, quoted);
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return verdictsOnlyView(audited, `Reading the journal again failed (${error.message})`);
  }
}

/** An executive journal, replayed on the executive kernel; the view replays it again for its frames. */
async function auditExecutive({ journal, dag }: AuditRequest): Promise<AuditMessage> {
  if (dag !== null) {
    throw new JournalError(
      dag.name,
      "a DAG file is for dag journals; an executive journal needs none",
    );
  }
  const started = performance.now();
  const engine = await wasmExecutiveEngine();
  const report = await engine.auditBytes(withProgress(journal), { file: journal.name });
  const auditMs = performance.now() - started;
  scope.postMessage({ type: "context" });
  const view = await gatherExecutiveView(journal, report);
  const html = renderHtmlReport([view], { strict: false, generator: "statefold in the browser" });
  return { type: "done", report, html, auditMs };
}

async function gatherExecutiveView(journal: File, report: ExecutiveReport): Promise<JournalView> {
  const audited = { file: journal.name, report };
  const tooLarge = tooLargeForContext(journal.size);
  if (tooLarge !== null) return verdictsOnlyView(audited, tooLarge);
  try {
    const { header, events } = readJsonlJournal(await bytesOf(journal), journal.name, "executive");
    return buildExecutiveView(audited, executiveRunOf(header, journal.name), events);
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return verdictsOnlyView(audited, `Reading the journal again failed (${error.message})`);
  }
}

async function auditDag({ journal, dag: dagFile }: AuditRequest): Promise<AuditMessage> {
  const started = performance.now();
  const wasm = await wasmEngine();
  const given =
    dagFile === null
      ? null
      : { dag: parseDagFile(await bytesOf(dagFile), dagFile.name), name: dagFile.name };
  let report: Report;
  let lispExpr: ChosenJournal | null = null;
  if (isLispExpr(journal)) {
    // The .lisp-expr reader takes the journal whole, as the command line's does.
    const read = readLispExprJournal(await bytesOf(journal), journal.name);
    scope.postMessage({ type: "progress", bytes: journal.size, total: journal.size, events: null });
    lispExpr = {
      read,
      dag: chooseDag(journal.name, dagOfHeader(read.header), given, read.missingHeader),
    };
    report = wasm.audit(lispExpr.dag, read.events, { lines: read.lines, tornTail: read.tornTail });
  } else {
    report = await streamJsonl(wasm, journal, given?.dag ?? null, given?.name);
  }
  const auditMs = performance.now() - started;
  scope.postMessage({ type: "context" });
  const view = await gatherView(wasm, journal, report, given, lispExpr);
  const html = renderHtmlReport([view], {
    strict: false,
    generator: "statefold in the browser",
  });
  return { type: "done", report, html, auditMs };
}

async function streamJsonl(
  wasm: WasmEngine,
  journal: File,
  dag: Dag | null,
  dagName: string | undefined,
): Promise<Report> {
  const auditor = wasm.openAuditor(dag, { file: journal.name, dagName });
  const total = journal.size;
  let bytes = 0;
  let posted = 0;
  for await (const chunk of chunksOf(journal)) {
    auditor.write(chunk);
    bytes += chunk.length;
    const now = performance.now();
    if (now - posted >= PROGRESS_INTERVAL_MS) {
      posted = now;
      scope.postMessage({ type: "progress", bytes, total, events: wasm.eventsSoFar() });
    }
  }
  const report = auditor.finish();
  scope.postMessage({ type: "progress", bytes, total, events: report.events });
  return report;
}

/** A journal as read, with the DAG it is audited against. */
interface ChosenJournal {
  readonly read: Journal;
  readonly dag: Dag;
}

/**
 * The report's view of the journal, unless it is too large: a JSONL journal is read again for
 * context, a .lisp-expr journal's reading is `lispExpr`.
 */
async function gatherView(
  wasm: WasmEngine,
  journal: File,
  report: Report,
  given: { dag: Dag; name: string } | null,
  lispExpr: ChosenJournal | null,
): Promise<JournalView> {
  const audited = { file: journal.name, report };
  const tooLarge = tooLargeForContext(journal.size);
  if (tooLarge !== null) return verdictsOnlyView(audited, tooLarge);
  try {
    const { read, dag } = lispExpr ?? (await readJsonlAgain(journal, given));
    const quoted = await quoteLines(chunksOf(journal), linesToQuote(report, read.lines));
    const { events, lines } = read;
    return buildJournalView({ file: journal.name, report, dag, events, lines }, quoted, wasm);
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return verdictsOnlyView(audited, `Reading the journal again failed (${error.message})`);
  }
}

async function readJsonlAgain(
  journal: File,
  given: { dag: Dag; name: string } | null,
): Promise<ChosenJournal> {
  const read = readJsonlJournal(await bytesOf(journal), journal.name);
  return {
    read,
    dag: chooseDag(journal.name, dagOfHeader(read.header), given, read.missingHeader),
  };
}

async function* chunksOf(file: File): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}

function isLispExpr(file: File): boolean {
  return file.name.endsWith(".lisp-expr");
}

/**
 * The reader's message, in the page's terms (a DAG file is picked here, not passed as --dag; the
 * model is the page's Model, not --model), with what the journal lacks when it has no header.
 */
function explain(error: JournalError, request: AuditRequest): string {
  const message = error.message
    .replace("pass --dag FILE", "pick its DAG file too")
    .replace(/`?--model (\w+)`?/g, "Model: $1");
  if (message.includes("no DAG") && !isLispExpr(request.journal)) {
    const otherModel =
      request.model === null ? " (or, for a journal of another model, pick its Model)" : "";
    return `${message}. A JSONL journal is one JSON object per line; without a DAG file its first line must be the header${otherModel}.`;
  }
  if (error.detail.startsWith(EXECUTIVE_RUN_MISSING)) {
    return `${message}. Its first line must be the header {"statefold":"journal","version":1,"model":"executive","spec":{…},"budget":{…}}, as \`statefold executive SPEC BUDGET\` writes it: neither this page nor \`statefold audit\` takes the spec and budget from elsewhere.`;
  }
  return message;
}
