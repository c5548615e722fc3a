import { backoffDelay, parseRetryAfter, type RetryPolicy } from './backoff.ts';
import { QuarryClientError, knownCode, parseErrorBody } from './errors.ts';
import { definitionOf } from '../errors/index.ts';

/** What happened on the way, for progress displays, logs and tests. */
export type ClientEvent =
  | { readonly kind: 'login'; readonly family: 'auth' | 'token' }
  | { readonly kind: 'relogin'; readonly reason: string }
  | { readonly kind: 'rate_limited'; readonly waitMs: number; readonly retryAfter: boolean }
  | { readonly kind: 'retry'; readonly attempt: number; readonly waitMs: number; readonly cause: string }
  | {
      readonly kind: 'page';
      readonly skip: number;
      readonly limit: number;
      readonly records: number;
      readonly total: number | undefined;
    };

export interface HttpRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Requests made to get this answer (1 when the first one did). */
  readonly attempts: number;
}

/** The collaborators of a transport; tests replace the clock and the dice. */
export interface TransportOptions {
  readonly retry: RetryPolicy;
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
  readonly onEvent?: (event: ClientEvent) => void;
}

/** Waits `ms`, or rejects with the signal's reason when it is aborted first. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A 5xx worth trying again: a proxy's or an overloaded service's passing failure. A query
 * that ran past the service's time limit (a timeout code) is not: it would time out again.
 */
function isTransient(status: number, text: string): boolean {
  if (status !== 500 && status !== 502 && status !== 503 && status !== 504) return false;
  const code = knownCode(parseErrorBody(status, text)?.code);
  return code === undefined || definitionOf(code).category !== 'timeout';
}

/**
 * Sends HTTP requests and absorbs what is worth absorbing: 429 (waits for Retry-After, or
 * backs off, until the rate-limit budget of this call is spent), passing 5xx answers and
 * network errors (bounded retries with jitter). Every other answer goes back to the caller.
 * Queries are read-only, so sending one again is safe.
 */
export class Transport {
  readonly #options: TransportOptions;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #now: () => number;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
    this.#sleep = options.sleep ?? abortableSleep;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  emit(event: ClientEvent): void {
    this.#options.onEvent?.(event);
  }

  async send(request: HttpRequest, signal?: AbortSignal): Promise<HttpAnswer> {
    const policy = this.#options.retry;
    let failures = 0;
    let rateLimitedTimes = 0;
    let waitedOnLimitsMs = 0;
    let attempts = 0;
    for (;;) {
      signal?.throwIfAborted();
      attempts++;
      let answer: HttpAnswer | undefined;
      let networkError: unknown;
      try {
        answer = await this.#once(request, attempts, signal);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        networkError = error;
      }
      if (answer !== undefined && answer.status === 429) {
        const fromHeader = parseRetryAfter(answer.headers.get('retry-after'), this.#now());
        // A little jitter after Retry-After: callers limited together spread out again.
        const waitMs =
          fromHeader !== undefined
            ? fromHeader + Math.round(this.#random() * 100)
            : backoffDelay(rateLimitedTimes, policy, this.#random);
        rateLimitedTimes++;
        if (waitedOnLimitsMs + waitMs > policy.rateLimitBudgetMs) {
          const server = parseErrorBody(answer.status, answer.text);
          throw QuarryClientError.client(
            'CLIENT_RATE_LIMIT_BUDGET_EXHAUSTED',
            {
              waitedSeconds: Math.round(waitedOnLimitsMs / 1000),
              budgetSeconds: Math.round(policy.rateLimitBudgetMs / 1000),
            },
            server,
          );
        }
        this.emit({ kind: 'rate_limited', waitMs, retryAfter: fromHeader !== undefined });
        waitedOnLimitsMs += waitMs;
        await this.#sleep(waitMs, signal);
        continue;
      }
      if (answer !== undefined && !isTransient(answer.status, answer.text)) return answer;
      if (failures >= policy.maxRetries) {
        if (answer !== undefined) return answer;
        const reason = describeNetworkError(networkError);
        throw QuarryClientError.client(
          'CLIENT_NETWORK_FAILED',
          { url: request.url.replace(/([?&]api_key=)[^&]*/i, '$1…'), attempts, reason },
          undefined,
          { cause: networkError },
        );
      }
      const waitMs = backoffDelay(failures, policy, this.#random);
      failures++;
      this.emit({
        kind: 'retry',
        attempt: failures,
        waitMs,
        cause: answer !== undefined ? `HTTP ${answer.status}` : describeNetworkError(networkError),
      });
      await this.#sleep(waitMs, signal);
    }
  }

  async #once(request: HttpRequest, attempts: number, signal?: AbortSignal): Promise<HttpAnswer> {
    const timeout = AbortSignal.timeout(this.#options.retry.requestTimeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const response = await this.#fetch(request.url, {
      method: request.method,
      headers: request.headers ?? {},
      ...(request.body !== undefined ? { body: request.body } : {}),
      signal: combined,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, attempts };
  }
}

/** A short reason for a failed request, without URLs (they may carry a key). */
export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'the request timed out';
  const cause = (error as { cause?: unknown }).cause;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  if (code !== undefined) return code;
  if (cause instanceof Error) return cause.message;
  return error.message;
}
