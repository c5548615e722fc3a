/**
 * Rate-limit counters in Redis, shared by every instance: one key per caller and window,
 * incremented and given its expiry in one Lua script, so concurrent requests on several
 * instances never count past each other. Windows are aligned to multiples of their length
 * (as in the memory store), so every instance names the same key for the same instant.
 * When Redis does not answer, the request fails with 503 (SERVICE_UNAVAILABLE): never
 * let through uncounted.
 */
import type { RateLimitStore } from '../rate-limits.ts';
import type { Redis } from './connect.ts';
import { orUnavailable } from './unavailable.ts';

/** INCR, and on the first hit of a window PEXPIRE, atomically; returns the count. */
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: Redis;
  readonly #prefix: string;

  /** `prefix` starts every key (`quarry:` by default, config `redisKeyPrefix`). */
  constructor(client: Redis, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
  }

  async increment(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }> {
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const resetAtMs = windowStart + windowMs;
    // The key outlives its window by a second, so instances whose clocks differ slightly agree.
    const ttl = resetAtMs - nowMs + 1000;
    const count = await orUnavailable('rate limits', async () =>
      Number(await this.#client.eval(HIT, 1, `${this.#prefix}rl:${key}@${windowMs}:${windowStart}`, ttl)),
    );
    return { count, resetAtMs };
  }

  /** The connection belongs to the composition root, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
