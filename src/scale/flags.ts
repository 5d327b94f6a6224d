/** The scale-out commands' arguments: the Redis URL, and flags that take a duration or a size, parsed strictly. */
import { UsageError } from "../cli/command.js";
import { plural } from "../text/format-units.js";

/** The one positional argument of `worker` and `watch`: the Redis to serve. */
export function oneRedisUrl(command: string, positionals: readonly string[]): string {
  const [redisUrl, ...extra] = positionals;
  if (redisUrl !== undefined && extra.length === 0) return redisUrl;
  throw new UsageError(
    `${command} takes one REDIS_URL, found ${plural(positionals.length, "argument")}`,
    command,
  );
}

/** Seconds, a decimal number > 0 (`--lease 1.5`), as milliseconds. */
export function secondsFlag(command: string, flag: string, value: string): number {
  const seconds = /^(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
  if (seconds > 0) return Math.round(seconds * 1000);
  throw new UsageError(`${flag} must be a number of seconds > 0, found '${value}'`, command);
}

const BYTE_UNITS: Readonly<Record<string, number>> = { "": 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 };

/** A size in bytes ≥ 1, with an optional binary unit: 65536, 64K, 64M, 1G. */
export function bytesFlag(command: string, flag: string, value: string): number {
  const match = /^(\d+)([KMG]?)$/i.exec(value);
  const bytes =
    match === null
      ? Number.NaN
      : Number(match[1]) * (BYTE_UNITS[(match[2] ?? "").toUpperCase()] ?? Number.NaN);
  if (Number.isSafeInteger(bytes) && bytes >= 1) return bytes;
  throw new UsageError(
    `${flag} must be a size in bytes (65536, 64K, 64M, 1G), found '${value}'`,
    command,
  );
}
