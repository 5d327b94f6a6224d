/**
 * A real runtime driven through a small JSON-lines protocol (docs/explore.md, "Refinement"):
 * statefold starts the driver command once and writes one request per line on its stdin —
 * `{"reset": configuration}`, answered `{"ok": true}`, then for a runtime driven action by action
 * `{"action": {…}}`, answered `{"journal": ["…line…", …]}` (the lines the runtime appended,
 * possibly none) or `{"refused": reason}`, and for an effect runtime, which decides for itself,
 * `{"env": {…}}`, an event of the world around it, answered `{"journal": [lines], "calls":
 * [calls], "wake": t | null}` — reading one answer per line from its stdout. A driver that
 * exits, says something that is not such an answer, or takes longer than the timeout to answer
 * is a `DriverError`: a failure of the driver, never a verdict about the model.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export class DriverError extends Error {}

export type DriverAnswer = { readonly journal: readonly string[] } | { readonly refused: string };

/** What an effect runtime asked of the outside world: an effect, or the readback of one. */
export interface Call {
  readonly id: string;
  readonly type: "effect" | "readback";
  readonly op: string;
  readonly effect: string;
}

/** An effect runtime's answer to an event: what it committed, what it has out, when it wakes. */
export interface EnvAnswer {
  readonly journal: readonly string[];
  readonly calls: readonly Call[];
  readonly wake: number | null;
}

const isLines = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((line) => typeof line === "string");

function isCall(value: unknown): value is Call {
  if (typeof value !== "object" || value === null) return false;
  const { id, type, op, effect } = value as Record<string, unknown>;
  return (
    typeof id === "string" &&
    (type === "effect" || type === "readback") &&
    typeof op === "string" &&
    typeof effect === "string"
  );
}

export class Driver {
  private readonly process: ChildProcessWithoutNullStreams;
  private readonly lines: AsyncIterator<string>;
  private exited: string | null = null;
  private readonly exit: Promise<void>;
  private stderr = "";

  private constructor(
    private readonly command: string,
    private readonly timeoutMs: number,
  ) {
    this.process = spawn(command, { shell: true, stdio: ["pipe", "pipe", "pipe"] });
    this.process.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-2000);
    });
    this.exit = new Promise((resolve) => {
      this.process.on("exit", (code, signal) => {
        this.exited = signal === null ? `exited with status ${code}` : `was killed by ${signal}`;
        resolve();
      });
    });
    this.process.on("error", (error) => {
      this.exited = `could not be started (${error.message})`;
    });
    this.process.stdin.on("error", () => {}); // a driver gone: reported by the next answer
    this.lines = createInterface({ input: this.process.stdout })[Symbol.asyncIterator]();
  }

  static start(command: string, timeoutMs: number): Driver {
    return new Driver(command, timeoutMs);
  }

  async reset(configuration: unknown): Promise<void> {
    this.send({ reset: configuration });
    await this.resetAnswered();
  }

  async act(action: unknown): Promise<DriverAnswer> {
    this.send({ action });
    return this.actionAnswer(await this.answer());
  }

  /** Tells an effect runtime of an event of the world around it. */
  async env(event: unknown): Promise<EnvAnswer> {
    this.send({ env: event });
    return this.envAnswer(await this.answer(), event);
  }

  /**
   * A reset, then `actions`, written at once — none waits on an answer, so the driver's answers
   * stream back without a round trip each — and the answer to each action.
   */
  async replayActions(
    configuration: unknown,
    actions: readonly unknown[],
  ): Promise<DriverAnswer[]> {
    this.send({ reset: configuration });
    for (const action of actions) this.send({ action });
    await this.resetAnswered();
    const answers: DriverAnswer[] = [];
    for (const _ of actions) answers.push(this.actionAnswer(await this.answer()));
    return answers;
  }

  /** As `replayActions`, for an effect runtime's events. */
  async replayEvents(configuration: unknown, events: readonly unknown[]): Promise<EnvAnswer[]> {
    this.send({ reset: configuration });
    for (const event of events) this.send({ env: event });
    await this.resetAnswered();
    const answers: EnvAnswer[] = [];
    for (const event of events) answers.push(this.envAnswer(await this.answer(), event));
    return answers;
  }

  private async resetAnswered(): Promise<void> {
    const answer = await this.answer();
    if (answer.ok !== true) {
      throw this.failure(`answered a reset with ${JSON.stringify(answer)}, not {"ok": true}`);
    }
  }

  private actionAnswer(answer: Readonly<Record<string, unknown>>): DriverAnswer {
    const { journal, refused } = answer;
    if (isLines(journal)) return { journal };
    if (typeof refused === "string") return { refused };
    throw this.failure(
      `answered an action with ${JSON.stringify(answer)}, not {"journal": [lines]} or {"refused": reason}`,
    );
  }

  private envAnswer(answer: Readonly<Record<string, unknown>>, event: unknown): EnvAnswer {
    const { journal, calls, wake } = answer;
    const wakes = wake === null || Number.isSafeInteger(wake);
    if (isLines(journal) && Array.isArray(calls) && calls.every(isCall) && wakes) {
      return { journal, calls, wake: wake as number | null };
    }
    throw this.failure(
      `answered ${JSON.stringify({ env: event })} with ${JSON.stringify(answer).slice(0, 300)}, not {"journal": [lines], "calls": [{"id", "type", "op", "effect"}…], "wake": t | null}`,
    );
  }

  close(): void {
    this.process.stdin.end();
    this.process.kill();
  }

  private send(request: unknown): void {
    if (this.exited !== null) throw this.failure(this.exited);
    this.process.stdin.write(`${JSON.stringify(request)}\n`);
  }

  /** The next answer, a JSON object; a driver that exits, says something else or is silent fails. */
  private async answer(): Promise<Readonly<Record<string, unknown>>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(this.failure(`gave no answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      const next = await Promise.race([this.lines.next(), timeout]);
      if (next.done) {
        // Its output closed: it is exiting, most likely; wait a moment to say how.
        await Promise.race([
          this.exit,
          new Promise((resolve) => setTimeout(resolve, 1000).unref()),
        ]);
        throw this.failure(this.exited ?? "closed its output");
      }
      let answer: unknown;
      try {
        answer = JSON.parse(next.value);
      } catch {
        throw this.failure(
          `answered with a line that is not JSON: ${JSON.stringify(next.value.slice(0, 200))}`,
        );
      }
      if (typeof answer === "object" && answer !== null && !Array.isArray(answer)) {
        return answer as Readonly<Record<string, unknown>>;
      }
      throw this.failure(`answered with ${next.value.slice(0, 200)}, not a JSON object`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The driver's failure: what it did, and the end of what it said on stderr. */
  failure(what: string): DriverError {
    const said =
      this.stderr.trim() === "" ? "" : `; its stderr ends: ${this.stderr.trim().slice(-300)}`;
    return new DriverError(`the driver \`${this.command}\` ${what}${said}`);
  }
}
