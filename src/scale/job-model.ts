/**
 * The model a bulk job names (docs/scale-out.md, "Models"): `enqueue --model` writes it into every
 * job, by name, and — for a model defined by data — with the digest of the model as statefold
 * compiled it, so that a worker that holds another model under the same name refuses the job
 * instead of publishing that other model's verdict. A job that names no model is audited against
 * the worker's `--model`, else its journal header's, as `statefold audit` chooses.
 */
import { createHash } from "node:crypto";
import type { CompiledModel } from "../models/data/compiled.js";
import type { DataModel } from "../models/data/model.js";
import { isModelName, type ModelName, modelNamed } from "../models/registry.js";

/** The model a job names. */
export interface JobModel {
  readonly name: string;
  /** The digest of the model defined by data it was enqueued with (`modelDigest`); null for none. */
  readonly digest: string | null;
}

/** Each compiled model's digest, worked out once: a worker checks it for every job. */
const digests = new WeakMap<CompiledModel, string>();

/**
 * A registered or loaded model as a job names it: with its digest when it is defined by data, so
 * that the same file written in JSON or YAML, with other whitespace or comments, has the same
 * digest, and any change to what it says has another.
 */
export function jobModelOf(name: ModelName): JobModel {
  const model = modelNamed(name);
  if (!("compiled" in model)) return { name, digest: null };
  const { compiled } = model as DataModel;
  let digest = digests.get(compiled);
  if (digest === undefined) {
    const text = JSON.stringify(compiled, (_key, value: unknown) =>
      // A compiled model holds Maps (spellings to kinds) and bigints (ints): JSON says neither.
      typeof value === "bigint"
        ? { int: String(value) }
        : value instanceof Map
          ? [...value]
          : value,
    );
    digest = createHash("sha256").update(text).digest("hex");
    digests.set(compiled, digest);
  }
  return { name, digest };
}

/**
 * The model a job's journal is audited against: the one the job names — which this worker must
 * hold, the same — else the worker's own `--model` (undefined: the journal's header chooses).
 * Throws, naming what is missing, when the worker cannot audit the job: the job is left for
 * another worker, and goes to the dead letters with that error past --max-deliveries.
 */
export function modelForJob(
  job: JobModel | null,
  workerModel: ModelName | undefined,
): ModelName | undefined {
  if (job === null) return workerModel;
  if (!isModelName(job.name))
    throw new Error(
      `the job names the model "${job.name}", which this worker does not know: start the worker with --model and the file that defines it`,
    );
  const held = jobModelOf(job.name).digest;
  if (job.digest !== null && job.digest !== held)
    throw new Error(
      `the job's model "${job.name}" (digest ${abbreviated(job.digest)}) is not this worker's model of that name (${held === null ? "a model written as a program" : `digest ${abbreviated(held)}`}): give enqueue and every worker the same model file`,
    );
  return job.name;
}

function abbreviated(digest: string): string {
  return `${digest.slice(0, 12)}…`;
}
