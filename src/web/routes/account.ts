/** `/account`: the account section, with key generation and password change. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../identity/account-types.ts';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../http/status.ts';
import { baseUrlOf, noticeOf, pageContext, type WebContext } from '../context.ts';
import { accountPage, type AccountData } from '../pages/account.ts';
import { takeFlash } from '../flash.ts';
import { requireAccount } from '../session.ts';

/** Sends a signed-out visitor of a page to the sign-in forms, coming back afterwards. */
export function signInRedirect(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '/';
  return reply.redirect(`/?next=${encodeURIComponent(path)}#sign-in`, 303);
}

export async function sendAccount(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account,
  extra: Partial<AccountData> = {},
): Promise<FastifyReply> {
  const [keys, usage] = await Promise.all([ctx.accounts.listKeys(account.id), ctx.accounts.usage(account.id, 30)]);
  const fresh = await ctx.accounts.getAccount(account.id);
  const data: AccountData = { config: ctx.config, baseUrl: baseUrlOf(request), keys, usage, ...extra };
  const status = extra.error ? STATUS_BY_CATEGORY[extra.error.category] : 200;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(accountPage(pageContext(ctx, request, reply), fresh, data).toString());
}

export function accountRoutes(app: FastifyInstance, ctx: WebContext): void {
  const withCsrf = { preHandler: app.csrfProtection.bind(app) };

  app.get('/account', async (request, reply) => {
    const account = request.web.account;
    if (!account) return signInRedirect(request, reply);
    const notice = noticeOf(request);
    const flash = takeFlash(request, reply);
    return sendAccount(ctx, request, reply, account, {
      ...(notice ? { notice } : {}),
      ...(flash?.kind === 'new-key' ? { newKey: flash } : {}),
    });
  });

  app.post('/account/password', withCsrf, async (request, reply) => {
    const account = requireAccount(request);
    const body = request.body as Record<string, unknown>;
    const current = typeof body.current === 'string' ? body.current : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const confirm = typeof body.confirm === 'string' ? body.confirm : '';
    try {
      if (!account.hasPassword) {
        throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
          params: { field: 'password', detail: 'this account signs in with login codes and has no password to change' },
        });
      }
      const verified = await ctx.accounts.verifyPassword(account.username ?? account.email, current);
      if (verified?.id !== account.id) throw QuarryError.of('SERVICE_CREDENTIALS_INVALID');
      if (password !== confirm) {
        throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
          params: { field: 'new password', detail: 'the two new passwords differ' },
        });
      }
      await ctx.accounts.setPassword(account.id, password);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return sendAccount(ctx, request, reply, account, { error });
    }
    return reply.redirect('/account?notice=password-changed', 303);
  });
}
