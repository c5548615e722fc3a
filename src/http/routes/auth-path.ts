import type { FastifyPluginCallback } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { credentialsOf } from '../query-text.ts';
import { enforceLimit } from '../rate-limit.ts';
import { queryHandler } from '../run-query.ts';
import type { AuthPathEndpoint } from '../versions.ts';

const QUERY_ENDPOINTS: ReadonlyArray<{ path: string; endpoint: AuthPathEndpoint; summary: string }> = [
  {
    path: '/api/dsl/v1',
    endpoint: 'v1',
    summary: 'Run a query in DSL version 1 (deprecated; removed on the configured date)',
  },
  { path: '/api/dsl/v2', endpoint: 'v2', summary: 'Run a query in DSL version 2' },
  { path: '/api/dsl', endpoint: 'alias', summary: 'Run a query in the current DSL version (alias)' },
  { path: '/api/dsl.json', endpoint: 'alias', summary: 'Run a query in the current DSL version (second alias)' },
];

/** The auth-path family (spec/protocol.md §2): JWT login and the DSL endpoints, limited per client IP. */
export const authPathRoutes: FastifyPluginCallback<{ ctx: ServiceContext }> = (app, { ctx }, done) => {
  for (const path of ['/api/auth', '/api/auth.json']) {
    app.post(
      path,
      {
        config: { family: 'auth', limitRule: 'authentication' },
        schema: {
          tags: ['auth-path'],
          summary: 'Log in with an API key (or a legacy username and password) for a JWT',
          description:
            'Body: JSON {"key": "..."} or {"username": "...", "password": "..."}; empty strings count as absent and a key wins. ' +
            'Answers {"token": "<JWT>"}; send it as `Authorization: JWT <token>`.',
        },
      },
      async (request, reply) => {
        await enforceLimit(ctx, request, reply, 'authentication', null);
        const token = await ctx.tokens.issueJwt(credentialsOf(request.body));
        return reply.type('application/json; charset=utf-8').send({ token });
      },
    );
  }
  for (const { path, endpoint, summary } of QUERY_ENDPOINTS) {
    app.post(
      path,
      {
        config: { family: 'auth', limitRule: 'authPath' },
        schema: {
          tags: ['auth-path'],
          summary,
          description: 'The body is the query text as is, under any Content-Type. Send `Authorization: JWT <token>`.',
        },
      },
      queryHandler(ctx, { family: 'auth', rule: 'authPath', endpoint }),
    );
  }
  done();
};
