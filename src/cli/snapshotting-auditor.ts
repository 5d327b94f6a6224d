/**
 * An auditor of any model that can take snapshots and be resumed from one: what `statefold gate
 * --snapshot` and the scale-out worker (src/scale/) both audit with. The model is chosen as
 * `statefold audit` chooses it (the header's, `--model`), then that model's wasm engine opens a
 * fresh auditor or resumes one from a snapshot (src/snapshot-format.ts).
 */
import type { JournalDigests } from "../digest/journal-digests.js";
import type { ResumeJournal } from "../engine.js";
import { chooseModel } from "../journal/choose-model.js";
import type { Model } from "../models/model.js";
import { type ModelAnswer, type ModelName, modelNamed } from "../models/registry.js";
import { modelKernel } from "./engine.js";
import { type ModelFlagValues, modelEngineOptions } from "./model-flags.js";

/** What the gate and the worker need of an auditor, whatever the model. */
export interface SnapshottingAuditor {
  write(chunk: Uint8Array): void;
  finish(): ModelAnswer;
  snapshot(): Uint8Array;
  advancedSinceResume(): boolean;
}

export interface SnapshottingOptions {
  /** Names the journal in reports and errors. */
  readonly file: string;
  /** The model flags given (`--dag FILE`): the journal's model's make its engine options. */
  readonly modelFlags: ModelFlagValues;
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
  const { file, snapshotFile, digests } = options;
  const model: Model = modelNamed(chooseModel(file, headerModel, options.model));
  const engineOptions = await modelEngineOptions(file, model, options.modelFlags);
  const kernel = await modelKernel(model);
  const sessionOptions = { ...engineOptions, file, snapshots: true, snapshotFile, digests };
  return resume === null
    ? kernel.openAuditor(sessionOptions)
    : kernel.resume(resume.bytes, resume.journal, sessionOptions);
}
