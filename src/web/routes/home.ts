/** `/` and its forms: sign in (password or login code), sign out, request access, generate and revoke keys. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../http/status.ts';
import { baseUrlOf, field, noticeOf, pageContext, type WebContext } from '../context.ts';
import { homePage, type HomeData } from '../pages/home.ts';
import { enforceWebLimit } from '../rate-limit.ts';
import { clearSessionCookie, requireAccount, safeNext, setSessionCookie } from '../session.ts';
import { setFlash, takeFlash } from '../flash.ts';
import { confirmPage } from '../pages/confirm.ts';
import { signInRedirect } from './account.ts';

/** Sends the home page; an error in `extra` sets the status the API would use for it. */
export async function sendHome(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  extra: Partial<HomeData> = {},
): Promise<FastifyReply> {
  const account = request.web.account;
  const keys = account ? await ctx.accounts.listKeys(account.id) : [];
  const data: HomeData = { baseUrl: baseUrlOf(request), config: ctx.config, keys, ...extra };
  const status = extra.error ? STATUS_BY_CATEGORY[extra.error.category] : 200;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(homePage(pageContext(ctx, request, reply), data).toString());
}

async function startSession(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  accountId: number,
  next: string,
): Promise<FastifyReply> {
  if (request.web.sessionId) await ctx.accounts.endSession(request.web.sessionId);
  const { sessionId, expiresAt } = await ctx.accounts.createSession(accountId);
  setSessionCookie(request, reply, sessionId, expiresAt);
  return reply.redirect(safeNext(next), 303);
}

export function homeRoutes(app: FastifyInstance, ctx: WebContext): void {
  const withCsrf = { preHandler: app.csrfProtection.bind(app) };

  app.get('/', async (request, reply) => {
    const next = (request.query as Record<string, unknown>).next;
    const notice = noticeOf(request);
    const flash = takeFlash(request, reply);
    return sendHome(ctx, request, reply, {
      ...(flash?.kind === 'new-key' ? { newKey: { key: flash.key, name: flash.name } } : {}),
      ...(notice ? { notice } : {}),
      ...(typeof next === 'string' ? { next: safeNext(next) } : {}),
    });
  });

  app.post('/sign-in', withCsrf, async (request, reply) => {
    const email = field(request.body, 'email');
    const next = field(request.body, 'next');
    try {
      await enforceWebLimit(ctx.limits, request, reply, 'authentication', undefined);
      const password = (request.body as Record<string, unknown>).password;
      const account =
        email !== '' && typeof password === 'string' && password !== ''
          ? await ctx.accounts.verifyPassword(email, password)
          : undefined;
      if (!account) throw QuarryError.of('SERVICE_CREDENTIALS_INVALID');
      return await startSession(ctx, request, reply, account.id, next);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return sendHome(ctx, request, reply, { error, email, next: safeNext(next) });
    }
  });

  app.post('/sign-in/code', withCsrf, async (request, reply) => {
    const email = field(request.body, 'email');
    const next = field(request.body, 'next');
    try {
      await enforceWebLimit(ctx.limits, request, reply, 'authentication', undefined);
      const accountId = ctx.store.consumeLoginCode(field(request.body, 'code'), ctx.clock.now());
      const account = accountId === undefined ? undefined : await ctx.accounts.findAccount(accountId);
      if (!account || account.email.toLowerCase() !== email.toLowerCase()) {
        throw QuarryError.of('WEB_LOGIN_CODE_INVALID', { params: { contact: ctx.config.adminContact } });
      }
      return await startSession(ctx, request, reply, account.id, next);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return sendHome(ctx, request, reply, { error, email, next: safeNext(next) });
    }
  });

  app.post('/sign-out', withCsrf, async (request, reply) => {
    if (request.web.sessionId) await ctx.accounts.endSession(request.web.sessionId);
    clearSessionCookie(request, reply);
    return reply.redirect('/?notice=signed-out', 303);
  });

  app.post('/request-access', withCsrf, async (request, reply) => {
    try {
      await enforceWebLimit(ctx.limits, request, reply, 'authentication', undefined);
      const name = field(request.body, 'name').slice(0, 200);
      await ctx.accounts.createAccount({ email: field(request.body, 'email'), ...(name ? { name } : {}) });
    } catch (error) {
      // An existing address gets the same answer, so the form does not tell who has an account.
      if (!isQuarryError(error)) throw error;
      if (error.code !== 'SERVICE_ACCOUNT_EXISTS') return sendHome(ctx, request, reply, { error });
    }
    return reply.redirect('/?notice=requested', 303);
  });

  // POST-redirect-GET: the new key travels to the page in a one-time flash, so a reload
  // shows the page again without making another key.
  app.post('/keys', withCsrf, async (request, reply) => {
    const account = requireAccount(request);
    try {
      const { key, info } = await ctx.accounts.createKey(account.id, field(request.body, 'name'));
      setFlash(request, reply, { kind: 'new-key', key, name: info.name });
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return sendHome(ctx, request, reply, { error });
    }
    return reply.redirect('/#new-key', 303);
  });

  /** The signed-in holder's key `id` (only their own keys are found), and where to go back. */
  async function ownKey(request: FastifyRequest<{ Params: { id: string } }>, back: unknown) {
    const account = requireAccount(request);
    const id = request.params.id;
    const key = /^\d+$/.test(id)
      ? (await ctx.accounts.listKeys(account.id)).find((k) => k.id === Number(id))
      : undefined;
    if (!key) throw QuarryError.of('SERVICE_KEY_NOT_FOUND', { params: { key: id.slice(0, 40) } });
    return { account, key, back: safeNext(back) === '/account' ? '/account' : '/' };
  }

  app.get<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    const { key, back } = await ownKey(request, (request.query as Record<string, unknown>).back);
    return reply.type('text/html; charset=utf-8').send(
      confirmPage(pageContext(ctx, request, reply), {
        title: `Revoke the key “${key.name}”?`,
        consequences: `Programs using the key ${key.prefix}… stop working at once: new tokens are refused and tokens already issued for it fail from their next request. This cannot be undone; you can generate a new key afterwards.`,
        action: `/keys/${key.id}/revoke`,
        confirmLabel: 'Revoke the key',
        cancelHref: back,
        fields: { back },
      }).toString(),
    );
  });

  app.post<{ Params: { id: string } }>('/keys/:id/revoke', withCsrf, async (request, reply) => {
    const { account, key, back } = await ownKey(request, field(request.body, 'back'));
    // Only the confirmation page's form says yes; anything else is sent there first.
    if (field(request.body, 'confirm') !== 'yes') return reply.redirect(`/keys/${key.id}/revoke?back=${back}`, 303);
    await ctx.accounts.revokeKey(account.id, key.id);
    return reply.redirect(`${back}?notice=key-revoked`, 303);
  });
}
