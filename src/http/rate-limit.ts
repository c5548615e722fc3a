import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { QuarryError } from '../errors/index.ts';
import { rateLimitHeaders } from '../ratelimit/limiter.ts';
import type { ServiceContext } from './context.ts';
import type { LimitRule } from './route-config.ts';

/** What counting one request decided: the RateLimit headers, and the refusal when the budget is spent. */
export interface LimitVerdict {
  readonly headers: Readonly<Record<string, string>>;
  readonly refusal?: QuarryError;
}

/**
 * Counts one request against its rule. The bucket is the account for account-scoped rules
 * once the caller is known, the client address `ip` otherwise. Per-account overrides replace
 * the rule's numbers for query requests. Used by `enforceLimit` for HTTP requests and by the
 * MCP endpoint for each tool call (several of which may share one HTTP request's life).
 */
export async function countAgainstLimit(
  ctx: ServiceContext,
  rule: LimitRule,
  principal: Principal | null,
  ip: string,
): Promise<LimitVerdict> {
  if (!ctx.config.rateLimits.enabled) return { headers: {} };
  const setting = ctx.config.rateLimits[rule];
  const override = rule === 'authentication' ? undefined : principal?.limits;
  const max = override?.queriesPerWindow ?? setting.max;
  const windowSeconds = override?.windowSeconds ?? setting.windowSeconds;
  const byAccount = setting.scope === 'account' && principal !== null;
  const key = byAccount ? `${rule}:account:${principal.accountId}` : `${rule}:ip:${ip}`;
  const decision = await ctx.limiter.consume(key, { max, windowSeconds });
  const headers = rateLimitHeaders(decision);
  if (decision.allowed) return { headers };
  ctx.metrics.rateLimitRejections.inc({ rule });
  if (principal) ctx.accounts.recordUsage(principal.accountId, { rejections: 1 });
  const refusal = QuarryError.of('SERVICE_RATE_LIMITED', {
    params: {
      limit: max,
      windowSeconds,
      scope: byAccount ? 'per account' : 'per client address',
      retryAfter: decision.resetSeconds,
    },
  });
  return { headers, refusal };
}

/**
 * Counts the request against its rule, sets the RateLimit headers, and throws
 * SERVICE_RATE_LIMITED (429, with Retry-After) when the budget is spent. The bucket is the
 * account for account-scoped rules once the caller is known, the client IP otherwise
 * (requests that fail authentication on an account-scoped route are counted per IP).
 */
export async function enforceLimit(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  rule: LimitRule,
  principal: Principal | null,
): Promise<void> {
  const verdict = await countAgainstLimit(ctx, rule, principal, request.ip);
  reply.headers(verdict.headers);
  if (verdict.refusal) throw verdict.refusal;
}
