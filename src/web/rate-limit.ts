/**
 * Rate limits for the pages' own requests, counted like the API counts them: console
 * queries under the auth-path family's rule (same bucket names, so a limiter shared with the
 * API shares the budget), sign-in attempts under the authentication rule per client address.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService } from '../accounts/service.ts';
import type { Account } from '../accounts/types.ts';
import type { QuarryConfig } from '../config.ts';
import { QuarryError } from '../errors/index.ts';
import { rateLimitHeaders, type RateLimiter } from '../ratelimit/limiter.ts';

export interface WebLimits {
  readonly limiter: RateLimiter;
  readonly config: QuarryConfig;
  readonly accounts: AccountService;
}

/**
 * Counts one request against `rule`; sets the RateLimit headers and throws
 * SERVICE_RATE_LIMITED (429 with Retry-After) once the budget is spent.
 */
export async function enforceWebLimit(
  limits: WebLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  rule: 'authPath' | 'authentication',
  account: Account | undefined,
): Promise<void> {
  const { config } = limits;
  if (!config.rateLimits.enabled) return;
  const setting = config.rateLimits[rule];
  const override = rule === 'authentication' ? undefined : account?.limits;
  const max = override?.queriesPerWindow ?? setting.max;
  const windowSeconds = override?.windowSeconds ?? setting.windowSeconds;
  const byAccount = setting.scope === 'account' && account !== undefined;
  const key = byAccount ? `${rule}:account:${account.id}` : `${rule}:ip:${request.ip}`;
  const decision = await limits.limiter.consume(key, { max, windowSeconds });
  reply.headers(rateLimitHeaders(decision));
  if (decision.allowed) return;
  if (account && rule !== 'authentication') limits.accounts.recordUsage(account.id, { rejections: 1 });
  throw QuarryError.of('SERVICE_RATE_LIMITED', {
    params: {
      limit: max,
      windowSeconds,
      scope: byAccount ? 'per account' : 'per client address',
      retryAfter: decision.resetSeconds,
    },
  });
}
