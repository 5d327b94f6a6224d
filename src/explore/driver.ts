/**
 * A real runtime driven through a small JSON-lines protocol (docs/explore.md, "Refinement"):
 * statefold starts the driver command once and writes one request per line on its stdin —
 * `{"reset": configuration}`, answered `{"ok": true}`, then `{"action": {…}}`, answered
 * `{"journal": ["…line…", …]}` (the lines the runtime appended, possibly none) or
 * `{"refused": reason}` — reading one answer per line from its stdout. A driver that exits, says
 * something that is not such an answer, or takes longer than the timeout to answer is a
 * `DriverError`: a failure of the driver, never a verdict about the model.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export class DriverError extends Error {}

export type DriverAnswer = { readonly journal: readonly string[] } | { readonly refused: string };

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
    const answer = await this.ask({ reset: configuration });
    if ((answer as { ok?: unknown }).ok !== true) {
      throw this.failure(`answered a reset with ${JSON.stringify(answer)}, not {"ok": true}`);
    }
  }

  async act(action: unknown): Promise<DriverAnswer> {
    const answer = (await this.ask({ action })) as Record<string, unknown>;
    const { journal, refused } = answer;
    if (Array.isArray(journal) && journal.every((line) => typeof line === "string")) {
      return { journal };
    }
    if (typeof refused === "string") return { refused };
    throw this.failure(
      `answered an action with ${JSON.stringify(answer)}, not {"journal": [lines]} or {"refused": reason}`,
    );
  }

  close(): void {
    this.process.stdin.end();
    this.process.kill();
  }

  private async ask(request: unknown): Promise<unknown> {
    if (this.exited !== null) throw this.failure(this.exited);
    this.process.stdin.write(`${JSON.stringify(request)}\n`);
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
      try {
        return JSON.parse(next.value) as unknown;
      } catch {
        throw this.failure(
          `answered with a line that is not JSON: ${JSON.stringify(next.value.slice(0, 200))}`,
        );
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private failure(what: string): DriverError {
    const said =
      this.stderr.trim() === "" ? "" : `; its stderr ends: ${this.stderr.trim().slice(-300)}`;
    return new DriverError(`the driver \`${this.command}\` ${what}${said}`);
  }
}
