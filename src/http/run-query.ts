import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Family } from '../identity/account-types.ts';
import type { Principal } from '../auth/principal.ts';
import type { DslVersion, QueryOutcome } from '../engine/types.ts';
import { isQuarryError, QuarryError } from '../errors/index.ts';
import type { ServiceContext } from './context.ts';
import { queryTextOf, bearerOf } from './query-text.ts';
import { countToken } from './metrics.ts';
import { enforceLimit } from './rate-limit.ts';
import type { LimitRule } from './route-config.ts';
import { resolveVersion, type AuthPathEndpoint } from './versions.ts';
import { LOGIN_PATHS } from '../auth/tokens.ts';

/**
 * The HTTP layer's backstop, should the engine fail to answer: the engine's own limit counts
 * from when a worker starts the query, so the backstop allows that much again for waiting
 * in the engine's queue (bounded by the per-caller cap), plus time to report.
 */
const backstopMs = (timeoutMs: number) => 2 * timeoutMs + 2000;

/**
 * One caller of the query handler: an API endpoint of either family, or the web console.
 * The defaults are the API's; the console supplies its own principal, text and version.
 */
export interface QueryRouteOptions {
  readonly family: Family;
  readonly rule: LimitRule;
  /**
   * Auth-path endpoints choose their DSL version by date; token-path always runs v2. A
   * function chooses per request (the console's version switch).
   */
  readonly endpoint?: AuthPathEndpoint | ((request: FastifyRequest) => AuthPathEndpoint);
  /** Who is asking; by default the token in the Authorization header. */
  readonly principal?: (request: FastifyRequest) => Promise<Principal>;
  /** The query text; by default the raw body (or the `query` member of a JSON body). */
  readonly text?: (request: FastifyRequest) => string;
}

/**
 * The handler shared by every query endpoint of both families and by the web console:
 * version → principal (token or session, with the account's standing and subscription) →
 * rate limit → query text → engine (with a deadline backstop) → JSON result with a
 * Server-Timing header, and the query-duration metric either way.
 */
export function queryHandler(ctx: ServiceContext, options: QueryRouteOptions) {
  const principalOf = options.principal ?? ((request: FastifyRequest) => authenticate(ctx, request, options.family));
  const textOf = options.text ?? ((request: FastifyRequest) => queryTextOf(request.body, ctx.config.query.maxBytes));
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const started = performance.now();
    let dslVersion: DslVersion = 2;
    const endpoint = typeof options.endpoint === 'function' ? options.endpoint(request) : options.endpoint;
    if (endpoint !== undefined) {
      const resolved = resolveVersion(endpoint, ctx.clock.now(), ctx.versions);
      dslVersion = resolved.dslVersion;
      reply.headers(resolved.headers);
    }
    request.dslVersion = dslVersion;
    let principal: Principal;
    try {
      principal = await principalOf(request);
    } catch (error) {
      await enforceLimit(ctx, request, reply, options.rule, null);
      throw error;
    }
    request.principal = principal;
    await enforceLimit(ctx, request, reply, options.rule, principal);
    ctx.accounts.recordUsage(principal.accountId, { requests: 1 });
    const text = textOf(request);
    request.queryText = text;
    let outcome: QueryOutcome;
    try {
      outcome = await runWithDeadline(ctx, request, reply, text, dslVersion, principal);
    } catch (error) {
      const category = isQuarryError(error) ? error.category : 'internal';
      if (isQuarryError(error) && error.code === 'ENGINE_PRINCIPAL_BUSY')
        ctx.metrics.rateLimitRejections.inc({ rule: 'query.maxPerPrincipal' });
      ctx.metrics.queryDuration.observe(
        { family: options.family, source: 'unknown', result: 'unknown', cost: 'unknown', outcome: category },
        (performance.now() - started) / 1000,
      );
      throw error;
    }
    const totalMs = performance.now() - started;
    const {
      source,
      result,
      cost = 'none',
    } = outcome.labels ?? { source: 'unknown', result: 'unknown', cost: 'unknown' };
    ctx.metrics.queryDuration.observe({ family: options.family, source, result, cost, outcome: 'ok' }, totalMs / 1000);
    if (outcome.timings.queueMs !== undefined) ctx.metrics.queueWait.observe(outcome.timings.queueMs / 1000);
    reply.header(
      'Server-Timing',
      `parse;dur=${outcome.timings.parseMs.toFixed(2)}, execute;dur=${outcome.timings.executeMs.toFixed(2)}, total;dur=${totalMs.toFixed(2)}`,
    );
    return reply.type('application/json; charset=utf-8').send(outcome.json);
  };
}

/** The principal behind the request's token; 401 without a usable header, 403 for a bad token. */
export async function authenticate(ctx: ServiceContext, request: FastifyRequest, family: Family): Promise<Principal> {
  const scheme = family === 'token' ? 'Bearer' : 'JWT';
  const token = bearerOf(request.headers.authorization, scheme);
  if (token === undefined)
    throw QuarryError.of('SERVICE_AUTH_HEADER_MISSING', { params: { scheme, loginPath: LOGIN_PATHS[family] } });
  return countToken(
    ctx.metrics,
    family,
    'check',
    family === 'token' ? ctx.tokens.verifyOpaque(token) : ctx.tokens.verifyJwt(token),
  );
}

/** Runs the query, cancelling it when the client goes away (see `runForPrincipal`). */
async function runWithDeadline(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  text: string,
  dslVersion: DslVersion,
  principal: Principal,
): Promise<QueryOutcome> {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
  };
  reply.raw.once('close', onClose);
  try {
    return await runForPrincipal(ctx, { text, dslVersion, principal, signal: controller.signal, log: request.log });
  } finally {
    reply.raw.off('close', onClose);
  }
}

/** One query of a known caller, as `runForPrincipal` takes it. */
export interface PrincipalQuery {
  readonly text: string;
  readonly dslVersion: DslVersion;
  readonly principal: Principal;
  /** Aborts the query (the client went away). */
  readonly signal?: AbortSignal;
  readonly log: FastifyBaseLogger;
}

/**
 * Runs a query for a principal under the query endpoint's rules: the account's entitled
 * sources, the configured time limit, fair scheduling by account. The engine enforces the
 * time limit itself; the deadline here is a backstop should it fail to answer. Shared by the
 * query endpoints and the MCP endpoint's tools.
 */
export async function runForPrincipal(ctx: ServiceContext, query: PrincipalQuery): Promise<QueryOutcome> {
  const timeoutMs = ctx.config.query.timeoutMs;
  const controller = new AbortController();
  const onAbort = () => controller.abort(query.signal?.reason);
  if (query.signal?.aborted) onAbort();
  else query.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error('deadline passed'));
      query.log.warn({ timeoutMs }, 'the engine did not answer within the query time limit');
      reject(QuarryError.of('SERVICE_QUERY_TIMEOUT', { params: { seconds: timeoutMs / 1000 } }));
    }, backstopMs(timeoutMs));
  });
  const { sources } = query.principal.subscription;
  try {
    return await Promise.race([
      ctx.engine.run(query.text, {
        dslVersion: query.dslVersion,
        permissions: sources === 'all' ? {} : { sources },
        signal: controller.signal,
        timeoutMs,
        principal: String(query.principal.accountId),
      }),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
    query.signal?.removeEventListener('abort', onAbort);
  }
}
