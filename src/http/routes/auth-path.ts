import type { FastifyPluginCallback } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { countToken } from '../metrics.ts';
import { credentialsOf } from '../query-text.ts';
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
import type { AuthPathEndpoint } from '../versions.ts';

const QUERY_ENDPOINTS: ReadonlyArray<{
  path: string;
  endpoint: AuthPathEndpoint;
  operationId: string;
  summary: string;
}> = [
  {
    path: '/api/dsl/v1',
    endpoint: 'v1',
    operationId: 'queryDslV1',
    summary: 'Run a query in DSL version 1 (deprecated; removed on the configured date)',
  },
  { path: '/api/dsl/v2', endpoint: 'v2', operationId: 'queryDslV2', summary: 'Run a query in DSL version 2' },
  {
    path: '/api/dsl',
    endpoint: 'alias',
    operationId: 'queryDsl',
    summary: 'Run a query in the current DSL version (alias)',
  },
  {
    path: '/api/dsl.json',
    endpoint: 'alias',
    operationId: 'queryDslJson',
    summary: 'Run a query in the current DSL version (second alias)',
  },
];

/** Version 1 examples: the fields version 2 removed still work there, with a warning. */
const V1_EXAMPLES = {
  basic: {
    summary: 'Records in version 1',
    value: 'search publications return publications[id + title + year] limit 5',
  },
  removedField: {
    summary: 'A field version 2 removed (FOR)',
    value: 'search publications return publications[id + FOR] limit 5',
  },
  describe: { summary: 'The version this endpoint runs', value: 'describe version' },
};

/** The login body: a key, or a legacy username and password (empty strings count as absent). */
const AUTH_BODY = {
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          key: { type: 'string', description: 'Your API key; wins over username and password' },
          username: { type: 'string', description: 'Legacy accounts only' },
          password: { type: 'string', description: 'Legacy accounts only' },
        },
        examples: [{ key: 'qry_your_api_key' }],
      },
    },
  },
};

/** The auth-path family (spec/protocol.md §2): JWT login and the DSL endpoints, limited per client IP. */
export const authPathRoutes: FastifyPluginCallback<{ ctx: ServiceContext }> = (app, { ctx }, done) => {
  for (const path of ['/api/auth', '/api/auth.json']) {
    app.post(
      path,
      {
        config: { family: 'auth', limitRule: 'authentication' },
        schema: {
          tags: ['auth-path'],
          operationId: path === '/api/auth' ? 'login' : 'loginJson',
          security: [],
          body: AUTH_BODY,
          response: {
            200: {
              description: 'The JWT, to send as `Authorization: JWT <token>`',
              headers: RATE_LIMIT_HEADERS,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['token'],
                    properties: { token: { type: 'string', description: 'A JWT (three dot-separated parts)' } },
                  },
                },
              },
            },
            ...errorResponses(['input', 'authentication', 'permission', 'rate_limit', 'unavailable'], {
              rateLimited: true,
            }),
          },
          summary: 'Log in with an API key (or a legacy username and password) for a JWT',
          description:
            'Body: JSON {"key": "..."} or {"username": "...", "password": "..."}; empty strings count as absent and a key wins. ' +
            'Answers {"token": "<JWT>"}; send it as `Authorization: JWT <token>`.',
        },
      },
      async (request, reply) => {
        await enforceLimit(ctx, request, reply, 'authentication', null);
        const token = await countToken(ctx.metrics, 'auth', 'issue', ctx.tokens.issueJwt(credentialsOf(request.body)));
        return reply.type('application/json; charset=utf-8').send({ token });
      },
    );
  }
  for (const { path, endpoint, operationId, summary } of QUERY_ENDPOINTS) {
    app.post(
      path,
      {
        config: { family: 'auth', limitRule: 'authPath' },
        schema: {
          tags: ['auth-path'],
          operationId,
          summary,
          description:
            'The body is the query text as is, under any Content-Type. Send `Authorization: JWT <token>`.' +
            (endpoint === 'v1'
              ? ' Version 1 answers carry `Deprecation`, `Sunset` and a `Link` to the migration notes; once removed it answers 410.'
              : ''),
          ...(endpoint === 'v1' ? { deprecated: true } : {}),
          security: [{ jwt: [] }],
          body: queryBody(endpoint === 'v1' ? V1_EXAMPLES : undefined),
          response: {
            200: {
              description: 'The result',
              headers: QUERY_SUCCESS_HEADERS,
              content: { 'application/json': { schema: QUERY_RESULT_SCHEMA } },
            },
            // The aliases reach version 1 too when configured so (spec/protocol.md §6).
            ...errorResponses(endpoint === 'v2' ? QUERY_ERROR_CATEGORIES : [...QUERY_ERROR_CATEGORIES, 'gone'], {
              rateLimited: true,
              authScheme: 'JWT',
            }),
          },
        },
      },
      queryHandler(ctx, { family: 'auth', rule: 'authPath', endpoint }),
    );
  }
  done();
};
