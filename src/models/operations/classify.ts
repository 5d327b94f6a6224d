/**
 * Classification of a settled response (docs/models/operations.md, "Classification"): seven
 * steps in a fixed order, the first that matches wins. Pure, so a runtime calls this very
 * function to write the `class` its journal is judged by. A deferred handle is judged against
 * the identity the intent captured, never the response's own claim about itself.
 */

import type { Request, Response, ResponseClass } from "./records.js";
import type { Control } from "./state.js";

/** Error messages that mean the prompt did not fit, matched ignoring ASCII case only. */
export const OVERFLOW_PHRASES = [
  "context window exceeded",
  "context length exceeded",
  "maximum context length",
  "prompt is too long",
  "input is too long",
  "request exceeds the maximum size",
] as const;

/**
 * `control` is the op's at the settlement; `request` and `outputLimit` are what the effect's
 * intent recorded (null and 0 when it recorded none).
 */
export function classify(
  control: Control,
  response: Response,
  request: Request | null,
  outputLimit: number,
): ResponseClass {
  return classification(control, response, request, outputLimit).class;
}

/** The class and the step (1–7, in docs/models/operations.md's order) that decided it. */
export interface Classification {
  readonly class: ResponseClass;
  readonly step: number;
}

/** `classify`, saying which of the seven steps decided: what a report shows beside the class. */
export function classification(
  control: Control,
  response: Response,
  request: Request | null,
  outputLimit: number,
): Classification {
  const decided = (step: number, decidedClass: ResponseClass) => ({ class: decidedClass, step });
  const { stop } = response;
  if (stop === "pending") return decided(1, "corrupt");
  if (control === "cancelled") return decided(2, "cancelled");
  if (stop === "aborted") return decided(2, "corrupt");
  if (isOverflow(response, outputLimit)) return decided(3, "overflow");
  if (stop === "deferred")
    return decided(4, hasValidHandle(response, request) ? "deferred-valid" : "deferred-invalid");
  if (stop === "error") return decided(5, "error");
  if (stop === "tool-use" || (stop === "stop" && response.toolCalls > 0))
    return decided(6, "tool-use");
  if (stop === "length" && response.toolCalls > 0) return decided(6, "tool-use-truncated");
  return decided(7, "finished");
}

/** An error naming an overflow, or a length stop short of a positive output limit. */
function isOverflow(response: Response, outputLimit: number): boolean {
  if (response.stop === "error") {
    const message = asciiLowerCase(response.errorMessage ?? "");
    return OVERFLOW_PHRASES.some((phrase) => message.includes(phrase));
  }
  return response.stop === "length" && outputLimit > 0 && response.outputTokens < outputLimit;
}

function hasValidHandle(response: Response, request: Request | null): boolean {
  const { handle } = response;
  return (
    handle !== null &&
    request !== null &&
    handle.id !== "" &&
    handle.provider === request.provider &&
    handle.model === request.model &&
    handle.api === request.api
  );
}

/**
 * Folds A–Z to a–z and leaves every other code unit alone. `toLowerCase` would also fold
 * non-ASCII lookalikes (the Kelvin sign K becomes "k", "İ" becomes "i̇"), which must not match.
 */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
}
