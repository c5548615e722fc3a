/** `/admin`: administrators list, activate and suspend accounts, edit subscriptions, issue login codes. */
import { issueLoginCode } from '../../accounts/login-codes.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account, Subscription } from '../../identity/account-types.ts';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../http/status.ts';
import { field, fieldList, noticeOf, pageContext, type WebContext } from '../context.ts';
import { accountFilterOf, adminPage, type AdminData } from '../pages/admin.ts';
import { confirmPage } from '../pages/confirm.ts';
import { setFlash, takeFlash } from '../flash.ts';
import { SOURCE_NAMES } from '../../model/types.ts';
import { didYouMean } from '../../schema/suggest.ts';
import { requireAccount } from '../session.ts';
import { signInRedirect } from './account.ts';

/** The signed-in account, when it is an administrator's; WEB_ADMIN_REQUIRED otherwise. */
export function requireAdmin(request: FastifyRequest): Account {
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
  const data: AdminData = {
    accounts: await ctx.accounts.listAccounts(),
    adminIds: await ctx.store.adminIds(),
    selfId: request.web.account?.id ?? -1,
    filter: accountFilterOf(request.query as Record<string, unknown>),
    offersGroups: ctx.groups !== undefined,
    ...extra,
  };
  const status = extra.error ? STATUS_BY_CATEGORY[extra.error.category] : 200;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(adminPage(pageContext(ctx, request, reply), data).toString());
}

/**
 * The sources of a comma-separated list, each one a source of the schema; an unknown name
 * (`patentz`) is refused with the names there are.
 */
function knownSources(text: string): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  for (const name of names) {
    if (!(SOURCE_NAMES as readonly string[]).includes(name)) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: {
          field: 'sources',
          detail: `there is no source '${name}'.${didYouMean(name, SOURCE_NAMES)} The sources are ${SOURCE_NAMES.join(', ')}`,
        },
      });
    }
  }
  return names;
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
    const flash = takeFlash(request, reply);
    return sendAdmin(ctx, request, reply, {
      ...(notice ? { notice } : {}),
      ...(flash?.kind === 'login-code'
        ? { loginCode: { email: flash.email, code: flash.code, expiresAt: flash.expiresAt } }
        : {}),
    });
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

  /** Suspending oneself would lock the administration out; another administrator may. */
  function refuseSelf(request: FastifyRequest, id: number): void {
    if (request.web.account?.id === id) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: { field: 'account', detail: 'you cannot suspend your own account (another administrator can)' },
      });
    }
  }

  app.get<WithId>('/admin/accounts/:id/suspend', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    requireAdmin(request);
    const id = accountId(request.params.id);
    refuseSelf(request, id);
    const account = await ctx.accounts.getAccount(id);
    return reply.type('text/html; charset=utf-8').send(
      confirmPage(pageContext(ctx, request, reply), {
        title: `Suspend ${account.email}?`,
        consequences: `The account's keys and tokens stop working from the next request, and its holder can no longer run queries here. You can activate the account again later.`,
        action: `/admin/accounts/${account.id}/suspend`,
        confirmLabel: 'Suspend the account',
        cancelHref: `/admin#acct-${account.id}`,
      }).toString(),
    );
  });

  app.post<WithId>(
    '/admin/accounts/:id/suspend',
    withCsrf,
    change(async (id, request, reply) => {
      refuseSelf(request, id);
      // Only the confirmation page's form says yes; anything else is sent there first.
      if (field(request.body, 'confirm') !== 'yes') return reply.redirect(`/admin/accounts/${id}/suspend`, 303);
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
        sourcesText === '' || sourcesText.toLowerCase() === 'all' ? 'all' : knownSources(sourcesText);
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
      const { code, expiresAt } = await issueLoginCode(ctx.loginCodes, account, ctx.clock.now());
      // POST-redirect-GET: the code is shown once; a reload issues no new one.
      setFlash(request, reply, {
        kind: 'login-code',
        email: account.email,
        code,
        expiresAt: new Date(expiresAt).toISOString(),
      });
      return reply.redirect(`/admin#login-code`, 303);
    }),
  );
}
