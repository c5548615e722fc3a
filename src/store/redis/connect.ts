/**
 * The Redis connection several Quarry instances share (rate-limit counters, web sessions,
 * login codes). Commands fail fast while Redis is away (no offline queue, a short command
 * timeout), so a request gets a 503 at once instead of waiting; the client keeps
 * reconnecting in the background and the next request after Redis returns succeeds.
 *
 * @example
 * const redis = await connectRedis('redis://127.0.0.1:6379/0');
 * await redis.incr('quarry:example');
 * await redis.quit();
 */
import type { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

/** Connects and checks that Redis answers; rejects with the cause otherwise. */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded only when a Redis is configured: once ioredis is loaded (its `class VerbatimString
  // extends String`), V8 scans strings slower in the whole process: a charCodeAt loop over
  // 6 MB 6 → 56 ms, the DSL's parse rate 337k → 238k queries/s (bench/string-scan.ts).
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    commandTimeout: 2000,
    // Keep trying in the background, at most every two seconds.
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  });
  // Connection errors surface as failed commands (and a 503); an unheard 'error' event
  // would otherwise end the process.
  let lastError: Error | undefined;
  client.on('error', (error: Error) => (lastError = error));
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch (error) {
    client.disconnect();
    // "Connection is closed" says less than the socket's own error (ECONNREFUSED, ENOTFOUND).
    throw lastError ?? error;
  }
}
