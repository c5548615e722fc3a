/**
 * Redis, layered on whichever database is open: the state several instances must share
 * (rate-limit counters, web sessions, login codes) moves there. Accounts, keys and tokens
 * stay in the database every instance reads on each request, so a revocation through one
 * instance is refused by all on their next request.
 */
import type { RateLimitStore } from '../store/rate-limits.ts';
import type { SessionStore } from '../store/accounts.ts';
import { connectRedis, type Redis } from '../store/redis/connect.ts';
import { redisLoginCodeStore } from '../store/redis/login-code-store.ts';
import { RedisRateLimitStore } from '../store/redis/rate-limit-store.ts';
import { redisSessionStore } from '../store/redis/session-store.ts';
import type { LoginCodeStore } from '../store/web.ts';
import { unreachable } from './start-errors.ts';

/** Connects to Redis, or fails with the coded start-up error naming it. */
export async function openRedis(url: string): Promise<Redis> {
  try {
    return await connectRedis(url);
  } catch (error) {
    throw unreachable('Redis server', url, error);
  }
}

/** Closes the connection politely, or at once when Redis does not answer. */
export async function quitRedis(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

/** Web sessions and login codes on Redis under `prefix` (config `redisKeyPrefix`). */
export function sessionsOnRedis(redis: Redis, prefix: string): { sessions: SessionStore; loginCodes: LoginCodeStore } {
  return { sessions: redisSessionStore(redis, prefix), loginCodes: redisLoginCodeStore(redis, prefix) };
}

/** Rate-limit counters on Redis under `prefix`: one budget per caller across instances. */
export function rateLimitsOnRedis(redis: Redis, prefix: string): RateLimitStore {
  return new RedisRateLimitStore(redis, prefix);
}

/**
 * Sessions and login codes that fail with `refusal` (Redis did not answer): the
 * administration commands that need neither still work during an outage.
 */
export function refusingShared(refusal: Error): { sessions: SessionStore; loginCodes: LoginCodeStore } {
  const fail = () => Promise.reject(refusal);
  return {
    sessions: { insertSession: fail, sessionById: fail, deleteSession: fail, deleteSessionsOf: fail },
    loginCodes: { saveLoginCode: fail, consumeLoginCode: fail },
  };
}
