/**
 * `/console` and its JSON endpoint `/console/api/query`: the signed-in holder's queries run
 * through the same engine as the API, answer the same result and error bodies, and count
 * against the auth-path family's rate limit and the account's usage.
 */
import type { FastifyInstance } from 'fastify';
import type { DslVersion } from '../../engine/types.ts';
import { QuarryError } from '../../errors/index.ts';
import { queryTextOf } from '../../http/query-text.ts';
import { resolveVersion, versionPolicy } from '../../http/versions.ts';
import { baseUrlOf, pageContext, type WebContext } from '../context.ts';
import { consolePage } from '../pages/console.ts';
import { enforceWebLimit } from '../rate-limit.ts';
import { requireAccount, standingError } from '../session.ts';
import { signInRedirect } from './account.ts';

interface ConsoleQueryBody {
  readonly query?: unknown;
  readonly version?: unknown;
}

export function consoleRoutes(app: FastifyInstance, ctx: WebContext): void {
  const versions = versionPolicy(ctx.config.versions);

  app.get('/console', async (request, reply) => {
    const account = request.web.account;
    if (!account) return signInRedirect(request, reply);
    return reply.type('text/html; charset=utf-8').send(
      consolePage(pageContext(ctx, request, reply), account, ctx.config, {
        baseUrl: baseUrlOf(request),
        v1Served: versions.v1RemovedFromMs === null || ctx.clock.now() < versions.v1RemovedFromMs,
      }).toString(),
    );
  });

  app.post('/console/api/query', { preHandler: app.csrfProtection.bind(app) }, async (request, reply) => {
    const body = (request.body ?? {}) as ConsoleQueryBody;
    const version: DslVersion = body.version === 1 || body.version === '1' ? 1 : 2;
    request.dslVersion = version;
    const account = requireAccount(request);
    if (version === 1) reply.headers(resolveVersion('v1', ctx.clock.now(), versions).headers);
    const refusal = standingError(account, ctx.config.adminContact);
    if (refusal) throw refusal;
    await enforceWebLimit(ctx.limits, request, reply, 'authPath', account);
    ctx.accounts.recordUsage(account.id, { requests: 1 });
    if (typeof body.query !== 'string') throw QuarryError.of('SERVICE_QUERY_EMPTY');
    const text = queryTextOf(body.query, 'text/plain', ctx.config.query.maxBytes);
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('the browser closed the connection'));
    };
    reply.raw.once('close', onClose);
    const { sources } = account.subscription;
    try {
      const outcome = await ctx.engine.run(text, {
        dslVersion: version,
        permissions: sources === 'all' ? {} : { sources },
        signal: controller.signal,
        timeoutMs: ctx.config.query.timeoutMs,
        principal: String(account.id),
      });
      reply.header(
        'Server-Timing',
        `parse;dur=${outcome.timings.parseMs.toFixed(2)}, execute;dur=${outcome.timings.executeMs.toFixed(2)}`,
      );
      return await reply.type('application/json; charset=utf-8').send(outcome.json);
    } finally {
      reply.raw.off('close', onClose);
    }
  });
}
