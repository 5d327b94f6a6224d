/**
 * Classification (docs/models/operations.md, "Classification"): each of the seven steps, in
 * order, with the precedence between them; overflow phrases matched under ASCII case folding
 * only; the length-overflow boundaries; deferred handles judged against the intent's request.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  asciiLowerCase,
  type Control,
  classify,
  OVERFLOW_PHRASES,
  RESPONSE_CLASSES,
  type Request,
  type Response,
  STOP_REASONS,
  type StopReason,
} from "../../../src/models/operations/index.js";

const REQUEST: Request = { provider: "anthropic", model: "claude", api: "messages" };

const response = (stop: StopReason, fields: Partial<Response> = {}): Response => ({
  stop,
  errorMessage: null,
  outputTokens: 0,
  toolCalls: 0,
  handle: null,
  ...fields,
});

const running = (r: Response, outputLimit = 0, request: Request | null = REQUEST) =>
  classify("running", r, request, outputLimit);

describe("1. a pending stop is corrupt", () => {
  it("whatever the control: an unsettled response presented as settled", () => {
    expect(running(response("pending"))).toBe("corrupt");
    expect(classify("cancelled", response("pending"), REQUEST, 0)).toBe("corrupt");
  });
});

describe("2. cancelled control is cancelled; an aborted stop under running control is corrupt", () => {
  it.each(STOP_REASONS.filter((stop) => stop !== "pending"))("cancelled beats stop %s", (stop) => {
    const overflowing = response(stop, {
      errorMessage: "context window exceeded",
      outputTokens: 1,
      toolCalls: 2,
      handle: { id: "h", ...REQUEST },
    });
    expect(classify("cancelled", overflowing, REQUEST, 100)).toBe("cancelled");
  });

  it("aborted under running control is corrupt, even with an overflow message", () => {
    expect(running(response("aborted"))).toBe("corrupt");
    expect(running(response("aborted", { errorMessage: "prompt is too long" }))).toBe("corrupt");
  });
});

describe("3. overflow", () => {
  it.each(OVERFLOW_PHRASES)("an error containing %j is overflow", (phrase) => {
    expect(running(response("error", { errorMessage: phrase }))).toBe("overflow");
    expect(running(response("error", { errorMessage: `400: ${phrase} (retry later)` }))).toBe(
      "overflow",
    );
  });

  it("matches ASCII case variants", () => {
    for (const message of [
      "CONTEXT Window EXCEEDED",
      "Prompt Is Too Long",
      "MAXIMUM CONTEXT LENGTH is 200000 tokens",
      "error: Input is TOO long",
      "Request Exceeds The Maximum Size",
      "cOnTeXt LeNgTh ExCeEdEd",
    ]) {
      expect(running(response("error", { errorMessage: message })), message).toBe("overflow");
    }
  });

  it("does not match non-ASCII lookalikes, which Unicode case mapping would fold", () => {
    for (const message of [
      "cont\u0435xt window exceeded", // Cyrillic е
      "CONT\u0415XT LENGTH EXCEEDED", // Cyrillic Е
      "prompt \u0131s too long", // Turkish dotless ı: its upper case is I
      "\u0130nput is too long", // Turkish İ: lower case in a Turkish locale is i
      "request exceeds the maximum \u017Fize", // long s: its upper case is S
      "ma\u0445imum context length", // Cyrillic х
      "context\u00A0window exceeded", // a no-break space
      "contextwindow exceeded",
      "context window exceede",
    ]) {
      expect(running(response("error", { errorMessage: message })), message).toBe("error");
    }
    // What a Unicode-aware fold would have wrongly matched:
    expect("prompt \u0131s too long".toUpperCase()).toBe("PROMPT IS TOO LONG");
    expect("\u0130nput is too long".toLocaleLowerCase("tr")).toBe("input is too long");
  });

  it("folds only A–Z: the KELVIN SIGN stays itself", () => {
    expect(asciiLowerCase("\u212A")).toBe("\u212A");
    expect("\u212A".toLowerCase()).toBe("k");
    expect(asciiLowerCase("AZ\u0130I\u0131@[`{\u212A")).toBe("az\u0130i\u0131@[`{\u212A");
  });

  it("an error without a message, or with another one, is not overflow", () => {
    expect(running(response("error"))).toBe("error");
    expect(running(response("error", { errorMessage: "rate limited" }))).toBe("error");
    expect(running(response("error", { errorMessage: "" }))).toBe("error");
  });

  it("a length stop short of a positive output limit is overflow: the boundaries", () => {
    expect(running(response("length", { outputTokens: 99 }), 100)).toBe("overflow");
    expect(running(response("length", { outputTokens: 0 }), 1)).toBe("overflow");
    expect(running(response("length"), 1)).toBe("overflow"); // absent outputTokens = 0
    expect(running(response("length", { outputTokens: 100 }), 100)).toBe("finished");
    expect(running(response("length", { outputTokens: 101 }), 100)).toBe("finished");
    expect(running(response("length", { outputTokens: 0 }), 0)).toBe("finished"); // no limit
  });

  it("a stop other than error or length is never overflow", () => {
    expect(running(response("stop", { errorMessage: "prompt is too long" }), 100)).toBe("finished");
    expect(running(response("tool-use", { outputTokens: 1 }), 100)).toBe("tool-use");
  });

  it("overflow beats deferred, error and tool use", () => {
    expect(running(response("length", { toolCalls: 3, outputTokens: 5 }), 10)).toBe("overflow");
    expect(running(response("error", { errorMessage: "prompt is too long", toolCalls: 1 }))).toBe(
      "overflow",
    );
  });
});

describe("4. deferred: valid only with a handle that matches the intent's request", () => {
  const handle = { id: "h-1", ...REQUEST };

  it("a non-empty id with the captured provider, model and api is deferred-valid", () => {
    expect(running(response("deferred", { handle }))).toBe("deferred-valid");
  });

  it("anything else is deferred-invalid", () => {
    expect(running(response("deferred"))).toBe("deferred-invalid");
    expect(running(response("deferred", { handle: { ...handle, id: "" } }))).toBe(
      "deferred-invalid",
    );
    expect(running(response("deferred", { handle }), 0, null)).toBe("deferred-invalid");
    for (const field of ["provider", "model", "api"] as const) {
      const claimed = { ...handle, [field]: `${handle[field]}-other` };
      expect(running(response("deferred", { handle: claimed })), field).toBe("deferred-invalid");
    }
  });

  it("compares with the intent's request, never with the response's own claim", () => {
    // The handle claims a consistent identity of its own; the intent captured another.
    const rerouted: Request = { provider: "anthropic", model: "claude", api: "completions" };
    expect(running(response("deferred", { handle }), 0, rerouted)).toBe("deferred-invalid");
    expect(running(response("deferred", { handle: { id: "h", ...rerouted } }), 0, rerouted)).toBe(
      "deferred-valid",
    );
  });

  it("compares ids exactly: no case folding or normalisation", () => {
    const upper = { ...handle, model: "Claude" };
    expect(running(response("deferred", { handle: upper }))).toBe("deferred-invalid");
    const composed = { provider: "é", model: "m", api: "a" };
    const decomposed = { id: "h", provider: "e\u0301", model: "m", api: "a" };
    expect(running(response("deferred", { handle: decomposed }), 0, composed)).toBe(
      "deferred-invalid",
    );
  });
});

describe("5. an error is error", () => {
  it("after overflow has been ruled out", () => {
    expect(running(response("error", { toolCalls: 2 }))).toBe("error");
  });
});

describe("6. tool use", () => {
  it("a tool-use stop, or a stop with tool calls, is tool-use", () => {
    expect(running(response("tool-use"))).toBe("tool-use");
    expect(running(response("stop", { toolCalls: 1 }))).toBe("tool-use");
  });

  it("a length stop with tool calls is tool-use-truncated", () => {
    expect(running(response("length", { toolCalls: 1 }))).toBe("tool-use-truncated");
    expect(running(response("length", { toolCalls: 1, outputTokens: 100 }), 100)).toBe(
      "tool-use-truncated",
    );
  });
});

describe("7. otherwise finished", () => {
  it("a stop, or a length stop, with no tool calls", () => {
    expect(running(response("stop"))).toBe("finished");
    expect(running(response("length"))).toBe("finished");
  });
});

describe("classify: properties", () => {
  const responseArbitrary: fc.Arbitrary<Response> = fc.record({
    stop: fc.constantFrom(...STOP_REASONS),
    errorMessage: fc.option(
      fc.oneof(
        fc.string(),
        fc.constantFrom(...OVERFLOW_PHRASES).map((p) => p.toUpperCase()),
      ),
      { nil: null },
    ),
    outputTokens: fc.nat(200),
    toolCalls: fc.nat(3),
    handle: fc.option(
      fc.record({
        id: fc.constantFrom("", "h"),
        provider: fc.constantFrom("anthropic", "openai"),
        model: fc.constant("claude"),
        api: fc.constant("messages"),
      }),
      { nil: null },
    ),
  });
  const controlArbitrary = fc.constantFrom<Control>("running", "cancelled");

  it("is total and returns one of the nine classes", () => {
    fc.assert(
      fc.property(controlArbitrary, responseArbitrary, fc.nat(200), (control, r, limit) => {
        expect(RESPONSE_CLASSES).toContain(classify(control, r, REQUEST, limit));
      }),
      { numRuns: 300 },
    );
  });

  it("under cancelled control is cancelled for every stop but pending", () => {
    fc.assert(
      fc.property(responseArbitrary, fc.nat(200), (r, limit) => {
        expect(classify("cancelled", r, REQUEST, limit)).toBe(
          r.stop === "pending" ? "corrupt" : "cancelled",
        );
      }),
      { numRuns: 200 },
    );
  });

  it("folds case exactly as an ASCII-only lower-casing of the message would", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const folded = [...text]
          .map((c) => (c >= "A" && c <= "Z" ? String.fromCharCode(c.charCodeAt(0) + 32) : c))
          .join("");
        expect(asciiLowerCase(text)).toBe(folded);
      }),
      { numRuns: 200 },
    );
  });
});
