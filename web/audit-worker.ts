/**
 * The page's audit, off the main thread. The journal streams from the `File` through its model's
 * WASM engine chunk by chunk (`File.stream()`), so memory stays bounded whatever its size;
 * progress is posted as it goes (web/<model>/page-audit.ts). The findings' context is then
 * gathered by the model's view (src/report/model-html.ts) from the `File` read again, as
 * `statefold audit --html` reads a journal file again, under the same size bound. The model
 * picked on the page, or else the header's, decides which model audits the journal by the
 * command line's rule for `--model` (src/journal/choose-model.ts).
 */

import { chooseModel } from "../src/journal/choose-model.js";
import { JournalError } from "../src/journal/errors.js";
import { ownFormatModel, ownFormatOf } from "../src/journal/model-inputs.js";
import { peekModel } from "../src/journal/peek-model.js";
import { useCompiledModel } from "../src/models/data/loaded.js";
import { parseModelFile } from "../src/models/data/model-text.js";
import type { Model } from "../src/models/model.js";
import {
  type ModelAnswer,
  type ModelName,
  type ModelReport,
  modelNamed,
} from "../src/models/registry.js";
import { journalReports } from "../src/models/report-frame.js";
import { quoteLines } from "../src/report/quote-lines.js";
import { renderHtmlReport } from "../src/report/render-html-report.js";
import { tooLargeForContext, verdictsOnlyView } from "../src/report/verdicts-only-view.js";
import type { JournalView } from "../src/report/views.js";
import { isDataModel } from "./data/page-audit.js";
import { journalShape } from "./model-guides.js";
import { type AuditedInPage, bytesOf, journalChunks, type PageAudit } from "./page-audit.js";
import { pageAuditOf } from "./page-audits.js";
import type { AuditMessage, AuditRequest, ModelPick } from "./protocol.js";

/** How the page's model choice is named in messages, where the command line says `--model`. */
const MODEL_CHOICE = "the page's Model";

const scope = globalThis as unknown as {
  postMessage(message: AuditMessage): void;
  onmessage: ((event: MessageEvent<AuditRequest>) => void) | null;
};

scope.onmessage = (event) => {
  audit(event.data).then(scope.postMessage, (error: unknown) => {
    if (error instanceof JournalError) {
      scope.postMessage({ type: "unreadable", message: inPageTerms(error.message) });
    } else {
      scope.postMessage({ type: "failed", message: String((error as Error)?.stack ?? error) });
    }
  });
};

async function audit(request: AuditRequest): Promise<AuditMessage> {
  const given = request.model === null ? null : await pickedModel(request.model);
  const { journal } = request;
  if (journal === null) {
    if (given === null || !isDataModel(given)) throw new Error("nothing to audit or check");
    return { type: "model", name: given.name, journals: journalShape(given.compiled.source) };
  }
  const model = await modelOf(journal, given);
  const page = pageAuditOf(model);
  const started = performance.now();
  let audited: AuditedInPage<ModelAnswer>;
  try {
    audited = await page.audit({ ...request, journal }, scope.postMessage);
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    const message = inPageTerms(error.message);
    const explained = page.explain?.({
      message,
      detail: error.detail,
      request: { ...request, journal },
    });
    return { type: "unreadable", message: explained ?? message };
  }
  const auditMs = performance.now() - started;
  scope.postMessage({ type: "context" });
  const views = await gatherViews(model, page, journal, audited);
  const html = renderHtmlReport(views, { strict: false, generator: "statefold in the browser" });
  return { type: "done", report: audited.report, html, auditMs };
}

/**
 * The model the page's Model names, or the one a model file picked states: checked and compiled
 * as `--model FILE` does (docs/models/data.md, "Checking the file"), then found by its name, as a
 * header may name it.
 */
async function pickedModel(pick: ModelPick): Promise<Model> {
  if ("name" in pick) return modelNamed(pick.name);
  const { file } = pick;
  return modelNamed(useCompiledModel(parseModelFile(await bytesOf(file), file.name), file.name));
}

/**
 * The model picked on the page or named by the header: both, and different, is an error naming
 * both. A journal that is a JSON document has no header, so it is not peeked at: its first line
 * may be the whole document.
 */
async function modelOf(journal: File, given: Model | null): Promise<Model> {
  const picked = given?.name as ModelName | undefined;
  const own = ownFormatOf(journal.name);
  if (own !== null) return modelNamed(ownFormatModel(journal.name, own, picked, MODEL_CHOICE));
  if (given?.commandLine.readsDocuments === true) return given;
  const header = await peekModel(journalChunks(journal), journal.name);
  return modelNamed(chooseModel(journal.name, header.model, picked, MODEL_CHOICE));
}

/**
 * The report's view of each journal the file holds (one, or a split stream's), unless the file is
 * too large: read again, once, for its model's view.
 */
async function gatherViews(
  model: Model,
  page: PageAudit<ModelReport>,
  journal: File,
  { report, readAgain }: AuditedInPage<ModelAnswer>,
): Promise<JournalView[]> {
  const audited = journalReports(report).map((each) => ({ file: journal.name, report: each }));
  const verdictsOnly = (why: string) => audited.map((each) => verdictsOnlyView(each, why));
  const tooLarge = tooLargeForContext(journal.size);
  if (tooLarge !== null) return verdictsOnly(tooLarge);
  try {
    const read = await readAgain();
    const views: JournalView[] = [];
    for (const each of audited) {
      // The model's view carries the report it is given, this journal's.
      const view = await model.html.gatherView({
        ...each,
        journal: read,
        quote: (wanted) => quoteLines(journalChunks(journal), wanted),
        kernel: page.kernel(),
      });
      views.push(view as JournalView);
    }
    return views;
  } catch (error) {
    if (!(error instanceof JournalError)) throw error;
    return verdictsOnly(`Reading the journal again failed (${error.message})`);
  }
}

/** The reader's message in the page's terms: a DAG file is picked here, a model is the page's Model. */
function inPageTerms(message: string): string {
  return message
    .replace("pass --dag FILE", "pick its DAG file too")
    .replace(/`?--model (\w+)`?/g, "Model: $1");
}
