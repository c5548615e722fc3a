/** `/admin`: administrators list, activate and suspend accounts, edit subscriptions, issue login codes. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account, Subscription } from '../../accounts/types.ts';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../http/status.ts';
import { field, fieldList, noticeOf, pageContext, type WebContext } from '../context.ts';
import { adminPage, type AdminData } from '../pages/admin.ts';
import { requireAccount } from '../session.ts';
import { signInRedirect } from './account.ts';

function requireAdmin(request: FastifyRequest): Account {
  const account = requireAccount(request);
  if (!request.web.isAdmin) throw QuarryError.of('WEB_ADMIN_REQUIRED');
  return account;
}

async function sendAdmin(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  extra: Partial<AdminData> = {},
): Promise<FastifyReply> {
  const data: AdminData = { accounts: await ctx.accounts.listAccounts(), adminIds: ctx.store.adminIds(), ...extra };
  const status = extra.error ? STATUS_BY_CATEGORY[extra.error.category] : 200;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(adminPage(pageContext(ctx, request, reply), data).toString());
}

function accountId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw QuarryError.of('SERVICE_ACCOUNT_NOT_FOUND', { params: { account: raw.slice(0, 40) } });
  return Number(raw);
}

export function adminRoutes(app: FastifyInstance, ctx: WebContext): void {
  const withCsrf = { preHandler: app.csrfProtection.bind(app) };
  type WithId = { Params: { id: string } };

  app.get('/admin', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    requireAdmin(request);
    const notice = noticeOf(request);
    return sendAdmin(ctx, request, reply, notice ? { notice } : {});
  });

  /** Runs an administrative change; its coded errors (a closed account, bad input) are shown on the page. */
  const change =
    (work: (id: number, request: FastifyRequest<WithId>, reply: FastifyReply) => Promise<FastifyReply>) =>
    async (request: FastifyRequest<WithId>, reply: FastifyReply): Promise<FastifyReply> => {
      requireAdmin(request);
      try {
        return await work(accountId(request.params.id), request, reply);
      } catch (error) {
        if (!isQuarryError(error)) throw error;
        return sendAdmin(ctx, request, reply, { error });
      }
    };

  app.post<WithId>(
    '/admin/accounts/:id/activate',
    withCsrf,
    change(async (id, _request, reply) => {
      await ctx.accounts.activate(id);
      return reply.redirect(`/admin?notice=activated#acct-${id}`, 303);
    }),
  );

  app.post<WithId>(
    '/admin/accounts/:id/suspend',
    withCsrf,
    change(async (id, _request, reply) => {
      await ctx.accounts.suspend(id);
      return reply.redirect(`/admin?notice=suspended#acct-${id}`, 303);
    }),
  );

  app.post<WithId>(
    '/admin/accounts/:id/subscription',
    withCsrf,
    change(async (id, request, reply) => {
      const sourcesText = field(request.body, 'sources');
      const sources: Subscription['sources'] =
        sourcesText === '' || sourcesText.toLowerCase() === 'all' ? 'all' : sourcesText.split(',');
      const limitText = field(request.body, 'queriesPerMinute');
      const limit = Number(limitText);
      if (limitText !== '' && (!Number.isInteger(limit) || limit < 1)) {
        throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
          params: { field: 'query requests per minute', detail: 'must be a whole number of at least 1, or empty' },
        });
      }
      await ctx.accounts.subscribe(id, {
        families: fieldList(request.body, 'families') as Subscription['families'],
        sources,
      });
      await ctx.accounts.setLimits(id, limitText === '' ? {} : { queriesPerWindow: limit, windowSeconds: 60 });
      return reply.redirect(`/admin?notice=subscription-saved#acct-${id}`, 303);
    }),
  );

  app.post<WithId>(
    '/admin/accounts/:id/login-code',
    withCsrf,
    change(async (id, request, reply) => {
      const account = await ctx.accounts.getAccount(id);
      const { code, expiresAt } = ctx.store.issueLoginCode(account.id, ctx.clock.now());
      reply.header('Cache-Control', 'no-store');
      return sendAdmin(ctx, request, reply, {
        loginCode: { email: account.email, code, expiresAt: new Date(expiresAt).toISOString() },
      });
    }),
  );
}
