import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { QuarryError } from '../errors/index.ts';
import { rateLimitHeaders } from '../ratelimit/limiter.ts';
import type { ServiceContext } from './context.ts';
import type { LimitRule } from './route-config.ts';

/**
 * Counts the request against its rule, sets the RateLimit headers, and throws
 * SERVICE_RATE_LIMITED (429, with Retry-After) when the budget is spent. The bucket is the
 * account for account-scoped rules once the caller is known, the client IP otherwise
 * (requests that fail authentication on an account-scoped route are counted per IP).
 * Per-account overrides replace the rule's numbers for query requests.
 */
export async function enforceLimit(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  rule: LimitRule,
  principal: Principal | null,
): Promise<void> {
  if (!ctx.config.rateLimits.enabled) return;
  const setting = ctx.config.rateLimits[rule];
  const override = rule === 'authentication' ? undefined : principal?.limits;
  const max = override?.queriesPerWindow ?? setting.max;
  const windowSeconds = override?.windowSeconds ?? setting.windowSeconds;
  const byAccount = setting.scope === 'account' && principal !== null;
  const key = byAccount ? `${rule}:account:${principal.accountId}` : `${rule}:ip:${request.ip}`;
  const decision = await ctx.limiter.consume(key, { max, windowSeconds });
  reply.headers(rateLimitHeaders(decision));
  if (decision.allowed) return;
  ctx.metrics.rateLimitRejections.inc({ rule });
  if (principal) ctx.accounts.recordUsage(principal.accountId, { rejections: 1 });
  throw QuarryError.of('SERVICE_RATE_LIMITED', {
    params: {
      limit: max,
      windowSeconds,
      scope: byAccount ? 'per account' : 'per client address',
      retryAfter: decision.resetSeconds,
    },
  });
}
