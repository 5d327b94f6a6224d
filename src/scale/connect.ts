/** A Redis connection for the scale-out commands, or a usage error naming the URL it could not reach. */
import { Redis } from "ioredis";
import { UsageError } from "../cli/command.js";

/**
 * Once connected, a command waits through a Redis restart (it is retried on reconnect) instead of
 * failing: what was acknowledged before the restart is what Redis's persistence kept.
 */
export async function connectRedis(url: string, command: string): Promise<Redis> {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    lazyConnect: true,
    retryStrategy: (attempt) => Math.min(attempt * 50, 1000),
  });
  // A lost connection is retried, and the commands waiting on it tell what failed: the client's
  // own error events would only repeat it on stderr.
  redis.on("error", () => {});
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new UsageError(`cannot reach Redis at ${url}: ${(error as Error).message}`, command);
  }
  return redis;
}
