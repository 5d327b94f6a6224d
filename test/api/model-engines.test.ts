/**
 * The model contract's one auditing API (docs/api.md, "Streaming and resuming"): every registered
 * model's reference and kernel engines take `auditBytes`, `openAuditor` and `resume`, and give the
 * same report whichever is used, on every bundled example journal of that model. A reference
 * engine resumes from its own snapshots and from a kernel's (it checks the prefix and audits the
 * journal again); a kernel refuses a reference snapshot, which holds no state.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ModelEngine } from "../../src/engine.js";
import { readJsonlHeaderModel } from "../../src/journal/jsonl.js";
import type { DataModel } from "../../src/models/data/model.js";
import type { Model } from "../../src/models/model.js";
import { DEFAULT_MODEL, MODELS } from "../../src/models/registry.js";

const EXAMPLES = join(import.meta.dirname, "../../examples");

/** The journals of examples/data are audited with the model files beside them, not a registered model. */
const MODEL_FILE_EXAMPLES = join(EXAMPLES, "data");

/**
 * Every bundled JSONL journal whose header names `model` (or none, for the default model), and
 * the documents in the folder named after it (the histories of a shipped model defined by data).
 */
function examplesOf(model: Model): { name: string; bytes: Uint8Array }[] {
  const journals: { name: string; bytes: Uint8Array }[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (path !== MODEL_FILE_EXAMPLES) walk(path);
      } else if (
        entry.name.endsWith(".json") &&
        journalsAreDocuments(model) &&
        folder === join(EXAMPLES, model.name)
      ) {
        journals.push({ name: path, bytes: new Uint8Array(readFileSync(path)) });
      } else if (entry.name.endsWith(".jsonl")) {
        const bytes = new Uint8Array(readFileSync(path));
        const end = bytes.indexOf(0x0a);
        const named = readJsonlHeaderModel(bytes.subarray(0, end < 0 ? bytes.length : end), path);
        if ((named ?? DEFAULT_MODEL) === model.name) journals.push({ name: path, bytes });
      }
    }
  };
  walk(EXAMPLES);
  return journals;
}

type AnyEngine = ModelEngine<unknown>;

/** A document is written whole, not appended to: neither engine snapshots one. */
const NO_DOCUMENT_SNAPSHOTS =
  /^j: snapshots of a journal that is a JSON document are not taken: a document is audited whole$/;

/** Whether the model is defined by data and reads JSON documents rather than JSONL. */
function journalsAreDocuments(model: Model): boolean {
  const { compiled } = model as Partial<DataModel>;
  return compiled !== undefined && !("lines" in compiled.source);
}

function streamed(engine: AnyEngine, bytes: Uint8Array, chunk: number): unknown {
  const auditor = engine.openAuditor({ file: "j" });
  for (let at = 0; at < bytes.length; at += chunk) auditor.write(bytes.subarray(at, at + chunk));
  return auditor.finish();
}

function snapshotAt(engine: AnyEngine, bytes: Uint8Array, cut: number): Uint8Array {
  const auditor = engine.openAuditor({ file: "j", snapshots: true });
  auditor.write(bytes.subarray(0, cut));
  return auditor.snapshot();
}

describe.each(MODELS.map((model) => [model.name, model] as const))(
  "the %s model",
  (_name, model) => {
    let reference: AnyEngine;
    let kernel: AnyEngine;
    beforeAll(async () => {
      reference = (await model.reference()) as AnyEngine;
      kernel = (await model.kernel()) as AnyEngine;
    });

    const journals = examplesOf(model);

    it("has bundled example journals to hold its engines to", () => {
      expect(journals.length).toBeGreaterThan(0);
    });

    if (journalsAreDocuments(model)) {
      it.each(journals.map((journal) => [journal.name, journal.bytes] as const))(
        "%s: auditBytes and a streamed auditor agree on both engines, neither snapshots a document",
        async (_, bytes) => {
          const whole = await kernel.auditBytes(bytes, { file: "j" });
          expect(await reference.auditBytes(bytes, { file: "j" })).toEqual(whole);
          for (const engine of [reference, kernel]) {
            expect(streamed(engine, bytes, 7)).toEqual(whole);
            expect(() => snapshotAt(engine, bytes, bytes.length)).toThrow(NO_DOCUMENT_SNAPSHOTS);
            await expect(engine.resume(new Uint8Array(8), bytes, { file: "j" })).rejects.toThrow(
              NO_DOCUMENT_SNAPSHOTS,
            );
          }
        },
      );
      return;
    }

    it.each(journals.map((journal) => [journal.name, journal.bytes] as const))(
      "%s: auditBytes, a streamed auditor and every resume agree on both engines",
      async (_, bytes) => {
        const whole = await kernel.auditBytes(bytes, { file: "j" });
        expect(await reference.auditBytes(bytes, { file: "j" })).toEqual(whole);
        for (const engine of [reference, kernel]) {
          expect(streamed(engine, bytes, 7)).toEqual(whole);
        }
        for (const cut of [0, 1, Math.floor(bytes.length / 2), bytes.length]) {
          for (const [taker, resumer] of [
            [reference, reference],
            [kernel, kernel],
            [kernel, reference],
          ] as const) {
            const snapshot = snapshotAt(taker, bytes, cut);
            const auditor = await resumer.resume(snapshot, bytes, { file: "j" });
            expect(auditor.finish()).toEqual(whole);
          }
        }
      },
    );

    it("a reference auditor resumed with nothing appended has not advanced; one more line has", async () => {
      const [journal] = journals;
      if (journal === undefined) throw new Error("no example journal");
      const lastLineStart = journal.bytes.lastIndexOf(0x0a, journal.bytes.length - 2) + 1;
      const prefix = journal.bytes.subarray(0, lastLineStart);
      const snapshot = snapshotAt(reference, prefix, prefix.length);
      expect((await reference.resume(snapshot, prefix)).advancedSinceResume()).toBe(false);
      expect((await reference.resume(snapshot, journal.bytes)).advancedSinceResume()).toBe(true);
    });

    it("the reference refuses a snapshot whose prefix changed; the kernel refuses the reference's", async () => {
      const [journal] = journals;
      if (journal === undefined) throw new Error("no example journal");
      const snapshot = snapshotAt(reference, journal.bytes, journal.bytes.length);
      const changed = journal.bytes.slice();
      changed[0] = 0x20;
      await expect(reference.resume(snapshot, changed, { file: "j" })).rejects.toThrow(
        /^j: refusing the snapshot: the journal's first \d+ bytes are not the ones it covers/,
      );
      await expect(
        reference.resume(snapshot, changed.subarray(0, 3), { file: "j" }),
      ).rejects.toThrow(/but the journal has only 3: truncated, or another journal/);
      await expect(kernel.resume(snapshot, journal.bytes, { file: "j" })).rejects.toThrow(
        /the reference engine took it, and it holds no state to resume from/,
      );
    });
  },
);

describe("a snapshot of another model", () => {
  it("is refused by the reference engines, naming both models", async () => {
    const [dag, operations] = MODELS;
    const dagJournal = examplesOf(dag)[0];
    if (dagJournal === undefined) throw new Error("no example journal");
    const snapshot = snapshotAt(
      (await dag.reference()) as AnyEngine,
      dagJournal.bytes,
      dagJournal.bytes.length,
    );
    const engine = (await operations.reference()) as AnyEngine;
    await expect(engine.resume(snapshot, dagJournal.bytes, { file: "j" })).rejects.toThrow(
      `it is a snapshot of a "${dag.name}" journal, and this is a "${operations.name}" journal`,
    );
  });
});
