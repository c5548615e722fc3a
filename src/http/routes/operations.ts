import type { FastifyPluginCallback } from 'fastify';
import { QuarryError } from '../../errors/index.ts';
import type { ServiceContext } from '../context.ts';

/** Health, readiness and metrics for the operator (docs/operations.md). */
export const operationsRoutes: FastifyPluginCallback<{ ctx: ServiceContext }> = (app, { ctx }, done) => {
  app.get('/healthz', { schema: { tags: ['operations'], summary: 'The process is up' } }, () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['operations'], summary: 'The database answers' } }, async () => {
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
  });

  app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics' } }, async (_request, reply) => {
    const body = await ctx.metrics.registry.metrics();
    return reply.type(ctx.metrics.registry.contentType).send(body);
  });
  done();
};
