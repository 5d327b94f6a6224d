/**
 * Classification of a settled response (docs/models/operations.md, "Classification"; mirrors
 * src/models/operations/classify.ts): seven steps in a fixed order, the first that matches
 * wins. The overflow phrases match ignoring ASCII case only: the message's bytes A–Z fold to
 * a–z and nothing else does (a UTF-8 byte ≥ 0x80 never equals a phrase's ASCII byte), exactly
 * as the reference folds UTF-16 code units A–Z.
 */

import { bytesEqual } from "./ids";
import { ResponseClass, Stop } from "./records";
import { Control } from "./state";

/** The settlement's response, as the rules read it (set before `classify`). */
export let responseStop: i32 = 0;
export let responseMessage: usize = 0;
export let responseMessageLength: usize = 0;
export let responseOutputTokens: i64 = 0;
export let responseToolCalls: i64 = 0;
export let responseHasHandle = false;
export let handleId: usize = 0;
export let handleIdLength: usize = 0;
export let handleProvider: usize = 0;
export let handleProviderLength: usize = 0;
export let handleModel: usize = 0;
export let handleModelLength: usize = 0;
export let handleApi: usize = 0;
export let handleApiLength: usize = 0;

export function setResponse(stop: i32, message: usize, messageLength: usize, outputTokens: i64, toolCalls: i64): void {
  responseStop = stop;
  responseMessage = message;
  responseMessageLength = messageLength;
  responseOutputTokens = outputTokens;
  responseToolCalls = toolCalls;
  responseHasHandle = false;
}

export function setHandle(
  id: usize, idLength: usize, provider: usize, providerLength: usize,
  model: usize, modelLength: usize, api: usize, apiLength: usize,
): void {
  responseHasHandle = true;
  handleId = id;
  handleIdLength = idLength;
  handleProvider = provider;
  handleProviderLength = providerLength;
  handleModel = model;
  handleModelLength = modelLength;
  handleApi = api;
  handleApiLength = apiLength;
}

// @ts-expect-error: decorator
@inline
function foldAscii(c: u32): u32 {
  return c - 0x41 < 26 ? c + 0x20 : c;
}

/** Whether the message contains `phrase` (lower-case ASCII), ignoring ASCII case. */
function containsFolded(message: usize, length: usize, phrase: string): bool {
  const n = <usize>phrase.length;
  if (n > length) return false;
  const first = <u32>phrase.charCodeAt(0);
  for (let at = message; at + n <= message + length; at++) {
    if (foldAscii(<u32>load<u8>(at)) != first) continue;
    let i: usize = 1;
    while (i < n && foldAscii(<u32>load<u8>(at + i)) == <u32>phrase.charCodeAt(<i32>i)) i++;
    if (i == n) return true;
  }
  return false;
}

function namesOverflow(message: usize, length: usize): bool {
  return (
    containsFolded(message, length, "context window exceeded") ||
    containsFolded(message, length, "context length exceeded") ||
    containsFolded(message, length, "maximum context length") ||
    containsFolded(message, length, "prompt is too long") ||
    containsFolded(message, length, "input is too long") ||
    containsFolded(message, length, "request exceeds the maximum size")
  );
}

/** Whether two decoded ids are equal. */
// @ts-expect-error: decorator
@inline
function sameId(a: usize, aLength: usize, b: usize, bLength: usize): bool {
  return aLength == bLength && bytesEqual(a, b, aLength);
}

/**
 * `classify(control, response, request, outputLimit)`, the response set by `setResponse` (and
 * `setHandle`); `request` is the intent's request block
 * (state.ts), 0 when it recorded none.
 */
export function classify(control: u8, request: usize, outputLimit: i64): i32 {
  const stop = responseStop;
  if (stop == Stop.PENDING) return ResponseClass.CORRUPT;
  if (control == Control.CANCELLED) return ResponseClass.CANCELLED;
  if (stop == Stop.ABORTED) return ResponseClass.CORRUPT;
  if (stop == Stop.ERROR) {
    if (namesOverflow(responseMessage, responseMessageLength)) return ResponseClass.OVERFLOW;
  } else if (stop == Stop.LENGTH && outputLimit > 0 && responseOutputTokens < outputLimit) {
    return ResponseClass.OVERFLOW;
  }
  if (stop == Stop.DEFERRED) return hasValidHandle(request) ? ResponseClass.DEFERRED_VALID : ResponseClass.DEFERRED_INVALID;
  if (stop == Stop.ERROR) return ResponseClass.ERROR;
  if (stop == Stop.TOOL_USE || (stop == Stop.STOP && responseToolCalls > 0)) return ResponseClass.TOOL_USE;
  if (stop == Stop.LENGTH && responseToolCalls > 0) return ResponseClass.TOOL_USE_TRUNCATED;
  return ResponseClass.FINISHED;
}

function hasValidHandle(request: usize): bool {
  if (!responseHasHandle || request == 0 || handleIdLength == 0) return false;
  const providerLength = <usize>load<u32>(request);
  const modelLength = <usize>load<u32>(request, 4);
  const apiLength = <usize>load<u32>(request, 8);
  const provider = request + 12;
  const model = provider + providerLength;
  const api = model + modelLength;
  return (
    sameId(handleProvider, handleProviderLength, provider, providerLength) &&
    sameId(handleModel, handleModelLength, model, modelLength) &&
    sameId(handleApi, handleApiLength, api, apiLength)
  );
}
