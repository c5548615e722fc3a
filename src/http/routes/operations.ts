import type { FastifyPluginCallback } from 'fastify';
import { QuarryError } from '../../errors/index.ts';
import type { ServiceContext } from '../context.ts';
import { errorResponses } from '../route-docs.ts';

const status = (value: string) =>
  ({ type: 'object', required: ['status'], properties: { status: { type: 'string', enum: [value] } } }) as const;

/** Health, readiness and metrics for the operator (docs/operations.md). */
export const operationsRoutes: FastifyPluginCallback<{ ctx: ServiceContext }> = (app, { ctx }, done) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'health',
        summary: 'The process is up',
        response: { 200: { description: 'Up', ...status('ok') } },
      },
    },
    () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        operationId: 'ready',
        summary: 'The databases answer and the query workers are ready',
        response: {
          200: { description: 'Ready', ...status('ready') },
          ...errorResponses(['unavailable'], { rateLimited: false }),
        },
      },
    },
    async () => {
      const notReady = ctx.recordsNotReady();
      if (notReady !== undefined) throw QuarryError.of('SERVICE_UNAVAILABLE', { params: { reason: notReady } });
      const [engineReady, storeReady] = await Promise.all([
        ctx.engine.ready().catch(() => false),
        ctx.accounts.store.ping(),
      ]);
      if (!engineReady || !storeReady) {
        throw QuarryError.of('SERVICE_UNAVAILABLE', {
          params: {
            reason: engineReady ? 'the account database does not answer' : 'the record database does not answer',
          },
        });
      }
      return { status: 'ready' };
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        response: {
          200: {
            description: 'The Prometheus text format',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          ...errorResponses([], { rateLimited: false }),
        },
      },
    },
    async (_request, reply) => {
      const body = await ctx.metrics.registry.metrics();
      return reply.type(ctx.metrics.registry.contentType).send(body);
    },
  );
  done();
};
