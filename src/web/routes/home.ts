/** `/` and its forms: sign in (password or login code), sign out, request access (keys: routes/keys.ts). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../http/status.ts';
import { baseUrlOf, field, noticeOf, pageContext, type WebContext } from '../context.ts';
import { homePage, type HomeData } from '../pages/home.ts';
import { consumeLoginCode } from '../../accounts/login-codes.ts';
import { requireActive } from '../../accounts/standing.ts';
import type { Account } from '../../identity/account-types.ts';
import { enforceLimit } from '../../http/rate-limit.ts';
import { clearSessionCookie, safeNext, setSessionCookie } from '../session.ts';
import { takeFlash } from '../flash.ts';

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

/**
 * Signs the account in, replacing the browser's session. Only an active account may: any
 * other is refused (403, saying whom to contact) once its credentials have been checked, so
 * the answer tells an account's state only to its holder.
 */
async function startSession(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account,
  next: string,
): Promise<FastifyReply> {
  requireActive(account, ctx.config.adminContact);
  if (request.web.sessionId) await ctx.accounts.endSession(request.web.sessionId);
  const { sessionId, expiresAt } = await ctx.accounts.createSession(account.id);
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
      ...(flash?.kind === 'new-key' ? { newKey: flash } : {}),
      ...(notice ? { notice } : {}),
      ...(typeof next === 'string' ? { next: safeNext(next) } : {}),
    });
  });

  app.post('/sign-in', withCsrf, async (request, reply) => {
    const email = field(request.body, 'email');
    const next = field(request.body, 'next');
    try {
      await enforceLimit(ctx.service, request, reply, 'authentication', null);
      const password = (request.body as Record<string, unknown>).password;
      const account =
        email !== '' && typeof password === 'string' && password !== ''
          ? await ctx.accounts.verifyPassword(email, password)
          : undefined;
      if (!account) throw QuarryError.of('SERVICE_CREDENTIALS_INVALID');
      return await startSession(ctx, request, reply, account, next);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return sendHome(ctx, request, reply, { error, email, next: safeNext(next) });
    }
  });

  app.post('/sign-in/code', withCsrf, async (request, reply) => {
    const email = field(request.body, 'email');
    const next = field(request.body, 'next');
    try {
      await enforceLimit(ctx.service, request, reply, 'authentication', null);
      const accountId = await consumeLoginCode(ctx.loginCodes, field(request.body, 'code'), ctx.clock.now());
      const account = accountId === undefined ? undefined : await ctx.accounts.findAccount(accountId);
      if (!account || account.email.toLowerCase() !== email.toLowerCase()) {
        throw QuarryError.of('WEB_LOGIN_CODE_INVALID', { params: { contact: ctx.config.adminContact } });
      }
      return await startSession(ctx, request, reply, account, next);
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
      await enforceLimit(ctx.service, request, reply, 'authentication', null);
      const name = field(request.body, 'name').slice(0, 200);
      await ctx.accounts.createAccount({ email: field(request.body, 'email'), ...(name ? { name } : {}) });
    } catch (error) {
      // An existing address gets the same answer, so the form does not tell who has an account.
      if (!isQuarryError(error)) throw error;
      if (error.code !== 'SERVICE_ACCOUNT_EXISTS') return sendHome(ctx, request, reply, { error });
    }
    return reply.redirect('/?notice=requested', 303);
  });
}
