/**
 * The verdict on one journal, as the command line judges it: conformant, or strictly conformant
 * under `--strict`. Pure, shared by the text output and the HTML report.
 */
import type { Report } from "../models/dag/report.js";

export function passes(report: Report, strict: boolean): boolean {
  return strict ? report.strictlyConformant : report.conformant;
}
