/**
 * The web pages as one Fastify plugin: the API home page at `/`, sign-in with password or
 * login code, the account section, the query console and the administration page.
 * `build()` (src/http/app.ts) registers it when `config.web.enabled`.
 *
 * Inside its own encapsulated context it adds cookies, form bodies and CSRF protection
 * (every form and the console's JSON endpoint carry a token bound to a per-browser secret
 * cookie), resolves the session cookie on each request, serves the assets built in memory
 * at start (src/web/assets.ts), and answers errors as pages (or, for `/console/api/*`, as
 * the API's JSON error body).
 *
 * @example
 * const app = await build({ config, engine, accounts, tokenStore, rateLimitStore, webStore, web: webPlugin });
 */
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebPluginOptions } from '../http/app.ts';
import { clientClosed, logClientClosed, setRetryAfter, toQuarryError } from '../http/error-handler.ts';
import { STATUS_BY_CATEGORY } from '../http/status.ts';
import { QuarryError, renderErrorBody } from '../errors/index.ts';
import { standingRefusal } from '../accounts/standing.ts';
import { notFoundPage } from './pages/not-found.ts';
import { loadAssets, type Asset } from './assets.ts';
import { assetUrls, pageContext, type WebContext } from './context.ts';
import { errorBox, page } from './layout.ts';
import { html } from './html.ts';
import { accountRoutes, signInRedirect } from './routes/account.ts';
import { adminRoutes } from './routes/admin.ts';
import { groupRoutes } from './routes/groups.ts';
import { consoleRoutes } from './routes/console.ts';
import { homeRoutes } from './routes/home.ts';
import { keyRoutes } from './routes/keys.ts';
import { cookieOptions, SESSION_COOKIE, type WebState } from './session.ts';

/**
 * Pages are never cached, may only load this server's own scripts and styles, and may not be
 * framed. CodeMirror and chart.js set inline styles, hence `'unsafe-inline'` for styles only.
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

function isApiPath(request: FastifyRequest): boolean {
  return request.url.startsWith('/console/api/');
}

/** The sign-in forms, which start a new session whatever the old one was. */
function isSignIn(request: FastifyRequest): boolean {
  return request.method === 'POST' && ['/sign-in', '/sign-in/code'].includes(request.routeOptions.url ?? '');
}

function webError(error: unknown, request: FastifyRequest): QuarryError {
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET')
    return QuarryError.of('WEB_FORM_EXPIRED');
  return toQuarryError(error, request);
}

export async function webPlugin(app: FastifyInstance, options: WebPluginOptions): Promise<void> {
  const { accounts, config, engine, clock, service, loginCodes } = options;
  const store = options.webStore;
  const assets = await loadAssets();
  const ctx: WebContext = {
    accounts,
    config,
    engine,
    clock,
    store,
    loginCodes,
    assets,
    service,
    ...(options.groups ? { groups: options.groups } : {}),
  };

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'quarry_csrf',
    cookieOpts: { path: '/', sameSite: 'strict', httpOnly: true },
  });

  // Filled by the onRequest hook below; null only before it runs.
  app.decorateRequest('web', null as unknown as WebState);
  app.addHook('onRequest', async (request, reply) => {
    const state: WebState = { account: undefined, sessionId: undefined, isAdmin: false };
    request.web = state;
    const sessionId = request.cookies[SESSION_COOKIE];
    if (!sessionId || request.url.startsWith('/assets/')) return;
    const account = await accounts.resolveSession(sessionId);
    if (!account) return;
    // Only an active account may act. A session of one suspended or closed since it signed
    // in (ended there, but perhaps kept by another instance or an unreachable store) ends
    // here, and the request is refused saying why, unless it is a sign-in that replaces it.
    const refusal = standingRefusal(account.state, config.adminContact);
    if (refusal) {
      await accounts.endSession(sessionId);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
      if (!isSignIn(request)) throw refusal;
      return;
    }
    state.account = account;
    state.sessionId = sessionId;
    state.isAdmin = await store.isAdmin(account.id);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/assets/')) reply.headers(PAGE_HEADERS);
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    request.web ??= { account: undefined, sessionId: undefined, isAdmin: false };
    const quarryError = webError(error, request);
    const status = STATUS_BY_CATEGORY[quarryError.category];
    if (clientClosed(request)) logClientClosed(request, quarryError.code);
    else if (status >= 500) request.log.warn({ code: quarryError.code, status }, 'web request failed');
    setRetryAfter(reply, status);
    if (isApiPath(request)) {
      return reply
        .status(status)
        .type('application/json; charset=utf-8')
        .send(renderErrorBody(quarryError, { dslVersion: request.dslVersion, queryText: request.queryText }));
    }
    if (quarryError.code === 'WEB_SIGN_IN_REQUIRED' && request.method === 'GET') return signInRedirect(request, reply);
    if (
      quarryError.code === 'WEB_SIGN_IN_REQUIRED' &&
      request.web.sessionId === undefined &&
      request.cookies[SESSION_COOKIE]
    ) {
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
    }
    const ctxPage = pageContext(ctx, request, reply);
    const body = html`<h1>${status === 403 ? 'Not allowed' : status === 401 ? 'Please sign in' : 'Something went wrong'}</h1>
${errorBox(quarryError)}
<p><a href="${request.web.account ? '/' : '/#sign-in'}">Back to the API home page</a></p>`;
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(page(ctxPage, { title: 'Error', body }).toString());
  });

  const serve = (asset: Asset) => async (request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Vary', 'Accept-Encoding')
      .type(asset.type);
    if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
      return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.body);
  };
  const asset = (name: string) => ({ config: { metricsRoute: `/assets/${name}` } });
  app.get(`/assets/console.${assets.consoleJs.hash}.js`, asset('console.{hash}.js'), serve(assets.consoleJs));
  app.get(`/assets/page.${assets.pageJs.hash}.js`, asset('page.{hash}.js'), serve(assets.pageJs));
  app.get(`/assets/quarry.${assets.styles.hash}.css`, asset('quarry.{hash}.css'), serve(assets.styles));

  // An anonymous frame: the unknown address went through none of the session hooks.
  options.setNotFoundPage((path) => ({
    headers: PAGE_HEADERS,
    html: notFoundPage({
      account: undefined,
      isAdmin: false,
      csrfToken: '',
      path,
      assets: assetUrls(assets),
    }).toString(),
  }));

  homeRoutes(app, ctx);
  keyRoutes(app, ctx);
  accountRoutes(app, ctx);
  consoleRoutes(app, ctx);
  adminRoutes(app, ctx);
  groupRoutes(app, ctx);
}
