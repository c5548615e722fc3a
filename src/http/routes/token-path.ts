import type { FastifyPluginCallback } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { countToken } from '../metrics.ts';
import { enforceLimit } from '../rate-limit.ts';
import {
  errorResponses,
  QUERY_ERROR_CATEGORIES,
  QUERY_SUCCESS_HEADERS,
  queryBody,
  RATE_LIMIT_HEADERS,
} from '../route-docs.ts';
import { QUERY_RESULT_SCHEMA } from '../record-schemas.ts';
import { queryHandler } from '../run-query.ts';

const QUERY_DESCRIPTION =
  'Runs a query (DSL version 2). The body is the query text as is, under any Content-Type; a JSON body {"query": "..."} is accepted too. ' +
  'Send `Authorization: Bearer <token>`. The result holds one array per returned kind plus `_stats`, `_warnings`, `_version`.';

/** The token-path family (spec/protocol.md §1): `/v2` limited per account, `/v3` per client IP. */
export const tokenPathRoutes: FastifyPluginCallback<{ ctx: ServiceContext }> = (app, { ctx }, done) => {
  for (const version of ['v2', 'v3'] as const) {
    app.get(
      `/${version}/token`,
      {
        config: { family: 'token', limitRule: 'authentication' },
        schema: {
          tags: ['token-path'],
          operationId: `getToken${version.toUpperCase()}`,
          summary: 'Exchange an API key for a query token',
          description: 'Answers `text/plain` with the token alone. Tokens live 2 hours by default.',
          querystring: {
            type: 'object',
            properties: { api_key: { type: 'string', description: 'Your API key (qry_...)' } },
          },
          security: [{ apiKey: [] }],
          response: {
            200: {
              description: 'The token, to send as `Authorization: Bearer <token>`',
              headers: RATE_LIMIT_HEADERS,
              content: {
                'text/plain': { schema: { type: 'string', examples: ['3q2-_Zl7b0cW9Qk2sJd8xR4tYv1nE6mA0pLfHgUiKo'] } },
              },
            },
            ...errorResponses(['input', 'authentication', 'permission', 'rate_limit', 'unavailable'], {
              rateLimited: true,
              authScheme: 'Bearer',
            }),
          },
        },
      },
      async (request, reply) => {
        await enforceLimit(ctx, request, reply, 'authentication', null);
        const apiKey = (request.query as Record<string, unknown>).api_key;
        const token = await countToken(
          ctx.metrics,
          'token',
          'issue',
          ctx.tokens.issueOpaque(typeof apiKey === 'string' ? apiKey : undefined, `/${version}/token`),
        );
        return reply.type('text/plain; charset=utf-8').send(token);
      },
    );
    const rule = version === 'v2' ? 'tokenV2' : 'tokenV3';
    app.post(
      `/${version}/api/query`,
      {
        config: { family: 'token', limitRule: rule },
        schema: {
          tags: ['token-path'],
          operationId: `query${version.toUpperCase()}`,
          summary: `Run a query (${version === 'v2' ? 'rate-limited per account' : 'rate-limited per client IP'})`,
          description: QUERY_DESCRIPTION,
          security: [{ bearerToken: [] }],
          body: queryBody(),
          response: {
            200: {
              description: 'The result',
              headers: QUERY_SUCCESS_HEADERS,
              content: { 'application/json': { schema: QUERY_RESULT_SCHEMA } },
            },
            ...errorResponses(QUERY_ERROR_CATEGORIES, { rateLimited: true, authScheme: 'Bearer' }),
          },
        },
      },
      queryHandler(ctx, { family: 'token', rule }),
    );
  }
  done();
};
