/**
 * The holder's API keys from the home and account pages: generate (optionally expiring),
 * rotate (a new key now, the old one working for a grace period), and revoke after a
 * confirmation. Generating and rotating answer with a redirect and show the new key once
 * through a flash (src/web/flash.ts), so a reload never makes another key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError, QuarryError } from '../../errors/index.ts';
import { field, pageContext, type WebContext } from '../context.ts';
import { setFlash } from '../flash.ts';
import { when } from '../layout.ts';
import { confirmPage } from '../pages/confirm.ts';
import { EXPIRY_DAYS } from '../pages/keys.ts';
import { requireAccount, safeNext } from '../session.ts';
import { sendAccount, signInRedirect } from './account.ts';
import { sendHome } from './home.ts';

/** How long a rotated key keeps working, so programs can move to the new one. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

type Back = '/' | '/account';

function backOf(value: unknown): Back {
  return safeNext(value) === '/account' ? '/account' : '/';
}

/** The expiry chosen in the form: one of the offered day counts (0 or nothing: never). */
function expiryOf(body: unknown, now: number): number | undefined {
  const text = field(body, 'expiresInDays');
  const days = Number(text);
  if (text === '' || days === 0) return undefined;
  if (!EXPIRY_DAYS.includes(days)) {
    throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
      params: {
        field: 'key expiry',
        detail: `choose one of ${EXPIRY_DAYS.filter((d) => d > 0).join(', ')} days, or never`,
      },
    });
  }
  return now + days * DAY_MS;
}

export function keyRoutes(app: FastifyInstance, ctx: WebContext): void {
  const withCsrf = { preHandler: app.csrfProtection.bind(app) };

  const generate = (back: Back) => async (request: FastifyRequest, reply: FastifyReply) => {
    const account = requireAccount(request);
    try {
      const expiresAt = expiryOf(request.body, ctx.clock.now());
      const { key, info } = await ctx.accounts.createKey(
        account.id,
        field(request.body, 'name'),
        expiresAt === undefined ? {} : { expiresAt },
      );
      setFlash(request, reply, { kind: 'new-key', key, name: info.name });
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      return back === '/'
        ? sendHome(ctx, request, reply, { error })
        : sendAccount(ctx, request, reply, account, { error });
    }
    return reply.redirect(`${back === '/' ? '/' : '/account'}#new-key`, 303);
  };
  app.post('/keys', withCsrf, generate('/'));
  app.post('/account/keys', withCsrf, generate('/account'));

  /** The signed-in holder's key `id` (only their own keys are found). */
  async function ownKey(request: FastifyRequest<{ Params: { id: string } }>) {
    const account = requireAccount(request);
    const id = request.params.id;
    const key = /^\d+$/.test(id)
      ? (await ctx.accounts.listKeys(account.id)).find((k) => k.id === Number(id))
      : undefined;
    if (!key) throw QuarryError.of('SERVICE_KEY_NOT_FOUND', { params: { key: id.slice(0, 40) } });
    return { account, key };
  }

  app.post<{ Params: { id: string } }>('/keys/:id/rotate', withCsrf, async (request, reply) => {
    const { account, key: current } = await ownKey(request);
    const back = backOf(field(request.body, 'back'));
    const { key, info, old } = await ctx.accounts.rotateKey(account.id, current.id, ROTATION_GRACE_MS);
    setFlash(request, reply, {
      kind: 'new-key',
      key,
      name: info.name,
      rotatedFrom: `It replaces the key ${old.prefix}…, which keeps working until ${when(old.revokedAt)} so your programs can move to the new one; revoke it sooner from the list below.`,
    });
    return reply.redirect(`${back}#new-key`, 303);
  });

  app.get<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    if (!request.web.account) return signInRedirect(request, reply);
    const { key } = await ownKey(request);
    const back = backOf((request.query as Record<string, unknown>).back);
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
    const { account, key } = await ownKey(request);
    const back = backOf(field(request.body, 'back'));
    // Only the confirmation page's form says yes; anything else is sent there first.
    if (field(request.body, 'confirm') !== 'yes') return reply.redirect(`/keys/${key.id}/revoke?back=${back}`, 303);
    await ctx.accounts.revokeKey(account.id, key.id);
    return reply.redirect(`${back}?notice=key-revoked`, 303);
  });
}
