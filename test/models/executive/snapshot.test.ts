/**
 * Executive snapshots (docs/models/executive.md, "Snapshots"): the envelope and digest, keyed
 * snapshots, canonical bodies, and `restore`'s refusals in their order — a flipped byte, a body
 * edited into an impossible state with its checksum recomputed, a keyed snapshot without its
 * key, a bumped version, a truncation — and model-shaped text that stays data.
 */
import { describe, expect, it } from "vitest";
import { sha256 } from "../../../src/digest/sha256.js";
import {
  createExecutive,
  type ExecutiveState,
  referenceExecutive as machine,
} from "../../../src/models/executive/index.js";

const BUDGET = {
  steps: 100,
  depth: 3,
  modelCalls: 10,
  toolCalls: 10,
  contextOps: 10,
  retries: 5,
  outputBytes: 10_000,
  deadline: 1_000_000,
};
const SPEC = {
  task: "t",
  plan: {
    steps: [
      { id: "a", deps: [], effect: "tool" },
      {
        id: "s",
        deps: ["a"],
        plan: { steps: [{ id: "x", deps: [], effect: "model" }] },
        budget: { steps: 9 },
      },
    ],
  },
  checkpointEvery: 5,
};

function running(): ExecutiveState {
  const made = machine.initialState(SPEC, BUDGET) as { state: ExecutiveState };
  let { state } = machine.step(made.state, { tag: "start", now: 1 });
  ({ state } = machine.step(state, {
    tag: "result",
    seq: 1,
    outcome: "ok",
    bytes: 3,
    detail: "d",
    now: 2,
  }));
  return state; // inside the sub-plan, executing x
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytesOf = (s: string) => new TextEncoder().encode(s);

/** The snapshot with its body replaced, the checksum recomputed. */
function withBody(body: string): Uint8Array {
  return bytesOf(`statefold-executive 1\n${sha256().update(bytesOf(body)).hex()}\n${body}`);
}

function bodyOf(state: ExecutiveState): string {
  return text(machine.snapshot(state)).split("\n").slice(2).join("\n");
}

describe("executive snapshots", () => {
  it("write the envelope, the SHA-256 of the body and the canonical body", () => {
    const state = running();
    const [head, digest, ...rest] = text(machine.snapshot(state)).split("\n");
    const body = rest.join("\n");
    expect(head).toBe("statefold-executive 1");
    expect(digest).toBe(sha256().update(bytesOf(body)).hex());
    expect(body).toBe(
      '{"version":1,"spec":{"task":"t","plan":{"steps":[{"id":"a","deps":[],"effect":"tool"},{"id":"s","deps":["a"],"plan":{"steps":[{"id":"x","deps":[],"effect":"model"}]},"budget":{"steps":9}}]},"checkpointEvery":5},"depth":3,"status":"running","failure":null,"seq":2,"now":2,"frames":[{"id":null,"limits":{"steps":100,"modelCalls":10,"toolCalls":10,"contextOps":10,"retries":5,"outputBytes":10000,"deadline":1000000},"used":{"steps":2,"modelCalls":1,"toolCalls":1,"contextOps":0,"retries":0,"outputBytes":3},"done":["a"]},{"id":"s","limits":{"steps":9,"modelCalls":10,"toolCalls":9,"contextOps":10,"retries":5,"outputBytes":9997,"deadline":1000000},"used":{"steps":0,"modelCalls":1,"toolCalls":0,"contextOps":0,"retries":0,"outputBytes":0},"done":[]}],"outstanding":{"tag":"execute","seq":2,"path":["s","x"],"effect":"model","attempt":1},"sinceCheckpoint":1,"lastDetail":"d"}',
    );
  });

  it("restore on another engine to a state that continues exactly as the original", () => {
    const state = running();
    const other = createExecutive();
    const restored = other.restore(machine.snapshot(state));
    expect("state" in restored).toBe(true);
    const copy = (restored as { state: ExecutiveState }).state;
    expect(other.snapshot(copy)).toEqual(machine.snapshot(state));
    const next = { tag: "result", seq: 2, outcome: "ok", bytes: 1, now: 3 };
    const a = machine.step(state, next);
    const b = other.step(copy, next);
    expect(b.decision).toEqual(a.decision);
    expect(other.snapshot(b.state)).toEqual(machine.snapshot(a.state));
    // A state crosses engines only as a snapshot.
    expect(other.step(state, next).decision).toEqual({ tag: "reject", reason: "invalid-state" });
  });

  it("are signed under a key: restored only with that key", () => {
    const state = running();
    for (const key of ["secret", new Uint8Array([1, 2, 3]), "", new Uint8Array(0)]) {
      const signed = machine.snapshot(state, key);
      expect("state" in machine.restore(signed, key)).toBe(true);
      expect(machine.restore(signed)).toEqual({ rejected: "checksum-mismatch" });
      expect(machine.restore(signed, "other")).toEqual({ rejected: "checksum-mismatch" });
    }
    expect(
      "state" in machine.restore(machine.snapshot(state, "k"), new TextEncoder().encode("k")),
    ).toBe(true);
    expect(() => machine.snapshot(state, 7 as never)).toThrow(TypeError);
    expect(() => machine.restore(machine.snapshot(state), {} as never)).toThrow(TypeError);
    expect(() => machine.snapshot({ ...state })).toThrow(TypeError);
  });

  it("refuse, first failure winning: malformed, version, checksum, then an impossible state", () => {
    const good = machine.snapshot(running());
    const goodText = text(good);
    const flipped = good.slice();
    flipped[flipped.length - 5] = (flipped[flipped.length - 5] as number) ^ 0x01;
    const cases: [unknown, string][] = [
      ["statefold-executive 1", "malformed-snapshot"],
      [Array.from(good), "malformed-snapshot"],
      [
        bytesOf(goodText.replace("statefold-executive 1", "statefold-executive 01")),
        "malformed-snapshot",
      ],
      [
        bytesOf(goodText.replace("statefold-executive 1", "statefold-executive +1")),
        "malformed-snapshot",
      ],
      [bytesOf(goodText.replace(/\n[0-9a-f]{64}\n/, (d) => d.toUpperCase())), "malformed-snapshot"],
      [good.subarray(0, 40), "malformed-snapshot"],
      [
        bytesOf(goodText.replace("statefold-executive 1", "statefold-executive 2")),
        "version-mismatch",
      ],
      [flipped, "checksum-mismatch"],
      [good.subarray(0, good.length - 1), "checksum-mismatch"],
    ];
    for (const [bytes, rejected] of cases) expect(machine.restore(bytes)).toEqual({ rejected });
  });

  it("refuse a body edited into an impossible state even with its checksum recomputed", () => {
    const body = bodyOf(running());
    expect("state" in machine.restore(withBody(body))).toBe(true);
    const impossible = [
      body.replace('"used":{"steps":2', '"used":{"steps":101'), // used past its limit
      body.replace('"limits":{"steps":9', '"limits":{"steps":101'), // a child above its parent
      body.replace('"done":["a"]', '"done":[]'), // a sub-plan entered before its deps are done
      body.replace('"done":["a"]', '"done":["a","a"]'),
      body.replace('"seq":2,"path"', '"seq":1,"path"'), // outstanding not the last decision
      body.replace('"attempt":1', '"attempt":0'),
      body.replace('"effect":"model","attempt"', '"effect":"tool","attempt"'),
      body.replace('"status":"running"', '"status":"completed"'), // outstanding when not running
      body.replace('"failure":null', '"failure":{"reason":"deadline"}'),
      body.replace('"depth":3', '"depth":0'), // more frames than depth allows
      body.replace('"version":1', '"version":2'),
      body.replace('"lastDetail":"d"', `"lastDetail":"${"x".repeat(4097)}"`),
      body.replace('"task":"t"', '"task":"t","extra":1'),
      body.replace('"sinceCheckpoint":1', '"sinceCheckpoint":-1'),
      body.replace('{"version":1,', '{"version":1, '), // not canonical
      body.replace('"depth":3,"status"', '"status":"running","depth":3,"x"'),
      `${body} `,
      "[]",
      "{",
    ];
    for (const edited of impossible) {
      expect(machine.restore(withBody(edited)), edited.slice(0, 80)).toEqual({
        rejected: "invalid-state",
      });
    }
  });

  it("keep model-shaped text as data through step, snapshot and restore", () => {
    const payloads = [
      "'); DROP TABLE journal; --",
      'eval("process.exit(1)")',
      "require('child_process').execSync('rm -rf /')",
      ":- initialization(halt).",
      "</script><script>alert(1)</script>",
      "\u2028\u2029\ud800",
    ];
    for (const payload of payloads) {
      const made = machine.initialState(
        { task: payload, plan: { steps: [{ id: payload, deps: [], effect: "tool" }] } },
        BUDGET,
      ) as { state: ExecutiveState };
      let { decision, state } = machine.step(made.state, { tag: "start", now: 0 });
      expect(decision).toMatchObject({ tag: "execute", path: [payload] });
      ({ state } = machine.step(state, { tag: "tick", now: 1 }));
      const result = machine.step(state, {
        tag: "result",
        seq: 1,
        outcome: "ok",
        bytes: 0,
        detail: payload,
        now: 2,
      });
      const restored = machine.restore(machine.snapshot(result.state)) as { state: ExecutiveState };
      expect(restored.state.spec.task).toBe(payload);
      expect(restored.state.lastDetail).toBe(payload);
      expect(restored.state.frames.get(0)?.done.toArray()).toEqual([payload]);
    }
  });
});
