/**
 * An auditor of any model that can take snapshots and be resumed from one: what `statefold gate
 * --snapshot` and the scale-out worker (src/scale/) both audit with. The model is chosen as
 * `statefold audit` chooses it (the header's, `--model`), then that model's wasm engine opens a
 * fresh auditor or resumes one from a snapshot (src/snapshot-format.ts).
 */
import type { WasmEngine } from "../../bindings/index.js";
import type { JournalDigests } from "../digest/journal-digests.js";
import type { ResumeJournal } from "../engine.js";
import { chooseModel } from "../journal/choose-model.js";
import { JournalError } from "../journal/errors.js";
import { readDagFile } from "../journal/index.js";
import type { ModelName, ModelReport } from "../models/registry.js";
import { engineNamed, executiveKernel, operationsKernel } from "./engine.js";

/** What the gate and the worker need of an auditor, whatever the model. */
export interface SnapshottingAuditor {
  write(chunk: Uint8Array): void;
  finish(): ModelReport;
  snapshot(): Uint8Array;
  advancedSinceResume(): boolean;
}

export interface SnapshottingOptions {
  /** Names the journal in reports and errors. */
  readonly file: string;
  readonly dagPath: string | undefined;
  readonly model: ModelName | undefined;
  /** Names the snapshot in errors about it. */
  readonly snapshotFile: string;
  /** The reader's digests of the journal's complete lines, for a fresh auditor (`readFileHashed`). */
  readonly digests?: JournalDigests | undefined;
}

/** A snapshot to resume from, and the journal to check its prefix against and audit after it. */
export interface ResumeFrom {
  readonly bytes: Uint8Array;
  readonly journal: ResumeJournal;
}

/**
 * A fresh auditor (nothing written to it yet) when `resume` is null, else one resumed: the
 * resume's journal is read and audited to its end, and more may be written after. `headerModel`
 * is the model the journal's header names (null when it names none).
 */
export async function openSnapshottingAuditor(
  headerModel: ModelName | null,
  resume: ResumeFrom | null,
  options: SnapshottingOptions,
): Promise<SnapshottingAuditor> {
  const { file, dagPath, snapshotFile, digests } = options;
  const chosen = chooseModel(file, headerModel, options.model);
  const sessionOptions = { file, snapshots: true, snapshotFile, digests };
  if (chosen !== "dag" && dagPath !== undefined) {
    throw new JournalError(file, `--dag is for dag journals; an ${chosen} journal needs none`);
  }
  switch (chosen) {
    case "executive": {
      const engine = await executiveKernel();
      return resume === null
        ? engine.openAuditor(sessionOptions)
        : engine.resume(resume.bytes, resume.journal, sessionOptions);
    }
    case "operations": {
      const engine = await operationsKernel();
      return resume === null
        ? engine.openAuditor(sessionOptions)
        : engine.resume(resume.bytes, resume.journal, sessionOptions);
    }
    case "dag": {
      const engine = (await engineNamed("wasm")) as WasmEngine;
      const dag = dagPath === undefined ? null : readDagFile(dagPath);
      const dagOptions = { ...sessionOptions, dagName: dagPath };
      return resume === null
        ? engine.openAuditor(dag, dagOptions)
        : engine.resume(resume.bytes, resume.journal, dag, dagOptions);
    }
    default: {
      const unreachable: never = chosen;
      return unreachable;
    }
  }
}
