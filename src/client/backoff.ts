/**
 * How long to wait before trying again. Separate from the transport so the arithmetic can
 * be checked without a network.
 */

/** Retry settings of a client; every field has a default (`DEFAULT_RETRY`). */
export interface RetryPolicy {
  /** Further attempts after a network error or a passing 5xx (so at most 1 + this many requests). */
  readonly maxRetries: number;
  /** The first backoff; it doubles with each retry up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The most one call may spend waiting on 429 answers, Retry-After included. */
  readonly rateLimitBudgetMs: number;
  /** One HTTP request's time limit; running past it counts as a network error. */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  rateLimitBudgetMs: 5 * 60_000,
  requestTimeoutMs: 120_000,
};

/**
 * Exponential backoff with "equal jitter": half of the doubled delay is fixed, half random,
 * so clients that failed together do not come back together, yet never retry at once.
 *
 * @example backoffDelay(0, policy, () => 0.5) // 375 with baseDelayMs 500: 250 + 0.5 * 250
 */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Reads a `Retry-After` header: whole seconds or an HTTP date. Undefined when absent or
 * unreadable (the caller then backs off on its own).
 *
 * @example parseRetryAfter('3', Date.now()) // 3000
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
