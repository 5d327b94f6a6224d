/**
 * The model a bulk job names, without Redis (docs/scale-out.md, "Models"): its digest is the
 * model's, not its file's spelling, and a worker audits a job against the model it names only when
 * it holds that same model.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { useModelFile } from "../../src/cli/model-choice.js";
import type { ModelName } from "../../src/models/registry.js";
import { jobModelOf, modelForJob } from "../../src/scale/job-model.js";
import { REPO_ROOT } from "../cli/cli-process.js";
import { testTempDir } from "../support/temp-dirs.js";

const PAYMENTS = join(REPO_ROOT, "examples/data/payment-intents.json");

describe("the model a job names", () => {
  let payments: ModelName;
  let directory: string;

  beforeAll(async () => {
    directory = testTempDir("job-model-");
    payments = await useModelFile(PAYMENTS);
  });

  it("has the digest of the model, the same whether its file is JSON or YAML with comments", async () => {
    const fromJson = jobModelOf(payments);
    expect(fromJson.name).toBe("payment-intents");
    expect(fromJson.digest).toMatch(/^[0-9a-f]{64}$/);
    const yaml = join(directory, "payment-intents.yaml");
    const model = JSON.parse(readFileSync(PAYMENTS, "utf8"));
    writeFileSync(yaml, `# payments, respelt\n${stringify(model, { indent: 4 })}`);
    expect(jobModelOf(await useModelFile(yaml))).toEqual(fromJson);
  });

  it("has another digest when the model says anything else, a rule's description included", async () => {
    const before = jobModelOf(payments).digest;
    const model = JSON.parse(readFileSync(PAYMENTS, "utf8"));
    model.rules.lifecycle = `${model.rules.lifecycle}.`;
    const changed = join(directory, "payment-intents-described.json");
    writeFileSync(changed, JSON.stringify(model));
    const after = jobModelOf(await useModelFile(changed)).digest;
    expect(after).not.toBe(before);
    await useModelFile(PAYMENTS);
  });

  it("has a digest for a model statefold ships defined by data, none for one written as a program", () => {
    expect(jobModelOf("temporal").digest).toMatch(/^[0-9a-f]{64}$/);
    expect(jobModelOf("operations")).toEqual({ name: "operations", digest: null });
  });

  it("is the model a job is audited against, whatever the worker's own --model; the worker's when it names none", () => {
    const job = jobModelOf(payments);
    expect(modelForJob(job, "operations")).toBe("payment-intents");
    expect(modelForJob({ name: "temporal", digest: null }, payments)).toBe("temporal");
    expect(modelForJob(null, payments)).toBe("payment-intents");
    expect(modelForJob(null, undefined)).toBeUndefined();
  });

  it("is refused, saying why, when the worker does not know it or knows another under its name", () => {
    expect(() => modelForJob({ name: "orders", digest: null }, payments)).toThrow(
      'the job names the model "orders", which this worker does not know: start the worker with --model and the file that defines it',
    );
    const other = "0".repeat(64);
    expect(() => modelForJob({ name: "payment-intents", digest: other }, undefined)).toThrow(
      /^the job's model "payment-intents" \(digest 000000000000…\) is not this worker's model of that name \(digest [0-9a-f]{12}…\)/,
    );
    expect(() => modelForJob({ name: "operations", digest: other }, undefined)).toThrow(
      "is not this worker's model of that name (a model written as a program)",
    );
  });
});
