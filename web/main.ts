/**
 * The in-browser auditor's page: pick or drop a journal (and its DAG file), choose its model — one
 * statefold ships, or a model file of one's own — or leave it to the header, audit it in a Web
 * Worker (audit-worker.ts) with a progress bar, then show the HTML report's view of it
 * (src/report) and the report as JSON. Nothing leaves the machine: the page's policy allows no
 * fetch beyond its own files.
 */
import type { Model } from "../src/models/model.js";
import { isRegisteredModelName, MODELS } from "../src/models/registry.js";
import { journalReports } from "../src/models/report-frame.js";
import { sortDropped } from "./dropped.js";
import { MODEL_FILE_GUIDE, modelGuide } from "./model-guides.js";
import type { AuditMessage, AuditRequest, ModelPick } from "./protocol.js";
import { verdictOn } from "./verdict.js";

const journalInput = element<HTMLInputElement>("journal");
const dagInput = element<HTMLInputElement>("dag");
const modelChoice = element<HTMLSelectElement>("model");
const modelFileInput = element<HTMLInputElement>("model-file");
const modelGuides = element<HTMLUListElement>("model-guides");
const dagOwner = element<HTMLElement>("dag-owner");
const drop = element<HTMLElement>("drop");
const status = element<HTMLElement>("status");
const progress = element<HTMLProgressElement>("progress");
const frame = element<HTMLIFrameElement>("report");
const json = element<HTMLDetailsElement>("json");
const jsonText = element<HTMLElement>("report-json");

let journal: File | null = null;
/** The model file picked, chosen by the Model option `MODEL_FILE_CHOICE` once picked. */
let modelFile: File | null = null;
/**
 * The DAG file picked, and the name of the journal it belongs to: the journal picked when it was
 * picked, or, picked before any, the next one. Picking another journal lets it go, so a DAG file
 * picked for one journal never applies to the next (where it would refuse a journal with a header,
 * or judge a headerless one against the wrong DAG).
 */
let dag: { readonly file: File; journal: string | null } | null = null;
let worker: Worker | null = null;

/** The Model option of the model file picked. */
const MODEL_FILE_CHOICE = "file";
const modelFileOption = new Option("the model file picked (none yet)", MODEL_FILE_CHOICE);
modelFileOption.disabled = true;

for (const model of MODELS as readonly Model[]) {
  modelChoice.add(new Option(model.name, model.name));
  modelGuides.append(guideItem(model.name, modelGuide(model)));
}
modelChoice.add(modelFileOption);
modelGuides.append(guideItem("a model file", MODEL_FILE_GUIDE));

journalInput.addEventListener("change", () => pickJournal(journalInput.files?.[0] ?? null));
dagInput.addEventListener("change", () => {
  const file = dagInput.files?.[0] ?? null;
  dag = file === null ? null : { file, journal: journal?.name ?? null };
  showDagOwner();
  start();
});
modelChoice.addEventListener("change", start);
modelFileInput.addEventListener("change", () => {
  chooseModelFile(modelFileInput.files?.[0] ?? null);
  start();
});
drop.addEventListener("dragover", (event) => {
  event.preventDefault();
  drop.classList.add("over");
});
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", async (event) => {
  event.preventDefault();
  drop.classList.remove("over");
  const { modelFiles, others } = await sortDropped(Array.from(event.dataTransfer?.files ?? []));
  if (modelFiles.length + others.length === 0) return;
  if (modelFiles.length > 1 || others.length > 2) {
    showError(
      "Drop one journal, or one journal and its DAG file or its model file (and a model file alone is checked).",
    );
    return;
  }
  const [model] = modelFiles;
  if (model !== undefined) {
    modelFileInput.value = "";
    chooseModelFile(model);
  }
  if (others.length === 0) {
    start();
    return;
  }
  const picked = classify(others);
  journalInput.value = "";
  if (picked.dag !== null) {
    dagInput.value = "";
    dag = { file: picked.dag, journal: null };
  }
  pickJournal(picked.journal);
});

/** A model file picked or dropped is the Model; none picked lets its option go. */
function chooseModelFile(picked: File | null): void {
  modelFile = picked;
  modelFileOption.disabled = picked === null;
  modelFileOption.text =
    picked === null ? "the model file picked (none yet)" : `the model file ${picked.name}`;
  if (picked !== null) modelChoice.value = MODEL_FILE_CHOICE;
  else if (modelChoice.value === MODEL_FILE_CHOICE) modelChoice.value = "";
}

/** A journal picked or dropped: the DAG file picked for another lets go, one waiting for it is its. */
function pickJournal(picked: File | null): void {
  if (dag !== null && dag.journal !== null && dag.journal !== picked?.name) {
    dag = null;
    dagInput.value = "";
  }
  journal = picked;
  if (dag !== null && picked !== null) dag.journal = picked.name;
  showDagOwner();
  start();
}

function showDagOwner(): void {
  if (dag === null) dagOwner.textContent = "";
  else dagOwner.textContent = `for ${dag.journal ?? "the next journal picked"}`;
}

