/**
 * An executive journal in the page: streamed through the executive kernel; its view replays the
 * run again for the frames behind each mismatch. A journal without its header's spec and budget
 * is refused with where they come from.
 */
import type { ExecutiveReport } from "../../src/models/executive/audit.js";
import { executiveModel } from "../../src/models/executive/model.js";
import type { KernelOptions } from "../../src/models/model.js";
import { auditStreamed, kernelBuild, type PageAudit } from "../page-audit.js";

/** How the executive engines refuse a journal without its run's spec and budget (executiveRunOf). */
const EXECUTIVE_RUN_MISSING = 'expected a header with the run\'s "spec" and "budget"';

export const executivePageAudit: PageAudit<ExecutiveReport> = {
  async audit(request, post) {
    const engine = await executiveModel.kernel(kernel());
    return auditStreamed(engine, request, executiveModel, post);
  },
  kernel,
  explain({ message, detail }) {
    if (!detail.startsWith(EXECUTIVE_RUN_MISSING)) return null;
    return `${message}. Its first line must be the header {"statefold":"journal","version":1,"model":"executive","spec":{…},"budget":{…}}, as \`statefold executive SPEC BUDGET\` writes it: neither this page nor \`statefold audit\` takes the spec and budget from elsewhere.`;
  },
};

// Literal `new URL(…, import.meta.url)`s, so Vite emits each kernel as an asset.
function kernel(): KernelOptions {
  return kernelBuild(
    new URL("../../build/statefold-executive.simd.wasm", import.meta.url),
    new URL("../../build/statefold-executive.wasm", import.meta.url),
  );
}
