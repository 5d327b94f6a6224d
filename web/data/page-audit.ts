/**
 * A journal of a model defined by data in the page (docs/models/data.md), whichever the model: one
 * statefold ships or a model file picked. It streams through the data kernel with the model's
 * compiled tables — JSONL, or one JSON document whose records are an array, as the model's
 * `records.source` says; a document is never read whole to be audited — then, up to the context
 * bound, it is read again by the model's reader for its findings in context.
 */
import type { DataModel } from "../../src/models/data/model.js";
import type { DataReport } from "../../src/models/data/report.js";
import type { KernelOptions, Model } from "../../src/models/model.js";
import { auditStreamed, kernelBuild, type PageAudit } from "../page-audit.js";

/** A model defined by data, as the model contract tells one: it carries its compiled file. */
export function isDataModel(model: Model): model is DataModel {
  return "compiled" in model;
}

export function dataPageAudit(model: DataModel): PageAudit<DataReport> {
  return {
    async audit(request, post) {
      const engine = await model.kernel(kernel());
      return auditStreamed(engine, request, model, post);
    },
    kernel,
  };
}

// Literal `new URL(…, import.meta.url)`s, so Vite emits the kernel as an asset.
function kernel(): KernelOptions {
  return kernelBuild(
    new URL("../../build/statefold-data.simd.wasm", import.meta.url),
    new URL("../../build/statefold-data.wasm", import.meta.url),
  );
}