/** Of one or two files dropped, which is the journal and which the DAG file. */
function classify(files: readonly File[]): { journal: File; dag: File | null } {
  const [first, second] = files as [File, File | undefined];
  if (second === undefined) return { journal: first, dag: null };
  const looksLikeDag = (file: File) =>
    /dag/i.test(file.name) && !/\.(jsonl|ndjson|lisp-expr)$/i.test(file.name);
  return looksLikeDag(first) && !looksLikeDag(second)
    ? { journal: second, dag: first }
    : { journal: first, dag: second };
}

function start(): void {
  const model = chosenModel();
  if (journal === null) {
    // A model file picked before any journal is checked at once, so a refusal is seen first.
    if (model !== null && "file" in model) {
      const { name } = model.file;
      ask(name, { journal: null, dag: null, model }, `Checking the model file ${name}…`);
    }
    return;
  }
  const against = dag === null ? "" : ` against ${dag.file.name}`;
  ask(
    journal.name,
    { journal, dag: dag?.file ?? null, model },
    `Auditing ${journal.name}${against}…`,
  );
  progress.hidden = false;
  progress.max = Math.max(journal.size, 1);
  progress.value = 0;
}

/**
 * Asks a fresh worker, in place of any still working, saying `doing` meanwhile: to audit the
 * journal, or to check the model file alone. Its answers are shown under `name`.
 */
function ask(name: string, request: AuditRequest, doing: string): void {
  worker?.terminate();
  worker = new Worker(new URL("./audit-worker.ts", import.meta.url), { type: "module" });
  const current = worker;
  const task = request.journal === null ? "check" : "audit";
  setState(request.journal === null ? "checking" : "auditing");
  frame.hidden = true;
  json.hidden = true;
  progress.hidden = true;
  status.className = "";
  status.textContent = doing;
  current.onmessage = (event: MessageEvent<AuditMessage>) => {
    if (current === worker) show(name, event.data);
  };
  current.onerror = (event) => showError(`The ${task} stopped: ${event.message}`);
  current.postMessage(request);
}

function show(name: string, message: AuditMessage): void {
  switch (message.type) {
    case "progress":
      progress.max = Math.max(message.total, 1);
      progress.value = message.bytes;
      status.textContent = `Auditing ${name}: ${megabytes(message.bytes)} of ${megabytes(message.total)} read${message.events === null ? "" : `, ${message.events.toLocaleString("en")} events`}…`;
      return;
    case "context":
      status.textContent = `Audited ${name}; gathering the findings in context…`;
      return;
    case "done": {
      progress.hidden = true;
      const { report } = message;
      const reports = journalReports(report);
      const { verdict, events } = verdictOn(reports);
      const journals = reports.length === 1 ? "" : `${reports.length} journals, `;
      status.textContent = `${name}: ${verdict} (${journals}${events.toLocaleString("en")} events, audited in ${(message.auditMs / 1000).toFixed(1)} s).`;
      jsonText.textContent = JSON.stringify(report, null, 2);
      json.hidden = false;
      frame.onload = () => {
        const height = frame.contentDocument?.documentElement.scrollHeight;
        if (height !== undefined) frame.style.height = `${height + 16}px`;
        setState("done");
      };
      frame.hidden = false;
      frame.srcdoc = message.html;
      return;
    }
    case "model":
      status.textContent = `${name} states the model "${message.name}". ${message.journals} Pick a journal of it.`;
      setState("model-checked");
      return;
    case "unreadable":
      showError(`Cannot audit this: ${message.message}`);
      return;
    case "failed":
      showError(`The audit failed (a bug in statefold): ${message.message}`);
      return;
    default: {
      const unreachable: never = message;
      throw new Error(`unknown message ${JSON.stringify(unreachable)}`);
    }
  }
}

/** A model's line of the hint: its name, then its guide with `code` spans shown as code. */
function guideItem(name: string, guide: string): HTMLLIElement {
  const item = document.createElement("li");
  item.dataset.model = name;
  const title = document.createElement("strong");
  title.textContent = name;
  item.append(title, ": ");
  guide.split("`").forEach((text, index) => {
    if (index % 2 === 0) {
      item.append(text);
      return;
    }
    const code = document.createElement("code");
    code.textContent = text;
    item.append(code);
  });
  return item;
}

/** The model picked, or null for the one the header names (the empty option). */
function chosenModel(): ModelPick | null {
  const { value } = modelChoice;
  if (value === MODEL_FILE_CHOICE && modelFile !== null) return { file: modelFile };
  return isRegisteredModelName(value) ? { name: value } : null;
}

function showError(text: string): void {
  worker?.terminate();
  worker = null;
  progress.hidden = true;
  frame.hidden = true;
  json.hidden = true;
  status.className = "error";
  status.textContent = text;
  setState("error");
}

/** For tests and scripts: idle, auditing, done or error. */
function setState(state: string): void {
  document.body.dataset.state = state;
}

function megabytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}
