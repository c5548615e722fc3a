/**
 * Where rate-limit counters live. The in-memory store serves one process; a shared store
 * (Redis: INCR + PEXPIRE on the window key) lets several instances share one budget per
 * caller. Windows are fixed and aligned to multiples of their length, so every instance
 * computes the same window for the same instant.
 *
 * A storage contract like the others in store/, so the Redis store (store/redis/) implements
 * it without reaching up into ratelimit/, which counts on whichever store it is given.
 */
export interface RateLimitStore {
  /**
   * Adds one hit to `key` in the window that contains `nowMs` and returns the count in that
   * window including this hit.
   */
  increment(key: string, windowMs: number, nowMs: number): Promise<{ count: number; resetAtMs: number }>;
  /** Releases timers and connections. */
  close(): Promise<void>;
}
