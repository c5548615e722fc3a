import type { RateLimitStore } from '../store/rate-limits.ts';

/**
 * Counters in a Map, for a single instance. Expired windows are swept lazily, at most once
 * per ten seconds of (injected) time, so memory stays bounded by the callers of the last
 * window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #counters = new Map<string, { count: number; resetAtMs: number }>();
  #nextSweepMs = 0;

  increment(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }> {
    if (nowMs >= this.#nextSweepMs) this.#sweep(nowMs);
    const windowStart = Math.floor(nowMs / windowMs) * windowMs;
    const resetAtMs = windowStart + windowMs;
    const entryKey = `${key}@${windowMs}`;
    const entry = this.#counters.get(entryKey);
    if (entry && entry.resetAtMs === resetAtMs) {
      entry.count += 1;
      return Promise.resolve({ count: entry.count, resetAtMs });
    }
    this.#counters.set(entryKey, { count: 1, resetAtMs });
    return Promise.resolve({ count: 1, resetAtMs });
  }

  close(): Promise<void> {
    this.#counters.clear();
    return Promise.resolve();
  }

  /** Number of live counters; for tests. */
  get size(): number {
    return this.#counters.size;
  }

  #sweep(nowMs: number): void {
    for (const [key, entry] of this.#counters) if (entry.resetAtMs <= nowMs) this.#counters.delete(key);
    this.#nextSweepMs = nowMs + 10_000;
  }
}
