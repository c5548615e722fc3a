/**
 * `/console` and its JSON endpoint `/console/api/query`. The endpoint is the API's own query
 * handler (src/http/run-query.ts) with the signed-in holder as the principal: the same
 * standing and subscription checks as a token (the console is an auth-path client), the
 * same rate limit and usage counts, the same deadline, metric, result and error bodies.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { QuarryError } from '../../errors/index.ts';
import { queryTextOf } from '../../http/query-text.ts';
import { queryHandler } from '../../http/run-query.ts';
import { baseUrlOf, pageContext, type WebContext } from '../context.ts';
import { consolePage } from '../pages/console.ts';
import { requireAccount } from '../session.ts';
import { signInRedirect } from './account.ts';

interface ConsoleQueryBody {
  readonly query?: unknown;
  readonly version?: unknown;
}

function bodyOf(request: FastifyRequest): ConsoleQueryBody {
  return request.body ?? {};
}

export function consoleRoutes(app: FastifyInstance, ctx: WebContext): void {
  const { versions } = ctx.service;

  app.get('/console', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    return reply.type('text/html; charset=utf-8').send(
      consolePage(pageContext(ctx, request, reply), {
        baseUrl: baseUrlOf(request),
        v1Served: versions.v1RemovedFromMs === null || ctx.clock.now() < versions.v1RemovedFromMs,
      }).toString(),
    );
  });

  app.post(
    '/console/api/query',
    { preHandler: app.csrfProtection.bind(app) },
    queryHandler(ctx.service, {
      family: 'auth',
      rule: 'authPath',
      endpoint: (request) => {
        const { version } = bodyOf(request);
        return version === 1 || version === '1' ? 'v1' : 'v2';
      },
      principal: (request) => Promise.resolve(ctx.service.tokens.principalFor(requireAccount(request), 'auth')),
      text: (request) => {
        const { query } = bodyOf(request);
        if (typeof query !== 'string') throw QuarryError.of('SERVICE_QUERY_EMPTY');
        return queryTextOf(query, ctx.config.query.maxBytes);
      },
    }),
  );
}
