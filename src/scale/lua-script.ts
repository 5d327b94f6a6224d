/**
 * A Lua script run by its SHA-1 (EVALSHA), sent whole (EVAL) only when the server does not hold
 * it — after a restart, or on a node of a cluster that never ran it. Scripts are how a step that
 * touches several keys is one atomic step (docs/scale-out.md, "Guarantees").
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

export type ScriptArgument = string | number | Buffer | Uint8Array;

export class LuaScript {
  private readonly sha1: string;

  constructor(private readonly source: string) {
    this.sha1 = createHash("sha1").update(source).digest("hex");
  }

  /** Runs the script; byte strings in the reply come back as Buffers. */
  async run(
    redis: Redis,
    keys: readonly string[],
    args: readonly ScriptArgument[],
  ): Promise<unknown> {
    const rest = [keys.length, ...keys, ...args.map(asRedisValue)];
    try {
      return await redis.callBuffer("EVALSHA", this.sha1, ...rest);
    } catch (error) {
      if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
      return redis.callBuffer("EVAL", this.source, ...rest);
    }
  }
}

function asRedisValue(value: ScriptArgument): string | number | Buffer {
  if (typeof value === "string" || typeof value === "number" || Buffer.isBuffer(value))
    return value;
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}
