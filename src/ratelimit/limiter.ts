import type { Clock } from '../identity/clock.ts';
import type { RateLimitStore } from '../store/rate-limits.ts';

export interface RateLimitRule {
  /** Requests allowed per window. */
  readonly max: number;
  readonly windowSeconds: number;
}

/** The outcome of one request against a limit, with what the IETF RateLimit headers say. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (at least 1). */
  readonly resetSeconds: number;
  readonly windowSeconds: number;
}

/**
 * Fixed-window counting on an injected clock: the (max + 1)-th request inside a window is
 * refused until the window ends.
 *
 * @example
 * const limiter = new RateLimiter({ store: new MemoryRateLimitStore(), clock: systemClock });
 * await limiter.consume('v2:account:7', { max: 30, windowSeconds: 60 }); // { allowed: true, remaining: 29, ... }
 */
export class RateLimiter {
  readonly #store: RateLimitStore;
  readonly #clock: Clock;

  constructor(options: { store: RateLimitStore; clock: Clock }) {
    this.#store = options.store;
    this.#clock = options.clock;
  }

  async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const now = this.#clock.now();
    const windowMs = rule.windowSeconds * 1000;
    const { count, resetAtMs } = await this.#store.increment(key, windowMs, now);
    return {
      allowed: count <= rule.max,
      limit: rule.max,
      remaining: Math.max(0, rule.max - count),
      resetSeconds: Math.max(1, Math.ceil((resetAtMs - now) / 1000)),
      windowSeconds: rule.windowSeconds,
    };
  }
}

/** The IETF RateLimit response headers (and Retry-After when refused) for a decision. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.resetSeconds);
  return headers;
}
