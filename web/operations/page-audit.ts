/**
 * An operations journal in the page: streamed through the operations kernel whatever its size,
 * then, up to the context bound, read again for its findings in context.
 */

import type { KernelOptions } from "../../src/models/model.js";
import { operationsModel } from "../../src/models/operations/model.js";
import type { OperationsReport } from "../../src/models/operations/report.js";
import { auditStreamed, kernelBuild, type PageAudit } from "../page-audit.js";

export const operationsPageAudit: PageAudit<OperationsReport> = {
  async audit(request, post) {
    const engine = await operationsModel.kernel(kernel());
    return auditStreamed(engine, request, operationsModel, post);
  },
  kernel,
};

// Literal `new URL(…, import.meta.url)`s, so Vite emits each kernel as an asset.
function kernel(): KernelOptions {
  return kernelBuild(
    new URL("../../build/statefold-operations.simd.wasm", import.meta.url),
    new URL("../../build/statefold-operations.wasm", import.meta.url),
  );
}
