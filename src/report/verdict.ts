/**
 * The verdict on one journal, as the command line judges it: conformant, or strictly conformant
 * under `--strict`. Pure, shared by the text output and the HTML report.
 */
import type { ModelReport } from "../models/registry.js";

export function passes(
  report: Pick<ModelReport, "conformant" | "strictlyConformant">,
  strict: boolean,
): boolean {
  return strict ? report.strictlyConformant : report.conformant;
}
